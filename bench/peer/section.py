"""The `peer` section: donkeypost against boardgame.io, side by side in one run.

Four to six systems, each with its whole stack pinned to the same one CPU (the servers'
CPU), their load generators on another (`--loadgen-cpu`, the last one by default):
- donkeypost (`stacks.DonkeypostStack`: Redis with AOF, RQ workers, and a web server per
  `--peer-web`: gunicorn with gevent workers, granian in WSGI mode) with two shapes of
  client on each web server (`donkeypost_client`): a move = GET the view + POST the
  action, or a move = one POST, the views pushed on the seats' event streams
  (`?views=true`, `pushed_views`);
- boardgame.io with its in-memory storage, and with its FlatFile storage (`server.js`), a
  move = an `update` over socket.io answered by the server's pushes (`loadgen.js`).

For each number of clients the three load generators start, each warms its system up,
then the systems take turns in slices (`peer_slice_s`, 5 s by default; the order rotates
every round) until each has been measured `peer_duration_s`: the machine is shared, and
turns this short let all of them meet the same neighbours. A slice is measured from a
moment after its generator resumes (`peer_guard_s`: the previous system's last moves
drain meanwhile). The server CPU per move is the CPU time the stack's processes used
inside the slices (`/proc`, every process and thread of the stack, children it reaped
included) over the moves that ended inside them.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from bench.config import BenchConfig
from bench.context import BenchContext
from bench.cpu import machine_busy_seconds
from bench.loadgen import latency_summary
from bench.peer.generators import Generator, donkeypost_generator, peer_generator
from bench.peer.install import PeerUnavailable, ensure_installed, versions
from bench.peer.processes import cpu_seconds, pin, wait_seconds
from bench.peer.stacks import DonkeypostStack, PeerServer
from bench.progress import Steps
from donkeypost.web_servers import WebServer

DONKEYPOST, PUSHED = "donkeypost", "donkeypost_push"
GRANIAN, GRANIAN_PUSHED = "donkeypost_granian", "donkeypost_granian_push"
MEMORY, FLATFILE = "bgio_memory", "bgio_flatfile"
OURS = (DONKEYPOST, PUSHED, GRANIAN, GRANIAN_PUSHED)
PUSH_SHAPES = (PUSHED, GRANIAN_PUSHED)
# Each web server's systems: (key, client shape).
SYSTEMS_OF: dict[WebServer, tuple[tuple[str, str], ...]] = {
    "gunicorn": ((DONKEYPOST, "get-post"), (PUSHED, "push")),
    "granian": ((GRANIAN, "get-post"), (GRANIAN_PUSHED, "push"))}
# The game bench/peer/game.js ports, whatever the other sections play.
GAME, SEATS = "ochs-und-esel", 3
TITLES = {DONKEYPOST: "donkeypost (Redis AOF, GET + POST)",
          PUSHED: "donkeypost (Redis AOF, POST + pushed views)",
          GRANIAN: "donkeypost on granian (Redis AOF, GET + POST)",
          GRANIAN_PUSHED: "donkeypost on granian (Redis AOF, POST + pushed views)",
          MEMORY: "boardgame.io in memory", FLATFILE: "boardgame.io FlatFile"}


@dataclass
class System:
    key: str
    roots: list[int]
    generator: Callable[[int], Generator]  # clients -> a generator not started yet
    failure: Callable[[], str | None]  # why the server stopped serving, None while it runs
    # The bytes its store's append-only file has grown by so far (None: not Redis).
    aof_bytes: Callable[[], int] | None = None

    def check(self) -> None:
        why = self.failure()
        if why:
            raise RuntimeError(f"{TITLES[self.key]} stopped serving: {why}")


@dataclass
class Tally:
    """One system's slices at one number of clients."""

    moves: int = 0
    seconds: float = 0.0  # the generator's windows
    cpu_seconds: float = 0.0  # the stack's CPU inside the slices
    cpu_wall_s: float = 0.0  # wall time the CPU was read over
    wait_seconds: float = 0.0  # the stack's threads runnable but waiting for the CPU
    aof_bytes: int = 0  # what Redis's AOF grew by inside the slices
    generator_wait_s: float = 0.0
    generator_cpu_s: float = 0.0
    machine_busy_s: float = 0.0
    slices: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)

    def add(self, answer: dict[str, Any], cpu_s: float, busy_s: float, wall_s: float,
            wait_s: float, generator_wait_s: float) -> None:
        self.moves += int(answer["moves"])
        self.seconds += float(answer["seconds"])
        self.latencies_ms.extend(answer["latencies_ms"])
        self.generator_cpu_s += float(answer["generator_cpu_s"])
        for kind, n in answer["errors"].items():
            self.errors[kind] = self.errors.get(kind, 0) + int(n)
        self.cpu_seconds += cpu_s
        self.machine_busy_s += busy_s
        self.cpu_wall_s += wall_s
        self.wait_seconds += wait_s
        self.generator_wait_s += generator_wait_s
        self.slices += 1

    def figures(self, final: dict[str, Any]) -> dict[str, Any]:
        wall = self.cpu_wall_s or float("nan")
        return {
            "moves": self.moves,
            "moves_per_s": self.moves / self.seconds if self.seconds else 0.0,
            "latency_ms": latency_summary(self.latencies_ms),
            "server_cpu_ms_per_move": (1000.0 * self.cpu_seconds / self.moves
                                       if self.moves else None),
            "aof_bytes_per_move": (self.aof_bytes / self.moves if self.moves and
                                   self.aof_bytes else None),
            "server_cores": self.cpu_seconds / wall,
            # Cores' worth of time the stack (the generator) was ready to run but another
            # job held the CPU: how much the machine's neighbours held it back.
            "server_waiting_cores": self.wait_seconds / wall,
            "generator_cores": self.generator_cpu_s / wall,
            "generator_waiting_cores": self.generator_wait_s / wall,
            "others_cores": max(0.0, self.machine_busy_s - self.cpu_seconds
                                - self.generator_cpu_s) / wall,
            "slices": self.slices,
            "window_s": self.seconds,
            "errors": self.errors,
            "games_finished": final.get("games_finished"),
            "run_errors": final.get("errors", {}),
        }


