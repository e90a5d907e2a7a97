"""donkeypost's load generator in the `peer` section: `bench.loadgen`'s game clients,
driven over stdin with the commands of `bench/peer/loadgen.js` (go, start, stop, quit; one
JSON line answers each), so that the section can alternate donkeypost and boardgame.io in
slices.

    python -m bench.peer.donkeypost_client --url http://127.0.0.1:8000 --clients 32 \
        [--shape get-post|push]

Two shapes of client, each playing its own 3-seat games:
- `get-post` (the default): `bench.loadgen.play_client` unchanged, `GET /games/{id}` as
  the seat to act, then `POST /games/{id}/actions` with one of the view's
  `legal_actions` (If-Match, Idempotency-Key). A move's latency is the time from that GET
  to the POST's answer: what the client waits between two moves.
- `push`: `bench.peer.pushed_views`, one event stream with views per seat and one POST
  per move; a move's latency is the time from the POST to the moment the seat to act
  next holds the new view, as the boardgame.io generator's latency is the time from its
  `update` to the push it waits for.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import resource
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

import msgspec

from bench.loadgen import Run, play_client
from bench.peer.pushed_views import play_pushed_client
from tests.support.http_connection import HttpConnection


class Window:
    """The moves that end while a window is open, and their latencies; the games finished."""

    def __init__(self) -> None:
        self.recording = False
        self.latencies_ms: list[float] = []
        self.games_finished = 0

    def record(self, seconds: float) -> None:
        if self.recording:
            self.latencies_ms.append(round(seconds * 1000.0, 3))

    def finished(self) -> None:
        self.games_finished += 1


class MoveTimingConnection(HttpConnection):
    """A keep-alive connection that times whole moves: from the GET of the view to the
    successful answer of the POST that acts on it."""

    def __init__(self, host: str, port: int, window: Window) -> None:
        super().__init__(host, port)
        self.window = window
        self.view_started: float | None = None

    async def request(self, method: str, path: str, body: bytes | None = None,
                      headers: Mapping[str, str] | None = None) -> tuple[int, bytes]:
        if method == "GET":
            self.view_started = time.perf_counter()
        status, data = await super().request(method, path, body, headers)
        if method == "POST" and path.endswith("/actions"):
            if status == 200 and self.view_started is not None:
                self.window.record(time.perf_counter() - self.view_started)
            if status == 200 and b'"to_act":[]' in data:  # nobody left to act: game over
                self.window.games_finished += 1
            self.view_started = None
        return status, data


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def drive(url: str, clients: int, game: str, players: int, shape: str) -> None:
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    run = Run()
    window = Window()
    if shape == "push":
        conns = [HttpConnection(host, port) for _ in range(clients)]
        plays = [play_pushed_client(run, conn, n, game, players, window.record,
                                    window.finished) for n, conn in enumerate(conns)]
    else:
        conns = [MoveTimingConnection(host, port, window) for _ in range(clients)]
        plays = [play_client(run, conn, n, game, players) for n, conn in enumerate(conns)]
    await asyncio.gather(*(c.connect() for c in conns))
    tasks = [asyncio.ensure_future(play) for play in plays]
    loop = asyncio.get_running_loop()
    started = cpu_started = 0.0
    errors_before: Counter[str] = Counter()

    def answer(obj: dict[str, Any]) -> None:
        sys.stdout.write(msgspec.json.encode(obj).decode() + "\n")
        sys.stdout.flush()

    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        command = line.strip()
        if command == "go":
            run.phases.switch("moves")
            answer({"ok": True})
        elif command == "start":
            window.latencies_ms = []
            window.recording = True
            errors_before = run.errors + run.refusals
            started, cpu_started = time.perf_counter(), _cpu_seconds()
            answer({"ok": True})
        elif command == "stop":
            seconds = time.perf_counter() - started
            window.recording = False
            run.phases.switch(None)  # the clients wait after their request in flight
            errors = (run.errors + run.refusals) - errors_before
            answer({"moves": len(window.latencies_ms), "seconds": seconds,
                    "latencies_ms": window.latencies_ms, "errors": dict(errors),
                    "generator_cpu_s": _cpu_seconds() - cpu_started})
        elif command in ("quit", ""):  # "" = end of input: the section went away
            run.phases.stop()
            done, _ = await asyncio.wait(tasks, timeout=2.0)
            for task in tasks:
                task.cancel()
            crashes = Counter(f"{type(t.exception()).__name__}: {t.exception()}"[:200]
                              for t in done if not t.cancelled() and t.exception())
            with contextlib.suppress(Exception):
                await asyncio.gather(*(c.close() for c in conns))
            answer({"games_finished": window.games_finished,
                    "errors": {**run.errors, **crashes},
                    "expected_refusals": dict(run.refusals)})
            return
        else:
            answer({"error": f"unknown command {command}"})


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.peer.donkeypost_client",
                                description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--url", required=True)
    p.add_argument("--clients", type=int, default=1)
    p.add_argument("--game", default="ochs-und-esel")
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--shape", choices=("get-post", "push"), default="get-post")
    args = p.parse_args(argv)
    asyncio.run(drive(args.url, args.clients, args.game, args.players, args.shape))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
