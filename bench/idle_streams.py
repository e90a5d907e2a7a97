"""Idle push connections on one web worker: can a thread-pool server hold them?

    python -m bench.idle_streams [--server granian|gevent] [--polls 2000] [--streams 300]
                                 [--threads 2600] [--json F]

One web worker process (`donkeypost.wsgi:app`) on an embedded Redis: gunicorn with a gevent
worker, or granian in WSGI mode with a blocking-thread pool of `--threads` (threads are
made on demand and retire after `--idle-timeout` s). The run:
1. a baseline: the worker's RSS and threads, and the latency of `GET /games/{id}` (one
   keep-alive connection, one request after the other);
2. `--games` games with three seats joined; `--streams` event streams (spectators,
   spread over the games) and `--polls` long-polls (`?wait=60`) opened and left waiting;
3. idle: the worker's RSS, threads and CPU over `--idle` s, then the same GETs again;
4. ten games move: each of their long-polls must answer with the move's events, each of
   their streams must receive them;
5. half the streams' clients disconnect: how long until the worker's threads that served
   them are back (granian: counted with `py-spy dump`, the threads whose Python stack is in
   the stream's generator; its thread count then falls as idle threads retire).

Prints what it measured and, with `--json`, writes it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.loadgen import latency_summary
from bench.peer.processes import cpu_seconds, tree
from tests.support.http_connection import HttpConnection
from tests.support.processes import answers_healthz, free_port
from tests.support.redis_process import RedisProcess

APP = "donkeypost.wsgi:app"
WAIT_S = 60  # the longest long-poll the API allows
MOVED = 10


def server_argv(kind: str, port: int, threads: int, idle_timeout_s: int,
                connections: int) -> list[str]:
    if kind == "gevent":
        return [sys.executable, "-m", "gunicorn", "--worker-class", "gevent", "--workers", "1",
                "--worker-connections", str(connections), "--bind", f"127.0.0.1:{port}",
                "--no-control-socket", "--log-level", "warning", APP]
    return [sys.executable, "-m", "granian", "--interface", "wsgi", "--host", "127.0.0.1",
            "--port", str(port), "--workers", "1", "--blocking-threads", str(threads),
            "--blocking-threads-idle-timeout", str(idle_timeout_s),
            "--backpressure", str(connections), "--backlog", str(connections),
            "--log-level", "warning", APP]


def worker_pid(root: int) -> int:
    """The process that runs the app: the server's one child (both servers fork it)."""
    pids = [p for p in tree([root]) if p != root]
    return pids[0] if pids else root


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def threads(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/task"))


def threads_in_streams(pid: int) -> int | None:
    """The worker's threads whose Python stack is in the event stream's generator."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    try:
        out = subprocess.run([spy, "dump", "--pid", str(pid)], capture_output=True,
                             text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    return sum("_frames (api/routes/stream.py" in block
               for block in out.split("\nThread ")[1:])


async def timed_gets(host: str, port: int, paths: list[str]) -> dict[str, Any]:
    conn = HttpConnection(host, port)
    ms = []
    try:
        for path in paths:
            started = time.perf_counter()
            status, raw = await conn.request("GET", path)
            assert status == 200, raw
            ms.append(1000 * (time.perf_counter() - started))
    finally:
        await conn.close()
    return latency_summary(ms)


async def new_game(conn: HttpConnection) -> tuple[str, list[str], int]:
    body = json.dumps({"type": "ochs-und-esel", "seats": [{"kind": "human"}] * 3,
                       "deadline_s": None}).encode()
    status, raw = await conn.request("POST", "/games", body)
    assert status == 201, raw
    game = json.loads(raw)["id"]
    tokens = [""] * 3
    for name in ("ann", "bob", "cy"):
        status, raw = await conn.request("POST", f"/games/{game}/players",
                                         json.dumps({"name": name}).encode())
        assert status in (200, 201), raw
        joined = json.loads(raw)
        tokens[joined["seat"]] = joined["token"]
    return game, tokens, joined["game"]["version"]


async def move(conn: HttpConnection, game: str, tokens: list[str]) -> None:
    _s, raw = await conn.request("GET", f"/games/{game}")
    seat = json.loads(raw)["to_act"][0]
    auth = {"Authorization": f"Bearer {tokens[seat]}"}
    _s, raw = await conn.request("GET", f"/games/{game}", headers=auth)
    action = json.dumps(json.loads(raw)["legal_actions"][0]).encode()
    status, raw = await conn.request("POST", f"/games/{game}/actions", action, auth)
    assert status == 200, raw


class Stream:
    """One event stream held open: what it received so far."""

    def __init__(self, host: str, port: int, game: str, version: int) -> None:
        self.host, self.port, self.game, self.version = host, port, game, version
        self.received = b""
        self.opened = asyncio.Event()
        self.writer: asyncio.StreamWriter | None = None
        self.task: asyncio.Task[None] | None = None

    async def run(self) -> None:
        reader, self.writer = await asyncio.open_connection(self.host, self.port)
        self.writer.write(f"GET /games/{self.game}/events/stream?after={self.version} "
                          f"HTTP/1.1\r\nHost: {self.host}\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200"), head
        self.opened.set()
        while chunk := await reader.read(65536):
            self.received += chunk

    def drop(self) -> None:
        assert self.writer is not None and self.task is not None
        self.writer.transport.abort()
        self.task.cancel()


async def experiment(args: argparse.Namespace, host: str, port: int, pid: int,
                     roots: list[int]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    setup = HttpConnection(host, port)
    games = [await new_game(setup) for _ in range(args.games)]
    await setup.close()
    reads = [f"/games/{g}" for g, _t, _v in games] * 2
    found["before"] = {"rss_mib": rss_mib(pid), "threads": threads(pid),
                       "get_ms": await timed_gets(host, port, reads)}

    streams = [Stream(host, port, *games[n % len(games)][::2]) for n in range(args.streams)]
    opened = time.monotonic()
    for s in streams:
        s.task = asyncio.create_task(s.run())
        await asyncio.wait_for(s.opened.wait(), 30)

    async def poll(game: str, version: int) -> tuple[str, int, bytes, float]:
        """The answer, and when it came."""
        conn = HttpConnection(host, port)
        try:
            status, raw = await conn.request("GET", f"/games/{game}/events?after={version}"
                                             f"&wait={WAIT_S}")
        finally:
            await conn.close()
        return game, status, raw, time.monotonic()

    polls: list[asyncio.Task[tuple[str, int, bytes, float]]] = []
    paced = HttpConnection(host, port)
    per_game = max(1, args.polls // len(games))
    for g, _t, v in games:  # a game's long-polls, then a read that waits its turn
        polls += [asyncio.create_task(poll(g, v)) for _ in range(per_game)]
        await asyncio.sleep(0.01)
        status, _raw = await paced.request("GET", f"/games/{g}")
        assert status == 200
    await paced.close()
    await asyncio.sleep(2.0)
    found["open_s"] = time.monotonic() - opened
    found["waiting"] = {"polls": sum(not p.done() for p in polls),
                        "streams": sum(not s.task.done() for s in streams if s.task)}

    cpu0, t0 = cpu_seconds(roots), time.monotonic()
    await asyncio.sleep(args.idle)
    idle_cpu = (cpu_seconds(roots) - cpu0) / (time.monotonic() - t0)
    found["idle"] = {"rss_mib": rss_mib(pid), "threads": threads(pid),
                     "cpu_cores": idle_cpu,
                     "threads_in_streams": threads_in_streams(pid) if args.server != "gevent"
                     else None}
    found["idle"]["get_ms"] = await timed_gets(host, port, reads)

    moved = {g for g, _t, _v in games[:MOVED]}
    mover = HttpConnection(host, port)
    moved_at = time.monotonic()
    for g, tokens, _v in games[:MOVED]:
        await move(mover, g, tokens)
    await mover.close()
    # The moved games' long-polls answer now; the others keep waiting.
    moved_polls: list[tuple[str, int, bytes, float]] = []
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        moved_polls = [p.result() for p in polls if p.done() and p.result()[0] in moved]
        if len(moved_polls) >= per_game * MOVED:
            break
        await asyncio.sleep(0.2)
    moved_streams = [s for s in streams if s.game in moved]
    while time.monotonic() < deadline and not all(b"event: " in s.received
                                                  for s in moved_streams):
        await asyncio.sleep(0.2)
    found["moves"] = {
        "long_polls_woken": sum(1 for _g, st, raw, _t in moved_polls
                                if st == 200 and json.loads(raw)["events"]),
        "long_polls_of_moved_games": per_game * MOVED,
        "last_woken_after_s": max((t - moved_at for *_x, t in moved_polls), default=None),
        "streams_with_the_events": sum(b"event: " in s.received for s in moved_streams),
        "streams_of_moved_games": len(moved_streams),
        "took_s": time.monotonic() - moved_at,
        "others_still_waiting": sum(not p.done() for p in polls),
    }

    # Half the streams' clients go away without a word.
    gone = streams[: len(streams) // 2]
    in_streams = found["idle"]["threads_in_streams"]
    dropped_at = time.monotonic()
    for s in gone:
        s.drop()
    timeline = []
    while time.monotonic() - dropped_at < args.watch:
        await asyncio.sleep(2.0)
        timeline.append({"after_s": round(time.monotonic() - dropped_at, 1),
                         "threads": threads(pid), "rss_mib": rss_mib(pid),
                         "threads_in_streams": threads_in_streams(pid)
                         if in_streams is not None else None})
    found["disconnect"] = {"dropped": len(gone), "timeline": timeline}

    for s in streams[len(gone):]:
        s.drop()
    done = await asyncio.gather(*polls, return_exceptions=True)
    found["long_polls"] = {
        "answered_200": sum(1 for d in done if not isinstance(d, BaseException) and d[1] == 200),
        "failed": [repr(d) for d in done if isinstance(d, BaseException)][:5]}
    found["after"] = {"rss_mib": rss_mib(pid), "threads": threads(pid)}
    return found


@contextlib.contextmanager
def running(args: argparse.Namespace, folder: Path) -> Iterator[tuple[int, list[int], int]]:
    with RedisProcess(folder / "redis") as redis_:
        port = free_port()
        env = {**os.environ, "REDIS_URL": redis_.url, "RATE_LIMITS": "off",
               "DONKEYPOST_HEALTH_WORKERS": "none"}
        connections = args.polls + args.streams + 400
        with open(folder / "server.log", "wb") as log:  # the child keeps its own copy
            proc = subprocess.Popen(server_argv(args.server, port, args.threads,
                                                args.idle_timeout, connections),
                                    env=env, stdout=log, stderr=log)
        try:
            deadline = time.monotonic() + 60
            while not answers_healthz(port):
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError((folder / "server.log").read_text()[-2000:])
                time.sleep(0.2)
            yield port, [proc.pid, redis_.pid], worker_pid(proc.pid)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.idle_streams", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--server", choices=("granian", "gevent"), default="granian")
    p.add_argument("--polls", type=int, default=2000)
    p.add_argument("--streams", type=int, default=300)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--threads", type=int, default=2600, help="granian's blocking threads")
    p.add_argument("--idle-timeout", type=int, default=5,
                   help="granian: an idle blocking thread retires after … s (5–600)")
    p.add_argument("--idle", type=float, default=10.0, help="seconds measured idle")
    p.add_argument("--watch", type=float, default=24.0,
                   help="seconds watched after the disconnects (the keep-alive is 15 s)")
    p.add_argument("--json", type=Path)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="donkeypost-idle-") as tmp, \
            running(args, Path(tmp)) as (port, roots, pid):
        found = asyncio.run(experiment(args, "127.0.0.1", port, pid, roots))
    found["server"] = args.server
    found["loadavg"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(found, indent=1))
    if args.json:
        args.json.write_text(json.dumps(found, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
