"""Section 6: what the workers' bookkeeping costs next to a move, in process, on the run's
Redis (printed, never asserted).

Each move is `GameService.act` (the service's hooks do nothing: the move alone: load,
decide, one atomic append), then `workers.hooks.RqHooks.after_append` on its result, timed
apart: the RQ hooks every append runs in production (docs/workers.md). The games are
3-player Ochs & Esel, every seat human, with the play-by-post deadline, so every move drops
the timer of the version before and arms the next seat's: a ZREM and a ZADD in the sorted
set of timers, in one pipelined round trip.

For scale the section also times one bare round trip of the same two commands (on a key
of its own: the floor of any hook that talks to Redis), the memory one timer takes in
Redis, and a starting worker's rebuild (`RqHooks.rebuild` over every active game, as the
worker calls it) after `rebuild_games` more games were created with their timers lost.
"""

from __future__ import annotations

import random
import time
from typing import Any

import msgspec

from bench.config import BenchConfig
from bench.context import BenchContext
from bench.progress import Steps
from bench.stats import percentile
from domain.service import GameService
from domain.table import Table, to_act
from workers.hooks import TIMERS, RqHooks

GAME = "ochs-und-esel"
SEATS = 3
ROUND_TRIP_KEY = "bench:timers"


def _new_game(service: GameService) -> Table:
    table = service.create(GAME, None, [{"kind": "human"}] * SEATS)
    for n in range(SEATS):
        _seat, _token, table = service.join(table.id, f"p{n}")
    return table


def run(cfg: BenchConfig, ctx: BenchContext, steps: Steps) -> dict[str, Any]:
    service = ctx.service
    hooks = ctx.components.rq_hooks  # the RQ hooks the composition root wires
    game = service.games.game(GAME)
    rng = random.Random(cfg.seed)
    move_ms: list[float] = []
    hooks_ms: list[float] = []
    round_trip_ms: list[float] = []
    table = _new_game(service)
    previous: str | None = None  # the bare round trip's member of the move before
    with steps.step("timers: moves and their hooks", total=cfg.timer_moves) as step:
        for _ in range(cfg.timer_moves):
            if table.status != "active":
                table, previous = _new_game(service), None
            seat = min(to_act(table, game))
            action = msgspec.to_builtins(rng.choice(game.legal_actions(table.game, seat)))
            t0 = time.perf_counter()
            result = service.act(table.id, seat, action)
            move_ms.append((time.perf_counter() - t0) * 1000.0)
            table = result.table
            t0 = time.perf_counter()
            hooks.after_append(table, result.events)
            hooks_ms.append((time.perf_counter() - t0) * 1000.0)
            if table.status == "active":
                waiting = min(to_act(table, game))
                member = f"{table.id}:{waiting}"
                t0 = time.perf_counter()
                pipe = hooks.redis.pipeline(transaction=False)  # the queues' Redis
                if previous is not None and previous != member:
                    pipe.zrem(ROUND_TRIP_KEY, previous)
                pipe.zadd(ROUND_TRIP_KEY, {member: table.deadline(waiting) or 0})
                pipe.execute()
                round_trip_ms.append((time.perf_counter() - t0) * 1000.0)
                previous = member
            step.advance()
    move_p50 = percentile(move_ms, 50)
    return {
        "measured": "workers.hooks.RqHooks.after_append after GameService.act",
        "moves": len(move_ms),
        "move_ms": _summary(move_ms),
        "hooks_ms": _summary(hooks_ms),
        "share_p50": percentile(hooks_ms, 50) / move_p50 if hooks_ms else None,
        "share_mean": (sum(hooks_ms) / len(hooks_ms)) / (sum(move_ms) / len(move_ms))
        if hooks_ms else None,
        "round_trip": {
            "measured": "one bare pipelined round trip of ZREM + ZADD (the floor of a hook)",
            "ms": _summary(round_trip_ms),
            "share_p50": percentile(round_trip_ms, 50) / move_p50 if round_trip_ms else None,
        },
        "rebuild": _rebuild(service, hooks, cfg.rebuild_games),
        **_timer_memory(hooks),
    }


def _timer_memory(hooks: RqHooks) -> dict[str, Any]:
    """The timers armed (after the rebuild: at least one per game rebuilt) and the Redis
    memory each takes (the sorted set's usage over its size)."""
    armed = hooks.redis.zcard(TIMERS)
    if not armed:
        return {"timers": 0, "timer_bytes": None}
    usage = hooks.redis.memory_usage(TIMERS, samples=0) or 0
    return {"timers": armed, "timer_bytes": usage / armed}


def _rebuild(service: GameService, hooks: RqHooks, games: int) -> dict[str, Any]:
    """A starting worker's rebuild over every active game, `games` of which have lost their
    timers (created through the service, whose hooks do nothing)."""
    for _ in range(games):
        _new_game(service)
    t0 = time.perf_counter()
    counts = hooks.rebuild(service.active_games())
    seconds = time.perf_counter() - t0
    return {"active_games": counts.tables, "lost": games, "rearmed": counts.armed,
            "enqueued": counts.enqueued, "ms": seconds * 1000.0,
            "us_per_game": seconds * 1e6 / counts.tables if counts.tables else None}


def _summary(ms: list[float]) -> dict[str, float | None]:
    if not ms:
        return {"p50": None, "p99": None, "mean": None}
    return {"p50": percentile(ms, 50), "p99": percentile(ms, 99), "mean": sum(ms) / len(ms)}
