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
from domain.store import keys
from domain.table import to_act
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings
from tests.archive_kit import play
from tests.integration.test_archive import Clock, http_answers
from tests.support.games import games_under_test
from tests.support.redis_process import RedisProcess
from tests.support.workers import ROOT


def donkeypost(url: str, *args: str, **more: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "REDIS_URL": url, **more}
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
        # (every game counted long here: its copy for reads kept as long as its record)
        done = donkeypost(fresh.url, "import", str(backup),
                          DONKEYPOST_ARCHIVE_KEEP_READ_FROM_EVENTS="1")
        assert b"5 games loaded, 0 already" in done.stderr
        settings = Settings(redis_url=fresh.url, rate_limits=RateLimits.off(),
                            health_workers=())
        # The import expanded the archived game to check it, and kept its copy for reads
        # from that expansion: a new process's first view of it expands nothing.
        archived = finished[0][0].id
        viewer = bootstrap(settings, hooks=NoHooks(), clock=clock, games=games_under_test())
        assert viewer.store_redis.pttl(keys.archive_read(archived)) == -1
        view = web_app(viewer, {"TESTING": True}).test_client().get(f"/games/{archived}")
        assert view.get_data() == before[archived][0][2]
        assert len(viewer.service.store.cache) == 0
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


def _auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _people_game(client, creator: dict, other: dict) -> tuple[str, dict[int, str]]:
    """A 3-seat game of the creator, the player they invite and a guest."""
    r = client.post("/games", headers=_auth(creator["key"]), json={
        "type": "ochs-und-esel", "deadline_s": None, "options": {"rounds": 1},
        "seats": [{"kind": "human", "me": True}, {"kind": "human", "invite": other["name"]},
                  {"kind": "human"}]})
    assert r.status_code == 201, r.get_json()
    game_id = r.get_json()["id"]
    assert client.post(f"/games/{game_id}/players", headers=_auth(other["key"])
                       ).status_code == 201
    guest = client.post(f"/games/{game_id}/players", json={"name": "guest"}).get_json()
    seats = client.get(f"/games/{game_id}").get_json()["seats"]
    by_name = {s["name"]: i for i, s in enumerate(seats)}
    return game_id, {by_name[creator["name"]]: creator["key"],
                     by_name[other["name"]]: other["key"], guest["seat"]: guest["token"]}


def _play(client, game_id: str, credentials: dict[int, str], moves: int) -> None:
    for n in range(moves):
        view = client.get(f"/games/{game_id}").get_json()
        if view["status"] != "active":
            return
        seat = view["to_act"][0]
        mine = client.get(f"/games/{game_id}", headers=_auth(credentials[seat])).get_json()
        r = client.post(f"/games/{game_id}/actions", json=mine["legal_actions"][0],
                        headers={**_auth(credentials[seat]), "Idempotency-Key": f"m{n}"})
        assert r.status_code == 200, r.get_json()


def test_a_restored_service_lets_its_players_sign_in_and_go_on(tmp_path):
    """Players, their keys, inboxes, ratings, streams and settings, the games' chat and
    webhooks, the service's names, leaderboards and push key: all come back."""
    data = tmp_path / "redis-1"
    redis_server = RedisProcess(data)
    redis_server.start()
    clock = Clock()
    settings = Settings(redis_url=redis_server.url, rate_limits=RateLimits.off(),
                        health_workers=())
    try:
        first = bootstrap(settings, hooks=NoHooks(), clock=clock, games=games_under_test())
        client = web_app(first, {"TESTING": True}).test_client()
        ann, bob = (client.post("/players", json={"name": n}).get_json() for n in ("Ann", "Bob"))
        finished, seats = _people_game(client, ann, bob)
        assert client.post(f"/games/{finished}/messages", headers=_auth(ann["key"]),
                           json={"text": "good luck"}).status_code == 201
        _play(client, finished, seats, 5000)
        assert first.service.rate_game(finished) == "rated"
        live, live_seats = _people_game(client, bob, ann)
        _play(client, live, live_seats, 6)
        guest = next(k for k in live_seats.values() if k not in (ann["key"], bob["key"]))
        assert client.post(f"/games/{live}/messages", headers=_auth(bob["key"]),
                           json={"text": "your move, Ann"}).status_code == 201
        assert client.post(f"/games/{live}/webhooks", headers=_auth(guest),
                           json={"url": "http://93.184.215.14/"}).status_code == 201
        assert client.put("/players/me/notifications", headers=_auth(ann["key"]), json={
            "channels": ["email"], "email": "ann@example.org"}).status_code == 200
        assert client.put("/players/me/settings", headers=_auth(bob["key"]),
                          json={"auto_forced": True}).status_code == 200
        reads = [("/players/me", ann["key"]), ("/players/me", bob["key"]),
                 ("/players/me/games?status=finished", ann["key"]),
                 ("/players/me/games?status=active", bob["key"]),
                 ("/players/me/events", ann["key"]), ("/ratings/ochs-und-esel", None),
                 (f"/games/{finished}/messages", None), (f"/games/{live}/messages", None),
                 (f"/games/{live}/webhooks", guest),
                 ("/players/me/notifications", ann["key"]),
                 ("/players/me/settings", bob["key"]), ("/push/key", None),
                 (f"/games/{live}", bob["key"])]
        clock.frozen = True

        def answers(client) -> list[tuple[int, bytes]]:
            out = []
            for path, key in reads:
                r = client.get(path, headers=_auth(key) if key else {})
                out.append((r.status_code, r.get_data()))
            return out

        before = answers(client)
        assert all(status == 200 for status, _body in before), before
        backup = tmp_path / "service.ndjson"
        done = donkeypost(redis_server.url, "export", "--output", str(backup))
        assert b"2 games written, 2 players" in done.stderr
    finally:
        redis_server.kill()
    shutil.rmtree(data)

    fresh = RedisProcess(tmp_path / "redis-2")
    fresh.start()
    try:
        done = donkeypost(fresh.url, "import", str(backup))
        assert b"2 games loaded, 0 already" in done.stderr
        assert b"2 players loaded, 0 already there" in done.stderr
        settings = Settings(redis_url=fresh.url, rate_limits=RateLimits.off(),
                            health_workers=())
        second = bootstrap(settings, hooks=NoHooks(), clock=clock, games=games_under_test())
        client = web_app(second, {"TESTING": True}).test_client()
        assert answers(client) == before
        # They go on: a name is still taken, a message and a move with a player's key.
        assert client.post("/players", json={"name": "Ann"}).status_code == 409
        assert client.post(f"/games/{live}/messages", headers=_auth(ann["key"]),
                           json={"text": "here I am"}).status_code == 201
        clock.frozen = False
        version = client.get(f"/games/{live}").get_json()["version"]
        _play(client, live, live_seats, 1)
        assert client.get(f"/games/{live}").get_json()["version"] > version
        again = donkeypost(fresh.url, "import", str(backup))
        assert b"0 games loaded, 2 already in the store" in again.stderr
        assert b"0 players loaded, 2 already there" in again.stderr
    finally:
        fresh.kill()
