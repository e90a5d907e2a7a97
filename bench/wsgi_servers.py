"""The WSGI servers people deploy Flask on, for the JSON routes: the same app, the same
Redis, the same clients, in turns.

    python -m bench.wsgi_servers [--clients 1,8,32] [--duration 6] [--rounds 2]

Every server serves `bench.wsgi:app` (the composition root's web app with its production
hooks, plus `GET /bench/ping`) on the one embedded Redis (AOF on):
- gunicorn with gevent workers (what the Procfile and `donkeypost serve` run),
- gunicorn with gthread workers (threads), and with sync workers (one request at a time
  per process, no keep-alive),
- granian in WSGI mode (a Rust HTTP server; the app runs on its blocking threads).
Each has 2 worker processes. The servers and Redis are pinned to one CPU, the load
generator (`bench.loadgen`, `--mode both`: the ceiling `GET /bench/ping` and moves — GET
the view, POST the action — in 1 s slices) to the other. The servers take turns, in a
rotating order, `--rounds` times per number of clients; the figures are summed over the
rounds. Only the JSON routes are measured here: event streams and long-polls hold a
request each (a greenlet under gevent, a thread under granian), measured apart by
`python -m bench.idle_streams`.

Prints a table and, with `--json`, writes the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.config import BenchConfig
from bench.moves import loadgen
from bench.peer.processes import pin, tree
from bench.stats import percentile
from tests.support.processes import answers_healthz, free_port
from tests.support.redis_process import RedisProcess

APP = "bench.wsgi:app"


@dataclass(frozen=True)
class ServerKind:
    name: str
    argv: tuple[str, ...]  # without the address

    def command(self, port: int) -> list[str]:
        return [part.replace("{port}", str(port)) for part in self.argv]


def _gunicorn(worker_class: str, *extra: str) -> tuple[str, ...]:
    return (sys.executable, "-m", "gunicorn", "--worker-class", worker_class, "--workers", "2",
            "--bind", "127.0.0.1:{port}", "--reuse-port", "--no-control-socket",
            "--log-level", "warning", *extra, APP)


def _granian(threads: int, *extra: str) -> tuple[str, ...]:
    return (sys.executable, "-m", "granian", "--interface", "wsgi", "--host", "127.0.0.1",
            "--port", "{port}", "--workers", "2", "--blocking-threads", str(threads),
            *extra, "--log-level", "warning", APP)


def kinds() -> list[ServerKind]:
    found = [
        ServerKind("gunicorn gevent", _gunicorn("gevent", "--worker-connections", "1000")),
        ServerKind("gunicorn gthread (8 threads)", _gunicorn("gthread", "--threads", "8")),
        ServerKind("gunicorn sync", _gunicorn("sync")),
    ]
    if importlib.util.find_spec("granian") is not None:
        found.append(ServerKind("granian wsgi (8 threads)", _granian(8)))
        # As WEB_SERVER=granian runs it: a thread per held request, up to WEB_CONNECTIONS.
        found.append(ServerKind("granian wsgi (1000 threads)",
                                _granian(1000, "--backpressure", "1000")))
    return found


class Server:
    """One server of a kind on a free port, against `redis_url`; its pids for the CPU."""

    def __init__(self, kind: ServerKind, redis_url: str, log: Path) -> None:
        self.kind = kind
        self.port = free_port()
        self.redis_url = redis_url
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> Server:
        env = {**os.environ, "REDIS_URL": self.redis_url, "RATE_LIMITS": "off",
               "DONKEYPOST_HEALTH_WORKERS": "none"}
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(self.kind.command(self.port), env=env, stdout=log,
                                         stderr=log)
        deadline = time.monotonic() + 60
        while not self._healthy():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.__exit__()
                raise RuntimeError(f"{self.kind.name} did not start: see {self.log}")
            time.sleep(0.2)
        return self

    def _healthy(self) -> bool:
        return answers_healthz(self.port)

    def pids(self) -> list[int]:
        assert self.proc is not None
        return sorted(tree([self.proc.pid]))

    def __exit__(self, *exc: object) -> None:
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@dataclass
class Tally:
    """One server's runs at one number of clients."""

    moves: int = 0
    pings: int = 0
    move_s: float = 0.0  # the windows of each mode
    ping_s: float = 0.0
    move_cpu_s: float = 0.0
    ping_cpu_s: float = 0.0
    errors: int = 0

    def __post_init__(self) -> None:
        self.p50s: list[float] = []  # each run's
        self.p99s: list[float] = []

    def add(self, result: dict[str, Any]) -> None:
        kinds_, cpu, windows = result["kinds"], result["cpu"], result["window_s"]
        move, ping = kinds_.get("move", {}), kinds_.get("ping", {})
        self.moves += int(move.get("ok", 0))
        self.pings += int(ping.get("ok", 0))
        self.move_s += float(windows.get("moves", 0.0))
        self.ping_s += float(windows.get("ceiling", 0.0))
        self.move_cpu_s += float(cpu.get("moves", {}).get("server_cpu_s", 0.0))
        self.ping_cpu_s += float(cpu.get("ceiling", {}).get("server_cpu_s", 0.0))
        self.errors += sum(result.get("errors", {}).values())
        self.errors += sum(result.get("client_crashes", {}).values())
        latency = move.get("latency_ms") or {}
        if latency.get("p50") is not None:
            self.p50s.append(latency["p50"])
            self.p99s.append(latency["p99"])

    def figures(self) -> dict[str, Any]:
        return {
            "moves": self.moves,
            "moves_per_s": self.moves / self.move_s if self.move_s else 0.0,
            "pings_per_s": self.pings / self.ping_s if self.ping_s else 0.0,
            "server_cpu_ms_per_move": (1000 * self.move_cpu_s / self.moves if self.moves
                                       else None),
            "server_cpu_ms_per_ping": (1000 * self.ping_cpu_s / self.pings if self.pings
                                       else None),
            # the median over the rounds of each round's p50 and p99
            "move_p50_ms": percentile(self.p50s, 50) if self.p50s else None,
            "move_p99_ms": percentile(self.p99s, 50) if self.p99s else None,
            "errors": self.errors,
        }


