"""Fixtures and tiers for the whole run.

Fixtures: a real Redis for the whole run (an external one from TEST_REDIS_URL, else the
embedded server, configured and run as `donkeypost serve` runs it), emptied before each
test that uses it.

Tiers: every test is marked by where it lives, here and nowhere else (`TIERS`: a folder, a
file, or one test of a file that mixes). `pytest -m "not slow"` is the edit loop; `pytest`
runs everything. A test that starts processes of its own is `process`; one that drives
Chromium `browser`; one that needs Node `node`; one on a Redis Cluster `cluster`; the
benchmarks' own tests `bench`; and any of them that takes seconds is also `slow`.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from domain.connection import connect
from domain.registry import GameRegistry
from tests.support import plugins
from tests.support.games import games_under_test
from tests.support.redis_process import RedisProcess

ROOT = Path(__file__).resolve().parent.parent

# Where a test lives → its markers (the longest matching entry wins, so a file can differ
# from its folder and a test from its file). The markers are declared in pyproject.toml.
TIERS: dict[str, tuple[str, ...]] = {
    "tests/browser/": ("browser", "process", "slow"),
    "tests/browser/test_built_files.py": ("node", "slow"),
    "tests/cluster/": ("cluster", "process", "slow"),
    "bench/tests/": ("bench",),
    "bench/tests/test_bench_smoke.py": ("bench", "process", "slow"),
    "bench/tests/test_aof_commands.py": ("bench", "process", "slow"),
    "bench/tests/test_peer_game.py": ("bench", "node", "slow"),
    "tests/e2e/test_schemathesis.py": ("slow",),
    "tests/e2e/test_generated_clients.py": ("node", "slow"),
    "tests/e2e/test_long_polls.py": ("process", "slow"),
    "tests/e2e/test_outages.py::test_requests_during_a_redis_outage_get_503_with_retry_after_then_200":
        ("process", "slow"),
    "tests/e2e/test_slow_bodies.py": ("process", "slow"),
    "tests/e2e/test_quickstart.py": ("process", "slow"),
    "tests/e2e/test_readme_players.py": ("process", "slow"),
    "tests/e2e/test_rate_limits.py::test_a_limit_from_the_environment_under_gunicorn":
        ("process", "slow"),
    "tests/e2e/test_hostile_input.py::test_bodies_over_the_limit_are_refused_chunked_or_not":
        ("process", "slow"),
    "tests/e2e/test_hostile_input.py::test_the_stream_refuses_a_seq_it_cannot_serve_before_it_starts":
        ("process", "slow"),
    "tests/integration/test_kills_under_serve.py": ("process", "slow"),
    "tests/integration/test_redis_kill_under_serve.py": ("process", "slow"),
    "tests/integration/test_redis_outage.py": ("process", "slow"),
    "tests/integration/test_redis_cluster_fixture.py": ("cluster", "process", "slow"),
    "tests/integration/test_serve.py": ("process", "slow"),
    "tests/integration/test_serve_granian.py": ("process", "slow"),
    "tests/integration/test_supervisor.py": ("process", "slow"),
    "tests/integration/test_worker_processes.py": ("process", "slow"),
    "tests/integration/test_health.py": ("process", "slow"),
    "tests/integration/test_bot_fairness.py": ("process", "slow"),
    "tests/integration/test_server_refusals.py": ("process", "slow"),
    "tests/integration/test_metrics.py": ("process", "slow"),
    "tests/integration/test_notify_email.py::test_each_player_gets_exactly_one_e_mail_across_a_killed_notifier":
        ("process", "slow"),
    "tests/integration/test_archive.py::test_a_worker_killed_while_archiving_leaves_every_game_whole_or_archived":
        ("process", "slow"),
}


def tier_of(nodeid: str) -> tuple[str, ...]:
    """The markers of the test with this node id (its path from the project's root)."""
    def holds(where: str) -> bool:
        if where.endswith("/"):
            return nodeid.startswith(where)
        return nodeid == where or nodeid.startswith((where + "::", where + "["))

    found = [where for where in TIERS if holds(where)]
    return TIERS[max(found, key=len)] if found else ()


# Where a test lives → its group in the parallel run (`pytest -n`, pytest-xdist's `loadgroup`):
# a group's tests run one after the other in one process, so that what is costly to start
# is started once: the browser tests' served stack and Chromium, the cluster tests' Redis
# Cluster, a module's own server or generated client (a test file with a module-scoped
# fixture is listed here: tests/unit/test_test_groups.py says so). Other tests are handed
# out one by one to whichever process is free.
GROUPS: dict[str, str] = {
    "tests/browser/": "browser",
    "tests/cluster/": "cluster",
    "tests/e2e/test_generated_clients.py": "generated-clients",
    "tests/e2e/test_hostile_input.py": "hostile-input",
    "tests/integration/test_server_refusals.py": "server-refusals",
}


def group_of(path: str) -> str | None:
    """The parallel run's group of the tests in the file at `path` (from the root)."""
    found = [where for where in GROUPS if path == where or
             (where.endswith("/") and path.startswith(where))]
    return GROUPS[max(found, key=len)] if found else None


# tryfirst: pytest-xdist reads the groups in its own hook of this name.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        path = item.path.resolve().relative_to(ROOT).as_posix()
        _file, _, test = item.nodeid.partition("::")
        for marker in tier_of(f"{path}::{test}" if test else path):
            item.add_marker(marker)
        group = group_of(path)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
    # The slow tests first, so that the parallel run's processes end together rather than
    # one of them starting a minute-long test when the other has nothing left (every
    # process sorts its own collection the same way; xdist hands out the groups in order).
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto` (pyproject.toml): one process per core, and at least two (many tests wait
    on processes, timeouts and sockets rather than compute, so two overlap even on one
    core); none, the run in this process, for one file or one test (starting the
    processes costs more than it saves) and under `--pdb`."""
    where = config.invocation_params.dir
    if config.option.usepdb or (len(config.args) == 1 and
                                (where / config.args[0].split("::")[0]).is_file()):
        return 0
    return max(2, len(os.sched_getaffinity(0)))


def pytest_configure(config: pytest.Config) -> None:
    """The suite's own game distributions (`tests/game_plugins/`), installed for the run
    before anything asks for the games (`tests.support.plugins`)."""
    # (No `config.cache` under `-p no:cacheprovider`: then a folder of the system's.)
    found = getattr(config, "cache", None)
    cache = found.mkdir("game-plugins") if found is not None else \
        Path(tempfile.gettempdir()) / "donkeypost-test-game-plugins"
    plugins.install(Path(cache))


@pytest.fixture
def games() -> GameRegistry:
    """The registry the tests' apps and services play (`tests.support.games`)."""
    return games_under_test()


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    external = os.environ.get("TEST_REDIS_URL")
    if external:
        yield external
        return
    server = RedisProcess(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server.url
    server.stop()


@pytest.fixture
def redis_client(redis_url: str) -> Iterator[redis.Redis]:
    client = connect(redis_url)
    client.flushdb()
    yield client
    client.close()
