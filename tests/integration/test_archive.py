"""Archived games on a real Redis: every HTTP answer about a game is byte for byte the one
given before it was archived (every game and variant, every seat and the spectator, read
by a process that never saw the game); a worker killed while it archives leaves every game
whole or archived, never neither; an archived game's keys are one record."""

from __future__ import annotations

import math
import time

import msgspec
import pytest

from api.rate_limits import RateLimits
from domain.archive.archiving import archive_game
from domain.service import NoHooks
from domain.store import keys
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings
from tests.archive_kit import VARIANTS, play, viewers
from tests.support.games import games_under_test
from tests.support.workers import WorkerProcess, wait_until


class Clock:
    """Moves a few tens of milliseconds a reading while the games are played; frozen
    while the answers are compared (they show the server's time)."""

    def __init__(self) -> None:
        self.now = 1_764_000_000.0
        self.frozen = False

    def __call__(self) -> float:
        if not self.frozen:
            self.now += 0.0371
        return self.now


def settings(redis_url: str, **more: object) -> Settings:
    return Settings(redis_url=redis_url, rate_limits=RateLimits.off(), health_workers=(),
                    **more)  # type: ignore[arg-type]


def http_answers(client, game_id: str, version: int, tokens: dict[int, str],
                 players: int) -> list[tuple[str, int, bytes, str | None]]:
    paths = [f"/games/{game_id}", f"/games/{game_id}/events",
             f"/games/{game_id}/events?after=3&limit=5", f"/games/{game_id}/log",
             f"/games/{game_id}/events/stream"]
    paths += [f"/games/{game_id}/states/{seq}"
              for seq in sorted({1, 2, 3, 127, 128, 129, 200, version // 3, version - 1,
                                 version}) if 1 <= seq <= version]
    out = []
    for viewer in [None, *range(players)]:
        headers = {"Authorization": f"Bearer {tokens[viewer]}"} \
            if viewer in tokens else {}
        for path in paths:
            answer = client.get(path, headers=headers)
            out.append((path, answer.status_code, answer.get_data(), answer.headers.get("ETag")))
    return out


def test_every_answer_of_an_archived_game_is_the_one_before(redis_url, redis_client):
    clock = Clock()
    first = bootstrap(settings(redis_url), hooks=NoHooks(), clock=clock, games=games_under_test())
    played = []
    for i, (game_type, players, options) in enumerate(VARIANTS):
        table, tokens = play(first.service, game_type, players, options, seed=i, people=2)
        played.append((table, tokens))
    clock.frozen = True
    client = web_app(first, {"TESTING": True}).test_client()
    before = {t.id: http_answers(client, t.id, t.version, tokens, t.players)
              for t, tokens in played}
    listing = client.get("/games?status=finished&page_size=50").get_data()
    for table, _tokens in played:
        assert archive_game(first.archives, games_under_test(), table.id) == "archived"
        assert redis_client.exists(*keys.archived_away(table.id)) == 0
        assert redis_client.exists(keys.archive(table.id)) == 1
        # The copy of what its views read, for a day.
        assert 0 < redis_client.pttl(keys.archive_read(table.id)) <= 86_400_000
    # Another process, which never expanded these games: it lists them from their
    # summaries, expanding none, and answers their views from the copies.
    second = bootstrap(settings(redis_url), hooks=NoHooks(), clock=clock, games=games_under_test())
    client = web_app(second, {"TESTING": True}).test_client()
    assert client.get("/games?status=finished&page_size=50").get_data() == listing
    assert len(second.service.store.cache) == 0
    for table, _tokens in played:
        answer = client.get(f"/games/{table.id}")
        assert (answer.get_data(), answer.headers.get("ETag")) == before[table.id][0][2:]
    assert len(second.service.store.cache) == 0
    for table, tokens in played:
        after = http_answers(client, table.id, table.version, tokens, table.players)
        for want, got in zip(before[table.id], after, strict=True):
            assert got == want, f"{table.type} {want[0]} differs once archived"
    assert client.get("/games?status=finished&page_size=50").get_data() == listing


