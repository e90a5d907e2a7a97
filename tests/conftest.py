"""Fixtures: a real Redis for the whole run (an external one from TEST_REDIS_URL, else the
embedded server, configured and run as `donkeypost serve` runs it), emptied before each test
that uses it."""

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


def pytest_configure(config: pytest.Config) -> None:
    """The suite's own game distributions (`tests/game_plugins/`), installed for the run
    before anything asks for the games (`tests.support.plugins`)."""
    cache = config.cache.mkdir("game-plugins") if config.cache is not None else \
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
