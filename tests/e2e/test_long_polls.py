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

from domain.connection import MAX_CONNECTIONS
from donkeypost.bootstrap import QUEUE_CLIENT, STORE_CLIENT
from tests.support.gunicorn import Gunicorn
from tests.support.http_connection import HttpConnection
from tests.support.redis_process import RedisProcess

GAMES = 100
POLLS_PER_GAME = 20  # 2,000 long-polls
# Longer than a busy machine takes to open them all (up to 11 s seen) and move 10 games.
WAIT_S = 25
MOVED = 10  # games that move while their long-polls wait


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

    # A few at a time: the test is about the long-polls, not a burst of creations.
    few = asyncio.Semaphore(8)

    async def paced() -> tuple[str, list[str], int]:
        async with few:
            return await one()

    return list(await asyncio.gather(*(paced() for _ in range(GAMES))))


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
    # No keep-alive: on a busy machine a pooled connection idle past gunicorn's keep-alive
    # may be closed just as the next request goes out on it.
    no_reuse = httpx.Limits(max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=no_reuse) as client:
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

    polls = []
    # A game's long-polls at a time, each batch followed by a plain read on a connection of
    # its own: its answer comes once the web process has taken in what came before, so a
    # busy machine opens them at the pace the process can take (a burst past it would be
    # answered 503 as the pool's waiting time runs out, by design).
    paced = HttpConnection(host, int(port))
    opened = time.monotonic()
    for g, _t, v in games:
        polls += [asyncio.create_task(poll(g, v)) for _ in range(POLLS_PER_GAME)]
        await asyncio.sleep(0.01)
        status, raw = await paced.request("GET", f"/games/{g}")
        assert status == 200, raw
    await paced.close()
    for _ in range(40):  # until every long-poll waits in the server
        await asyncio.sleep(0.5)
        held = _web_connections(admin)
        if any(c.get("cmd") == "subscribe" for c in held) and \
                sum(not p.done() for p in polls) == len(polls):
            await asyncio.sleep(1.0)
            break
    waiting = sum(not p.done() for p in polls)
    held = _web_connections(admin)
    open_s = time.monotonic() - opened
    moved = {g for g, _t, _v in games[:MOVED]}
    mover = HttpConnection(host, int(port))
    for game_id, tokens, _v in games[:MOVED]:
        await _move(mover, game_id, tokens)
    await mover.close()
    done = await asyncio.gather(*polls)
    return {"waiting": waiting, "held": held, "open_s": open_s, "moved": moved, "done": done}


def test_two_thousand_long_polls_hold_a_handful_of_redis_connections(tmp_path: Path):
    with RedisProcess(tmp_path / "redis") as server, \
            Gunicorn(server.url, workers=1, log_dir=tmp_path, app="donkeypost.wsgi:app",
                     env={"RATE_LIMITS": "off"},
                     connections=GAMES * POLLS_PER_GAME + 200) as web:
        admin = redis.Redis(unix_socket_path=str(server.socket))
        found = asyncio.run(_run(web.url, admin))
        admin.close()
    assert found["waiting"] == GAMES * POLLS_PER_GAME
    held = [(c.get("name"), c.get("cmd"), int(c.get("idle", 0))) for c in found["held"]]
    # The games' pool, its one subscription among them: none per waiting long-poll.
    games = [c for c in held if c[0] == STORE_CLIENT]
    assert len(games) <= MAX_CONNECTIONS, held
    assert [c[1] for c in games].count("subscribe") == 1, held
    # Besides, only the queues' client, which the setup's moves used and no long-poll does.
    others = [c for c in held if c[0] != STORE_CLIENT]
    assert all(name == QUEUE_CLIENT and idle >= found["open_s"] - 1
               for name, _cmd, idle in others), (found["open_s"], held)
    assert len(held) <= 2 * MAX_CONNECTIONS, held
    assert not [c for c in found["held"] if "b" in c.get("flags", "")], "none blocked"
    for game_id, took, status, raw in found["done"]:
        assert status == 200, raw
        events = json.loads(raw)["events"]
        if game_id in found["moved"]:
            assert events and took < WAIT_S, (game_id, took)  # woken by the move
        else:
            assert events == [] and took >= WAIT_S - 0.5  # waited, then answered empty