def measure(clients: Sequence[int], rounds: int, duration_s: float, server_cpu: int,
            cfg: BenchConfig, folder: Path) -> dict[str, Any]:
    rows = []
    with contextlib.ExitStack() as stack:
        redis = stack.enter_context(RedisProcess(folder / "redis"))
        servers = [stack.enter_context(Server(k, redis.url, folder / f"server-{n}.log"))
                   for n, k in enumerate(kinds())]
        pin([redis.pid, *(pid for server in servers for pid in server.pids())], server_cpu)
        for n in clients:
            tallies = {s.kind.name: Tally() for s in servers}
            for r in range(rounds):
                for server in servers[r % len(servers):] + servers[:r % len(servers)]:
                    result = loadgen(server.url, "both", n, cfg, [*server.pids(), redis.pid],
                                     duration_s=duration_s)
                    tallies[server.kind.name].add(result)
            rows.append({"clients": n, "servers": {name: t.figures()
                                                   for name, t in tallies.items()}})
    return {"server_cpu": server_cpu, "loadgen_cpu": cfg.loadgen_cpu,
            "duration_s_per_round": duration_s, "rounds": rounds, "rows": rows,
            "servers": {k.name: " ".join(k.argv[1:]) for k in kinds()}}


def table(found: dict[str, Any]) -> Iterator[str]:
    yield ("| clients | server | moves/s | move ms p50 / p99 | CPU ms / move | pings/s | "
           "CPU ms / ping | errors |")
    yield "|---|---|---|---|---|---|---|---|"
    for row in found["rows"]:
        for name, f in row["servers"].items():
            yield (f"| {row['clients']} | {name} | {f['moves_per_s']:,.0f} | "
                   f"{_f(f['move_p50_ms'])} / {_f(f['move_p99_ms'])} | "
                   f"{_f(f['server_cpu_ms_per_move'], 2)} | {f['pings_per_s']:,.0f} | "
                   f"{_f(f['server_cpu_ms_per_ping'], 3)} | {f['errors']} |")


def _f(value: float | None, digits: int = 1) -> str:
    return "–" if value is None else f"{value:,.{digits}f}"


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.wsgi_servers", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--clients", default="1,8,32")
    p.add_argument("--duration", type=float, default=6.0,
                   help="measured seconds per server, round and number of clients "
                        "(ceiling and moves share them)")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--json", type=Path, default=None)
    args = p.parse_args(argv)
    cfg = BenchConfig(warmup_s=1.0, slice_s=1.0)
    allowed = sorted(os.sched_getaffinity(0))
    server_cpu = next((c for c in allowed if c != cfg.loadgen_cpu), allowed[0])
    clients = tuple(int(x) for x in args.clients.split(",") if x)
    with tempfile.TemporaryDirectory(prefix="donkeypost-wsgi-") as tmp:
        found = measure(clients, args.rounds, args.duration, server_cpu, cfg, Path(tmp))
    found["loadavg"] = [round(x, 2) for x in os.getloadavg()]
    for line in table(found):
        print(line)
    if args.json:
        args.json.write_text(json.dumps(found, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
