"""Long-polls on the real stack: gunicorn's gevent worker serving `donkeypost.wsgi:app` on a
Redis of the test's own, so that `CLIENT LIST` shows this one web process's connections.
Two thousand `GET /games/{id}/events?wait=…` waiting at once hold a handful of them; each
answers as soon as its game moves, or empty when its wait is over."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import httpx
import redis

from bench.loadgen import HttpConnection
from bench.server import Gunicorn
from domain.connection import MAX_CONNECTIONS
from tests.support.redis_server import own_redis

GAMES = 100
POLLS_PER_GAME = 20  # 2,000 long-polls
WAIT_S = 8
MOVED = 10  # games that move while their long-polls wait
HANDFUL = MAX_CONNECTIONS + 2  # the games' pool, the subscription, the queues' client


async def _setup(client: httpx.AsyncClient) -> list[tuple[str, list[str], int]]:
    async def one() -> tuple[str, list[str], int]:
        game = (await client.post("/games", json={
            "type": "ochs-und-esel", "seats": [{"kind": "human"}] * 3,
            "deadline_s": None})).json()
        tokens = [""] * 3
        for name in ("ann", "bob", "cy"):
            joined = (await client.post(f"/games/{game['id']}/players",
                                        json={"name": name})).json()
            tokens[joined["seat"]] = joined["token"]
        return game["id"], tokens, joined["game"]["version"]

    return list(await asyncio.gather(*(one() for _ in range(GAMES))))


async def _move(conn: HttpConnection, game_id: str, tokens: list[str]) -> None:
    _status, raw = await conn.request("GET", f"/games/{game_id}")
    seat = json.loads(raw)["to_act"][0]
    auth = {"Authorization": f"Bearer {tokens[seat]}"}
    _status, raw = await conn.request("GET", f"/games/{game_id}", headers=auth)
    action = json.dumps(json.loads(raw)["legal_actions"][0]).encode()
    status, raw = await conn.request("POST", f"/games/{game_id}/actions", action, auth)
    assert status == 200, raw


def _web_connections(admin: redis.Redis) -> list[dict]:
    me = admin.client_id()
    return [c for c in admin.client_list() if int(c["id"]) != me]


async def _run(base: str, admin: redis.Redis) -> dict:
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        games = await _setup(client)
    host, port = base.removeprefix("http://").split(":")

    async def poll(game_id: str, version: int) -> tuple[str, float, int, bytes]:
        conn = HttpConnection(host, int(port))  # one connection per long-poll, as clients
        started = time.monotonic()
        try:
            status, raw = await conn.request(
                "GET", f"/games/{game_id}/events?after={version}&wait={WAIT_S}")
        finally:
            await conn.close()
        return game_id, time.monotonic() - started, status, raw

    polls = [asyncio.create_task(poll(g, v)) for g, _t, v in games
             for _ in range(POLLS_PER_GAME)]
    for _ in range(20):  # until every long-poll waits in the server
        await asyncio.sleep(0.5)
        held = _web_connections(admin)
        if any(c.get("cmd") == "subscribe" for c in held) and \
                sum(not p.done() for p in polls) == len(polls):
            await asyncio.sleep(1.0)
            break
    waiting = sum(not p.done() for p in polls)
    held = _web_connections(admin)
    moved = {g for g, _t, _v in games[:MOVED]}
    mover = HttpConnection(host, int(port))
    for game_id, tokens, _v in games[:MOVED]:
        await _move(mover, game_id, tokens)
    await mover.close()
    done = await asyncio.gather(*polls)
    return {"waiting": waiting, "held": held, "moved": moved, "done": done}


def test_two_thousand_long_polls_hold_a_handful_of_redis_connections(tmp_path: Path):
    with own_redis(tmp_path / "redis") as server, \
            Gunicorn(server.url, workers=1, log_dir=tmp_path, app="donkeypost.wsgi:app",
                     env={"RATE_LIMITS": "off"},
                     connections=GAMES * POLLS_PER_GAME + 200) as web:
        admin = redis.Redis(unix_socket_path=str(server.socket))
        found = asyncio.run(_run(web.url, admin))
        admin.close()
    assert found["waiting"] == GAMES * POLLS_PER_GAME
    # The pool's few connections and the one subscription: none per waiting long-poll.
    assert len(found["held"]) <= HANDFUL, [c.get("cmd") for c in found["held"]]
    assert [c.get("cmd") for c in found["held"]].count("subscribe") == 1, found["held"]
    assert not [c for c in found["held"] if "b" in c.get("flags", "")], "none blocked"
    for game_id, took, status, raw in found["done"]:
        assert status == 200, raw
        events = json.loads(raw)["events"]
        if game_id in found["moved"]:
            assert events and took < WAIT_S, (game_id, took)  # woken by the move
        else:
            assert events == [] and took >= WAIT_S - 0.5  # waited, then answered empty