def test_a_copy_kept_for_ever_answers_an_old_games_first_view_without_expanding(
        redis_url, redis_client):
    """With `DONKEYPOST_ARCHIVE_READ_TTL_S=forever` the copy has no expiry: a process
    started any time later answers the game's view from it, as the game answered before."""
    clock = Clock()
    forever = settings(redis_url, archive_read_ttl_s=math.inf)
    first = bootstrap(forever, hooks=NoHooks(), clock=clock, games=games_under_test())
    table, _tokens = play(first.service, "trash", 3, {}, seed=5, people=0)
    clock.frozen = True
    client = web_app(first, {"TESTING": True}).test_client()
    before = client.get(f"/games/{table.id}")
    assert archive_game(first.archives, games_under_test(), table.id,
                        forever.read_copies) == "archived"
    assert redis_client.pttl(keys.archive_read(table.id)) == -1  # no expiry
    later = bootstrap(forever, hooks=NoHooks(), clock=clock, games=games_under_test())
    answer = web_app(later, {"TESTING": True}).test_client().get(f"/games/{table.id}")
    assert (answer.get_data(), answer.headers.get("ETag")) == \
        (before.get_data(), before.headers.get("ETag"))
    assert len(later.service.store.cache) == 0  # nothing was expanded
    # A reader's own expansion writes its copy for ever too.
    redis_client.delete(keys.archive_read(table.id))
    third = bootstrap(forever, hooks=NoHooks(), clock=clock, games=games_under_test())
    web_app(third, {"TESTING": True}).test_client().get(f"/games/{table.id}")
    assert len(third.service.store.cache) == 1
    assert redis_client.pttl(keys.archive_read(table.id)) == -1


def test_a_long_games_copy_is_kept_as_long_as_its_record_and_a_short_ones_for_a_day(
        redis_url, redis_client):
    """By default a game long enough that a first read could not afford its expansion
    keeps its copy without expiry (written when it is archived, and again by a reader
    that had to expand it); a short game's copy lasts a day."""
    clock = Clock()
    default = settings(redis_url)
    first = bootstrap(default, hooks=NoHooks(), clock=clock, games=games_under_test())
    long, _ = play(first.service, "trash", 3, {}, seed=5, people=0)
    short, _ = play(first.service, "ochs-und-esel", 3, {"rounds": 1}, seed=5, people=0)
    kept_from = default.read_copies.kept_from_events
    assert kept_from is not None and short.version < kept_from <= long.version
    clock.frozen = True
    client = web_app(first, {"TESTING": True}).test_client()
    before = client.get(f"/games/{long.id}").get_data()
    for table in (long, short):
        assert archive_game(first.archives, games_under_test(), table.id,
                            default.read_copies) == "archived"
    assert redis_client.pttl(keys.archive_read(long.id)) == -1  # no expiry
    assert 0 < redis_client.pttl(keys.archive_read(short.id)) <= 86_400_000
    redis_client.delete(keys.archive_read(long.id))
    later = bootstrap(default, hooks=NoHooks(), clock=clock, games=games_under_test())
    assert web_app(later, {"TESTING": True}).test_client().get(
        f"/games/{long.id}").get_data() == before
    assert len(later.service.store.cache) == 1  # expanded, and its copy kept again
    assert redis_client.pttl(keys.archive_read(long.id)) == -1
    # `DONKEYPOST_ARCHIVE_KEEP_READ_FROM_EVENTS=none`: a long game's copy lasts a day too.
    redis_client.delete(keys.archive_read(long.id))
    daily = settings(redis_url, archive_kept_from_events=None)
    third = bootstrap(daily, hooks=NoHooks(), clock=clock, games=games_under_test())
    web_app(third, {"TESTING": True}).test_client().get(f"/games/{long.id}")
    assert 0 < redis_client.pttl(keys.archive_read(long.id)) <= 86_400_000


