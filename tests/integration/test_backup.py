"""Backup and restore with the real commands: `donkeypost export`, Redis killed and its files
deleted, `donkeypost import` into the new, empty Redis: every finished game (archived or
not) answers as before, every live game plays on with its seats' tokens; importing again
duplicates nothing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import msgspec
import pytest

from api.rate_limits import RateLimits
from domain.archive.archiving import archive_game
from domain.archive.backup import BackupError, read_lines
from domain.service import NoHooks
from domain.table import to_act
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings
from tests.archive_kit import play
from tests.integration.test_archive import Clock, http_answers
from tests.support.games import games_under_test
from tests.support.redis_process import RedisProcess
from tests.support.workers import ROOT


def donkeypost(url: str, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "REDIS_URL": url}
    env.pop("RQ_REDIS_URL", None)
    return subprocess.run([sys.executable, "-m", "donkeypost.cli", *args], cwd=ROOT,
                          env=env, capture_output=True, timeout=120, check=True)


def test_export_kill_redis_delete_its_files_import_and_play_on(tmp_path):
    data = tmp_path / "redis-1"
    redis_server = RedisProcess(data)
    redis_server.start()
    clock = Clock()
    try:
        settings = Settings(redis_url=redis_server.url, rate_limits=RateLimits.off(),
                            health_workers=())
        first = bootstrap(settings, hooks=NoHooks(), clock=clock, games=games_under_test())
        finished = [play(first.service, t, n, o, seed=s, people=2) for s, (t, n, o) in
                    enumerate([("ochs-und-esel", 3, {"rounds": 1}), ("trash", 2,
                               {"max_rounds": 1}), ("canyon-donkeys", 4, {})])]
        archive_game(first.archives, games_under_test(), finished[0][0].id)
        live = [play(first.service, t, n, o, seed=s, people=2, max_moves=12)
                for s, (t, n, o) in enumerate([("crazy-donkey", 4, {"deals": 1}),
                                               ("ochs-und-esel", 4, {"rounds": 1})])]
        assert all(t.status == "active" for t, _ in live)
        clock.frozen = True
        client = web_app(first, {"TESTING": True}).test_client()
        before = {t.id: http_answers(client, t.id, t.version, tokens, t.players)
                  for t, tokens in finished}
        backup = tmp_path / "games.ndjson"
        done = donkeypost(redis_server.url, "export", "--output", str(backup))
        assert b"5 games written" in done.stderr
    finally:
        redis_server.kill()
    shutil.rmtree(data)

    fresh = RedisProcess(tmp_path / "redis-2")
    fresh.start()
    try:
        done = donkeypost(fresh.url, "import", str(backup))
        assert b"5 games loaded, 0 already" in done.stderr
        settings = Settings(redis_url=fresh.url, rate_limits=RateLimits.off(),
                            health_workers=())
        second = bootstrap(settings, hooks=NoHooks(), clock=clock, games=games_under_test())
        client = web_app(second, {"TESTING": True}).test_client()
        for table, tokens in finished:
            assert http_answers(client, table.id, table.version, tokens,
                                table.players) == before[table.id]
        listed = msgspec.json.decode(client.get("/games?status=active").get_data())
        assert {g["id"] for g in listed} == {t.id for t, _ in live}
        clock.frozen = False
        for table, tokens in live:
            game = games_under_test().game(table.type)
            now, _ = second.service.load(table.id)
            seat = sorted(to_act(now, game))[0]
            body = msgspec.to_builtins(game.legal_actions(now.game, seat)[0])
            if seat in tokens:  # the seat's own token, kept through the backup
                answer = client.post(f"/games/{table.id}/actions", json=body,
                                     headers={"Authorization": f"Bearer {tokens[seat]}"})
                assert answer.status_code == 200, answer.get_data()
            else:
                second.service.act(table.id, seat, body, by="bot")
            assert second.service.load(table.id)[0].version > table.version
        again = donkeypost(fresh.url, "import", str(backup))
        assert b"0 games loaded, 5 already in the store" in again.stderr
    finally:
        fresh.kill()


def test_a_backup_cut_short_is_refused():
    lines = [b'{"format": "donkeypost-backup", "version": 1, "written_at": 0, "since": null}',
             b'{"id": "x", "record": ""}']
    with pytest.raises(BackupError, match="ends early"):
        list(read_lines(lines))
    with pytest.raises(BackupError, match="not a donkeypost backup"):
        list(read_lines([b'{"hello": 1}']))
