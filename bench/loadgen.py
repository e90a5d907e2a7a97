"""The load generator: closed-loop HTTP clients on one event loop, in a process of its own.

    python -m bench.loadgen --url http://127.0.0.1:8000 [--mode both] --clients 32 \
        --duration 10 --warmup 2 [--slice 1] [--cpu 1] [--game ochs-und-esel --players 3]

Each client holds one keep-alive connection and has one request in flight at a time, as a
person at a screen would (closed loop: latency and throughput are measured together).

- `moves`: each client plays its own games and nothing else. It creates a game with human
  seats, takes them all, then plays: `GET /games/{id}` as the seat to act (the view names
  its legal actions), `POST /games/{id}/actions` with one of them, `If-Match` the version it
  saw and an `Idempotency-Key` (what a careful client sends); the answer's `to_act` names
  the next seat. No rules knowledge: only what the API says.
- `ceiling`: each client repeats a trivial flask-smorest GET with a schema (`/bench/ping`).
- `both` (the default): one set of clients of each kind, taking turns in slices of about a
  second, `--duration` seconds measured for each. The machine is shared: turns this short
  let both meet the same neighbours, so their ratio holds even when the figures drift.

Why its CPU use is bounded: one process running one asyncio loop can never use more than
one core, whatever the number of clients; it is also pinned to one CPU (`--cpu`) so that
it stays on a known core and the server always has the other one. Its CPU time is
reported, with the server's (`--watch` pids) and the rest of the machine's.

Only requests that end inside a measured slice count (each slice starts a moment after the
switch, once the other mode's last requests are answered). Prints one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import msgspec

from bench.cpu import machine_busy_seconds, open_sockets, process_seconds
from bench.stats import percentile
from tests.support.http_connection import HttpConnection

# Statuses a correct client can meet while playing: another request won the race.
EXPECTED_REFUSALS = (409, 412)


@dataclass
class Samples:
    """Completed requests of one kind: when each ended, how long it took, its status."""

    ends: list[float] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    statuses: list[int] = field(default_factory=list)

    def add(self, end: float, took: float, status: int) -> None:
        self.ends.append(end)
        self.seconds.append(took)
        self.statuses.append(status)

    def summary(self, windows: Sequence[tuple[float, float]]) -> dict[str, Any]:
        """Figures over the requests that ended inside the windows."""
        inside = [i for i, t in enumerate(self.ends) if any(a <= t < b for a, b in windows)]
        ok_ms = [self.seconds[i] * 1000.0 for i in inside if 200 <= self.statuses[i] < 300]
        statuses = Counter(str(self.statuses[i]) for i in inside)
        seconds = sum(b - a for a, b in windows)
        return {
            "requests": len(inside),
            "ok": len(ok_ms),
            "per_s": len(inside) / seconds,
            "ok_per_s": len(ok_ms) / seconds,
            "statuses": dict(sorted(statuses.items())),
            "latency_ms": latency_summary(ok_ms),
        }


def latency_summary(ms: Sequence[float]) -> dict[str, float | None]:
    if not ms:
        return {"p50": None, "p95": None, "p99": None, "mean": None, "max": None}
    return {"p50": percentile(ms, 50), "p95": percentile(ms, 95), "p99": percentile(ms, 99),
            "mean": sum(ms) / len(ms), "max": max(ms)}


class Phases:
    """Which load runs now: the clients of the other mode wait for their turn."""

    def __init__(self) -> None:
        self.events = {mode: asyncio.Event() for mode in MODES}
        self.over = False

    def switch(self, mode: str | None) -> None:
        for name, ev in self.events.items():
            if name == mode:
                ev.set()
            else:
                ev.clear()

    def stop(self) -> None:
        self.over = True
        for ev in self.events.values():
            ev.set()

    async def turn(self, mode: str) -> bool:
        """Wait until `mode` runs; False once the run is over."""
        await self.events[mode].wait()
        return not self.over


class Run:
    """Shared by the clients of one run: the phases, the samples and what went wrong."""

    def __init__(self) -> None:
        self.phases = Phases()
        self.kinds: dict[str, Samples] = {}
        self.refusals: Counter[str] = Counter()  # expected 409/412, by error code
        self.errors: Counter[str] = Counter()  # anything else that is not a 2xx
        self.games_finished = 0

    async def timed(self, mode: str, kind: str, conn: HttpConnection, method: str, path: str,
                    body: bytes | None = None,
                    headers: Mapping[str, str] | None = None) -> tuple[int, bytes] | None:
        """One request, issued when `mode` has its turn; None once the run is over."""
        if not await self.phases.turn(mode):
            return None
        t0 = time.perf_counter()
        status, data = await conn.request(method, path, body, headers)
        t1 = time.perf_counter()
        self.kinds.setdefault(kind, Samples()).add(t1, t1 - t0, status)
        if not 200 <= status < 300 and status != 304:
            code = _error_code(data)
            if status in EXPECTED_REFUSALS:
                self.refusals[f"{status} {code}"] += 1
            else:
                self.errors[f"{kind} {status} {code}"] += 1
        return status, data


def _error_code(data: bytes) -> str:
    try:
        return str(msgspec.json.decode(data).get("code", "?"))
    except (msgspec.DecodeError, AttributeError):
        return "?"


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Stop(Exception):
    """The run is over."""


async def _request(run: Run, kind: str, conn: HttpConnection, method: str, path: str,
                   body: bytes | None = None,
                   headers: Mapping[str, str] | None = None) -> tuple[int, bytes]:
    answer = await run.timed("moves", kind, conn, method, path, body, headers)
    if answer is None:
        raise Stop
    return answer


async def new_game(run: Run, conn: HttpConnection, game: str,
                   players: int) -> tuple[str, list[str], list[int], int]:
    """Create a game with human seats and take them all: its id, tokens, who acts and its
    version."""
    body = msgspec.json.encode({"type": game, "seats": [{"kind": "human"}] * players})
    status, data = await _request(run, "setup", conn, "POST", "/games", body)
    if status != 201:
        raise RuntimeError(f"POST /games answered {status}: {data[:200]!r}")
    game_id = msgspec.json.decode(data)["id"]
    tokens = [""] * players
    to_act: list[int] = []
    version = 0
    for n in range(players):
        status, data = await _request(run, "setup", conn, "POST", f"/games/{game_id}/players",
                                      msgspec.json.encode({"name": f"p{n}"}))
        if status != 201:
            raise RuntimeError(f"joining answered {status}: {data[:200]!r}")
        joined = msgspec.json.decode(data)
        tokens[joined["seat"]] = joined["token"]
        to_act, version = joined["game"]["to_act"], joined["game"]["version"]
    return game_id, tokens, to_act, version


async def play_client(run: Run, conn: HttpConnection, number: int, game: str,
                      players: int) -> None:
    rng = random.Random(number)
    moves = 0
    try:
        while True:
            game_id, tokens, to_act, _version = await new_game(run, conn, game, players)
            while to_act:
                seat = to_act[0]
                status, data = await _request(run, "view", conn, "GET", f"/games/{game_id}",
                                              headers=_auth(tokens[seat]))
                if status != 200:
                    break
                view = msgspec.json.decode(data)
                if view["status"] == "finished":
                    run.games_finished += 1
                    break
                if not view["legal_actions"]:
                    to_act = view["to_act"]
                    continue
                moves += 1
                headers = {**_auth(tokens[seat]), "If-Match": f'"{view["version"]}"',
                           "Idempotency-Key": f"c{number}-m{moves}"}
                action = rng.choice(view["legal_actions"])
                status, data = await _request(run, "move", conn, "POST",
                                              f"/games/{game_id}/actions",
                                              msgspec.json.encode(action), headers)
                if status == 200:
                    to_act = msgspec.json.decode(data)["to_act"]
                elif status not in EXPECTED_REFUSALS:
                    break  # counted as an error; start a fresh game
    except Stop:
        return


async def ping_client(run: Run, conn: HttpConnection) -> None:
    while await run.timed("ceiling", "ping", conn, "GET", "/bench/ping") is not None:
        pass


MODES = ("ceiling", "moves")
GUARD_S = 0.2  # after a switch, before a slice is measured: the other mode's tail


async def run_clients(url: str, mode: str, clients: int, duration: float, warmup: float,
                      game: str, players: int, watch: Sequence[int] = (),
                      slice_s: float = 1.0) -> dict[str, Any]:
    """`mode` is "moves", "ceiling" or "both": the two alternate in slices of `slice_s`
    (`duration` seconds measured for each), so that both meet the same machine."""
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    modes = MODES if mode == "both" else (mode,)
    run = Run()
    tasks = []
    conns: list[HttpConnection] = []
    for m in modes:
        for n in range(clients):
            conn = HttpConnection(host, port)
            conns.append(conn)
            tasks.append(play_client(run, conn, n, game, players) if m == "moves"
                         else ping_client(run, conn))
    await asyncio.gather(*(c.connect() for c in conns))
    windows: dict[str, list[tuple[float, float]]] = {m: [] for m in modes}
    cpu: dict[str, list[float]] = {m: [0.0, 0.0, 0.0] for m in modes}

    def marks() -> tuple[float, float, float]:
        return (_own_cpu_seconds(), process_seconds(list(watch)), machine_busy_seconds())

    async def measure(m: str, seconds: float) -> None:
        run.phases.switch(m)
        await asyncio.sleep(GUARD_S)
        a, before = time.perf_counter(), marks()
        await asyncio.sleep(max(0.05, seconds - GUARD_S))
        b, after = time.perf_counter(), marks()
        windows[m].append((a, b))
        for i in range(3):
            cpu[m][i] += after[i] - before[i]

    sockets: list[int] = []

    async def control() -> None:
        for m in reversed(modes):  # warm up the moves last, then measure from the ceiling
            run.phases.switch(m)
            await asyncio.sleep(warmup / len(modes))
        sockets.extend(open_sockets(pid) for pid in watch)
        if len(modes) == 1:
            await measure(modes[0], duration + GUARD_S)
        else:
            slices = max(1, round(duration / slice_s))
            for _ in range(slices):
                for m in modes:
                    await measure(m, duration / slices + GUARD_S)
        run.phases.stop()

    outcomes = await asyncio.gather(control(), *tasks, return_exceptions=True)
    crashes = Counter(f"{type(o).__name__}: {o}"[:200] for o in outcomes
                      if isinstance(o, BaseException))
    await asyncio.gather(*(c.close() for c in conns))
    kind_mode = {"ping": "ceiling", "setup": "moves", "view": "moves", "move": "moves"}
    return {
        "mode": mode,
        "clients": clients,
        "window_s": {m: sum(b - a for a, b in w) for m, w in windows.items()},
        "slices": {m: len(w) for m, w in windows.items()},
        "kinds": {k: s.summary(windows[kind_mode[k]]) for k, s in sorted(run.kinds.items())},
        "expected_refusals": dict(run.refusals),
        "errors": dict(run.errors),
        "client_crashes": dict(crashes),
        "games_finished": run.games_finished,
        # 2xx answers of each kind over the whole run (warm-up and tail included), for
        # counters read around the run rather than inside its windows
        "totals": {k: sum(200 <= st < 300 for st in s.statuses)
                   for k, s in sorted(run.kinds.items())},
        "reconnects_after_idle": sum(c.reconnects for c in conns),
        "sockets": sockets,  # per watched process, after the warm-up: how connections spread
        "cpu": {m: _cpu_shares(cpu[m], sum(b - a for a, b in windows[m])) for m in modes},
    }


def _cpu_shares(used: list[float], seconds: float) -> dict[str, float]:
    """CPU used over the windows, in cores: by this generator, by the watched processes
    (the server) and by everything else on the machine."""
    own, watched, machine = used
    return {"generator_cores": own / seconds, "server_cores": watched / seconds,
            "others_cores": max(0.0, machine - own - watched) / seconds,
            "server_cpu_s": watched}


def _own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.loadgen", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--url", required=True)
    p.add_argument("--mode", choices=("both", *MODES), default="both")
    p.add_argument("--clients", type=int, default=8)
    p.add_argument("--duration", type=float, default=10.0,
                   help="measured seconds (of each mode)")
    p.add_argument("--slice", type=float, default=1.0,
                   help="with --mode both: seconds of one mode before the other's turn")
    p.add_argument("--warmup", type=float, default=2.0, help="seconds not counted first")
    p.add_argument("--game", default="ochs-und-esel")
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--cpu", type=int, default=None, help="pin the generator to this CPU")
    p.add_argument("--watch", default="", help="comma-separated pids of the server's "
                                               "processes, whose CPU use is reported")
    args = p.parse_args(argv)
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})
    watch = [int(x) for x in args.watch.split(",") if x]
    result = asyncio.run(run_clients(args.url, args.mode, args.clients, args.duration,
                                     args.warmup, args.game, args.players, watch, args.slice))
    result["pinned_cpu"] = args.cpu
    sys.stdout.write(msgspec.json.encode(result).decode() + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