def test_a_worker_killed_while_archiving_leaves_every_game_whole_or_archived(
        redis_url, redis_client, tmp_path):
    components = bootstrap(settings(redis_url), hooks=NoHooks(), games=games_under_test())
    logs = {}
    for i in range(40):  # (the worker is killed after its first: dozens are left)
        table, _ = play(components.service, "crazy-donkey", 4, {"deals": 1}, seed=i,
                        people=0)
        logs[table.id] = [msgspec.json.encode(e) for e in
                          components.service.store.read(table.id)]
    assert set(components.archives.due_archives(time.time(), 100)) == set(logs)

    def census() -> tuple[int, int]:
        """(archived, whole), read in one MULTI/EXEC: a consistent picture even while a
        worker archives; every game must be one or the other."""
        pipe = redis_client.pipeline(transaction=True)
        for game_id in logs:
            pipe.exists(keys.archive(game_id))
            pipe.exists(*keys.archived_away(game_id))
            pipe.exists(keys.events(game_id), keys.snapshot(game_id))
        found = pipe.execute()
        archived = whole = 0
        for game_id, has_record, has_keys, has_log in zip(
                logs, found[::3], found[1::3], found[2::3], strict=True):
            assert has_record + (has_keys > 0) == 1, f"{game_id}: {has_record}, {has_keys}"
            archived += has_record
            whole += has_log == 2
        assert archived + whole == len(logs)
        return archived, whole

    worker = WorkerProcess(redis_url, tmp_path / "worker-1.log",
                           DONKEYPOST_ARCHIVE_AFTER_S="0")
    try:
        wait_until(lambda: census()[0] >= 1, 60, "the worker to archive a game",
                   every_s=0.005)
    finally:
        worker.kill()
    archived, whole = census()
    assert 0 < archived < len(logs) and whole > 0  # killed in the middle
    worker = WorkerProcess(redis_url, tmp_path / "worker-2.log",
                           DONKEYPOST_ARCHIVE_AFTER_S="0")
    try:
        # (a game archived just before the kill may still be noted as due: its job,
        # queued again, finds it archived and takes the note away)
        wait_until(lambda: census()[0] == len(logs) and
                   not components.archives.due_archives(time.time(), 100), 120,
                   "every game archived")
    finally:
        worker.stop()
    fresh = bootstrap(settings(redis_url), hooks=NoHooks(), games=games_under_test())
    for game_id, log in logs.items():
        assert [msgspec.json.encode(e) for e in fresh.service.store.read(game_id)] == log


@pytest.mark.parametrize("game_type", ["ochs-und-esel", "trash"])
def test_the_archive_costs_a_fraction_of_the_game(redis_url, redis_client, game_type):
    components = bootstrap(settings(redis_url), hooks=NoHooks(), games=games_under_test())
    table, _ = play(components.service, game_type, 3, {}, seed=1, people=0)
    before = sum(redis_client.memory_usage(k) or 0 for k in keys.archived_away(table.id))
    assert archive_game(components.archives, games_under_test(), table.id) == "archived"
    after = redis_client.memory_usage(keys.archive(table.id))
    assert after * 20 < before
    assert len(redis_client.get(keys.archive(table.id))) <= table.version + 200
    assert viewers(table)  # (the kit's viewers: spectator and seats)


def test_healthz_measures_the_stores_memory_against_its_budget(redis_url, redis_client):
    # Ballast (8 MB, written by a small command: a large one would leave its query buffer
    # counted for a while), so that what comes and goes between the reads (the clients'
    # connections and buffers, a few hundred kilobytes) cannot move the fraction across a
    # threshold.
    redis_client.setrange("ballast", 8_000_000, b"x")
    used = int(redis_client.info("memory")["used_memory"])

    def health(budget_mb: float | None) -> tuple[int, dict]:
        app = web_app(bootstrap(settings(redis_url, memory_budget_mb=budget_mb),
                                hooks=NoHooks()))
        answer = app.test_client().get("/healthz")
        return answer.status_code, answer.get_json()

    status, body = health(used * 10 / 2**20)
    assert status == 200 and body["memory"]["status"] == "ok", body
    assert 0.05 < body["memory"]["used_fraction"] < 0.2
    assert body["memory"]["budget_bytes"] == int(used * 10)
    used = body["memory"]["used_bytes"]  # (with this process's connections and scripts)
    status, body = health(used / 0.9 / 2**20)
    assert status == 200 and body["memory"]["status"] == "warning", (used, body["memory"])
    status, body = health(used * 0.5 / 2**20)
    assert status == 503 and body["memory"]["status"] == "over"
    redis_client.config_set("maxmemory", used * 4)
    try:
        status, body = health(None)
        assert body["memory"]["status"] == "ok" and body["memory"]["budget_bytes"] == used * 4
    finally:
        redis_client.config_set("maxmemory", 0)
    status, body = health(None)
    assert status == 200 and body["memory"] == {
        "status": "unknown", "used_bytes": body["memory"]["used_bytes"],
        "budget_bytes": None, "used_fraction": None}