def cpus(cfg: BenchConfig) -> tuple[int, int]:
    """(the servers' CPU, the load generators' CPU): two different ones when there are."""
    allowed = sorted(os.sched_getaffinity(0))
    loadgen = cfg.loadgen_cpu if cfg.loadgen_cpu is not None else allowed[-1]
    if cfg.peer_server_cpu is not None:
        return cfg.peer_server_cpu, loadgen
    return next((c for c in allowed if c != loadgen), loadgen), loadgen


def run(cfg: BenchConfig, ctx: BenchContext, steps: Steps) -> dict[str, Any]:
    try:
        node_modules, install_s = ensure_installed(may_install=cfg.peer_install)
    except PeerUnavailable as reason:
        return {"skipped": str(reason)}
    server_cpu, loadgen_cpu = cpus(cfg)
    folder = ctx.folder / "peer"
    folder.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as stack:
        stack.enter_context(terminate_unwinds())
        with steps.step("peer: starting donkeypost and boardgame.io", total=3) as step:
            webs: tuple[WebServer, ...] = tuple(cfg.peer_web)  # type: ignore[arg-type]
            dp = stack.enter_context(DonkeypostStack(folder / DONKEYPOST, cfg.web_workers,
                                                     cfg.reuse_port, webs))
            step.advance()
            servers = {}
            for key, storage in ((MEMORY, "memory"), (FLATFILE, "flatfile")):
                servers[key] = stack.enter_context(
                    PeerServer(node_modules, storage, folder / key))
                step.advance()
        logs = folder / "generators.log"
        urls = {web: dp.url(web) for web in webs}
        systems = [System(key, dp.roots(web), lambda c, shape=shape, web=web:
                          donkeypost_generator(urls[web], c, loadgen_cpu, logs, GAME, SEATS,
                                               shape),
                          dp.failure, dp.aof_bytes)
                   for web in webs for key, shape in SYSTEMS_OF[web]]
        for key, server in servers.items():
            systems.append(System(key, server.roots, lambda c, k=key, s=server: peer_generator(
                k, s.url, c, loadgen_cpu, logs, node_modules, cfg.seed), server.failure))
        forks_before = dp.forks()
        rows = []
        with steps.step("peer: donkeypost and boardgame.io, in turns",
                        total=len(cfg.clients)) as step:
            for clients in cfg.clients:
                for system in systems:  # again: a respawned process is caught too
                    pin(system.roots, server_cpu)
                rows.append(measure(systems, clients, cfg))
                step.advance()
        # Background saves (RDB, AOF rewrites) fork Redis: none should run beside the AOF.
        redis_forks = dp.forks() - forks_before
    return {
        "systems": TITLES,
        "versions": versions(node_modules),
        "npm_install_s": install_s,
        "cpus": {"servers": server_cpu, "load_generators": loadgen_cpu},
        "donkeypost": f"embedded Redis 6.2 (AOF everysec) + {' and '.join(webs)} (as "
                      f"WEB_SERVER runs it, --workers {cfg.web_workers}, each on a port of "
                      "its own; bench.wsgi:app, default hooks) + 2 RQ "
                      "workers (donkeypost worker), all pinned to the servers' CPU; a "
                      "system's CPU is Redis's, the workers' and its web server's; a move "
                      "= GET /games/{id} + POST /games/{id}/actions (If-Match, "
                      "Idempotency-Key), or (push) one POST with the seats' views pushed on "
                      "their event streams (GET /games/{id}/events/stream?views=true, one "
                      "per seat and game)",
        "boardgame.io": "one node process (bench/peer/server.js, NODE_ENV=production) "
                        "pinned to the servers' CPU; a move = socket.io `update` with the "
                        "stateID, done when the seat to act next has the pushed state",
        "game": f"{GAME}, {SEATS} seats, 5 rounds; each client plays its own "
                "games, all seats in turn, choosing at random among the legal moves its "
                "view lists",
        "slice_s": cfg.peer_slice_s,
        "slices_per_system": slices(cfg),
        "guard_s": cfg.peer_guard_s,
        "warmup_s": cfg.warmup_s,
        "redis_forks_during_the_runs": redis_forks,
        "rows": rows,
    }


