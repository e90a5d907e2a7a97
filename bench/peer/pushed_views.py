"""donkeypost's push-model client for the `peer` section: a move is one request.

Each client plays its own 3-seat games as `bench.loadgen.play_client` does, but like the
boardgame.io generator's clients it never asks for a view: for each game it opens one
event stream per seat with `?views=true` (`GET /games/{id}/events/stream`), and plays
from the views the server pushes. A move is one `POST /games/{id}/actions` (If-Match the
pushed view's version, an Idempotency-Key), whose answer carries the acting seat's new
view; it is done when the seat that acts next holds a view of the new version (the
answer's own, when the same seat acts again). That wait is the move's latency, as the
boardgame.io generator measures it.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import socket
from collections.abc import Callable
from typing import Any

import msgspec

from bench.loadgen import EXPECTED_REFUSALS, HttpConnection, Run, Stop, _auth, _request, new_game

VIEW_TIMEOUT_S = 10.0
_VIEW_PREFIX = b"event: view\ndata: "


class ViewStream:
    """One seat's event stream with views: keeps the latest view it pushed."""

    def __init__(self, host: str, port: int, game_id: str, token: str, after: int,
                 changed: asyncio.Condition) -> None:
        self.host, self.port = host, port
        self.path = f"/games/{game_id}/events/stream?views=true&after={after}"
        self.token = token
        self.changed = changed
        self.view: dict[str, Any] | None = None
        self.ended = False
        self._task: asyncio.Task[None] | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        reader, self._writer = await asyncio.open_connection(self.host, self.port)
        sock = self._writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._writer.write(f"GET {self.path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                           f"Authorization: Bearer {self.token}\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        if head[9:12] != b"200":
            raise RuntimeError(f"the stream answered {head[9:12].decode()}")
        self._task = asyncio.ensure_future(self._read(reader))

    async def _read(self, reader: asyncio.StreamReader) -> None:
        buffered = b""
        try:
            while True:  # chunked transfer encoding: a size line, the chunk, CRLF
                size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
                if size == 0:
                    return
                buffered += await reader.readexactly(size)
                await reader.readexactly(2)
                *messages, buffered = buffered.split(b"\n\n")
                views = [m for m in messages if m.startswith(_VIEW_PREFIX)]
                if views:
                    self.view = msgspec.json.decode(views[-1][len(_VIEW_PREFIX):])
                    async with self.changed:
                        self.changed.notify_all()
        except (OSError, asyncio.IncompleteReadError, ValueError):
            return
        finally:
            self.ended = True
            async with self.changed:
                self.changed.notify_all()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(OSError):
                await self._writer.wait_closed()


class SeatViews:
    """A game's views as this client holds them: each seat's stream, and the last answer's
    own view (newer than its seat's pushed one until the push arrives)."""

    def __init__(self, host: str, port: int, game_id: str, tokens: list[str],
                 after: int) -> None:
        self.changed = asyncio.Condition()
        self.streams = [ViewStream(host, port, game_id, t, after, self.changed)
                        for t in tokens]
        self.own: dict[str, Any] | None = None

    async def open(self) -> None:
        await asyncio.gather(*(s.open() for s in self.streams))

    async def close(self) -> None:
        await asyncio.gather(*(s.close() for s in self.streams))

    def current(self, seat: int) -> dict[str, Any] | None:
        pushed, own = self.streams[seat].view, self.own
        if own is not None and own["you"] == seat and (
                pushed is None or own["version"] > pushed["version"]):
            return own
        return pushed

    async def of(self, seat: int, at_least: int) -> dict[str, Any] | None:
        """The seat's view at `at_least` or later; None if none comes in time."""

        def arrived() -> bool:
            view = self.current(seat)
            return view is not None and view["version"] >= at_least

        with contextlib.suppress(TimeoutError):
            async with self.changed:
                await asyncio.wait_for(self.changed.wait_for(
                    lambda: arrived() or self.streams[seat].ended), VIEW_TIMEOUT_S)
        return self.current(seat) if arrived() else None


async def play_pushed_client(run: Run, conn: HttpConnection, number: int, game: str,
                             players: int, record: Callable[[float], None],
                             finished: Callable[[], None]) -> None:
    """Play games over `conn` from pushed views; `record(seconds)` each move's latency."""
    rng = random.Random(number)
    moves = 0
    try:
        while True:
            game_id, tokens, to_act, version = await new_game(run, conn, game, players)
            views = SeatViews(conn.host, conn.port, game_id, tokens, version)
            try:
                await views.open()
                moves = await _play_game(run, conn, number, rng, moves, game_id, tokens,
                                         views, to_act[0] if to_act else 0, version,
                                         record, finished)
            except (OSError, asyncio.IncompleteReadError) as err:
                run.errors[f"{type(err).__name__}: {err}"[:120]] += 1  # a fresh game next
            finally:
                await views.close()
    except Stop:
        return


async def _play_game(run: Run, conn: HttpConnection, number: int, rng: random.Random,
                     moves: int, game_id: str, tokens: list[str], views: SeatViews,
                     seat: int, version: int, record: Callable[[float], None],
                     finished: Callable[[], None]) -> int:
    """One game to its end (or to an error); the client's count of moves."""
    loop = asyncio.get_running_loop()
    view = await views.of(seat, version)
    while view is not None and view["status"] == "active":
        if not view["legal_actions"]:
            run.errors["no legal action in the pushed view"] += 1
            break
        moves += 1
        headers = {**_auth(tokens[seat]), "If-Match": f'"{view["version"]}"',
                   "Idempotency-Key": f"c{number}-m{moves}"}
        started = loop.time()
        status, data = await _request(run, "move", conn, "POST", f"/games/{game_id}/actions",
                                      msgspec.json.encode(rng.choice(view["legal_actions"])),
                                      headers)
        if status != 200:
            if status not in EXPECTED_REFUSALS:
                break  # counted as an error; start a fresh game
            view = await views.of(seat, view["version"] + 1)
            continue
        acted = msgspec.json.decode(data)
        views.own = acted["view"]
        if not acted["to_act"]:
            record(loop.time() - started)
            finished()
            break
        seat = acted["to_act"][0]
        view = await views.of(seat, acted["version"])
        if view is None:
            run.errors["no pushed view in time"] += 1
            break
        record(loop.time() - started)
    return moves