@contextlib.contextmanager
def terminate_unwinds() -> Iterator[None]:
    """SIGTERM unwinds like Ctrl-C, so that every process the section started is stopped
    on the way out."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def unwind(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, unwind)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def slices(cfg: BenchConfig) -> int:
    """Each system's measured slices per number of clients."""
    return max(1, round(cfg.peer_duration_s / cfg.peer_slice_s))


def measure(systems: list[System], clients: int, cfg: BenchConfig) -> dict[str, Any]:
    tallies = {s.key: Tally() for s in systems}
    finals: dict[str, dict[str, Any]] = {}
    with contextlib.ExitStack() as stack:
        gens = {s.key: stack.enter_context(s.generator(clients)) for s in systems}
        for s in systems:  # warm up: games created, caches and JIT warm
            gen = gens[s.key]
            gen.command("go")
            time.sleep(cfg.warmup_s)
            gen.command("start")
            gen.command("stop")
        for r in range(slices(cfg)):
            for s in systems[r % len(systems):] + systems[:r % len(systems)]:
                s.check()
                gen = gens[s.key]
                gen.command("go")
                time.sleep(cfg.peer_guard_s)
                gen.command("start")
                aof_before = s.aof_bytes() if s.aof_bytes else 0
                before = marks(s, gen)
                time.sleep(cfg.peer_slice_s)
                after = marks(s, gen)
                tallies[s.key].aof_bytes += (s.aof_bytes() - aof_before) if s.aof_bytes else 0
                cpu, busy, wall, wait, gen_wait = (b - a for a, b in zip(before, after,
                                                                         strict=True))
                tallies[s.key].add(gen.command("stop"), cpu, busy, wall, wait, gen_wait)
        for s in systems:
            s.check()
            finals[s.key] = gens[s.key].command("quit")
    figures = {key: t.figures(finals[key]) for key, t in tallies.items()}
    return {"clients": clients, "systems": figures, "ratios": ratios(figures)}


def marks(system: System, gen: Generator) -> tuple[float, float, float, float, float]:
    """The counters a slice is measured between: the stack's CPU seconds, the machine's
    busy seconds, the time, the stack's and the generator's seconds waiting for a CPU."""
    assert gen.proc is not None
    return (cpu_seconds(system.roots), machine_busy_seconds(), time.perf_counter(),
            wait_seconds(system.roots), wait_seconds([gen.proc.pid]))


def ratios(figures: dict[str, dict[str, Any]]) -> dict[str, dict[str, float | None]]:
    """Each donkeypost system / each boardgame.io storage: moves/s, CPU per move, p99. Keyed
    by the boardgame.io storage for gunicorn's GET + POST shape, "<system>/<storage>" for
    the others."""
    out: dict[str, dict[str, float | None]] = {}
    for shape in OURS:
        ours = figures.get(shape)
        if ours is None:
            continue
        for key in (MEMORY, FLATFILE):
            theirs = figures[key]
            out[key if shape == DONKEYPOST else f"{shape}/{key}"] = {
                "moves_per_s": _ratio(ours["moves_per_s"], theirs["moves_per_s"]),
                "cpu_per_move": _ratio(ours["server_cpu_ms_per_move"],
                                       theirs["server_cpu_ms_per_move"]),
                "p99": _ratio(ours["latency_ms"]["p99"], theirs["latency_ms"]["p99"]),
            }
    return out


def _ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None
