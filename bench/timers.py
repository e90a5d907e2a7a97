"""Section 6: the cost of a move deadline (schedule it, then supersede it at the next move)
as a share of the move itself, both timed in process on the run's Redis.

The move is `GameService.act` (hooks that do nothing). The deadline is timed through
`workers.hooks.RqHooks.after_append` when this build has it: an append that leaves a
human to act schedules that seat's timer and supersedes the previous one. Without it, the
RQ primitives a timer needs are timed instead, and labelled so: `enqueue_at` with a
deterministic job id (`timeout-<game>-v<version>`) and, from the second move on, the
cancel of the previous version's job.

For comparison, the same deadlines kept in one sorted set (member = game and seat, score =
when it is due) are timed too: a supersede is a ZREM of the previous seat's member and a
ZADD, pipelined in one round trip. That is not what the workers do; it shows what a timer
could cost.
"""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime
from typing import Any

import msgspec
from rq import Queue
from rq.job import cancel_job

from bench.config import BenchConfig
from bench.context import BenchContext
from bench.progress import Steps
from domain import registry
from domain.service import GameService
from domain.table import Table, to_act
from workers.arena import percentile

GAME = "ochs-und-esel"
SEATS = 3
DEADLINE_INDEX = "bench:deadlines"


def deadline_passed(game_id: str, version: int) -> None:
    """The job a timer would run (never run here: no worker)."""


def _new_game(service: GameService) -> Table:
    table = service.create(GAME, None, [{"kind": "human"}] * SEATS)
    for n in range(SEATS):
        _seat, _token, table = service.join(table.id, f"p{n}")
    return table


def _rq_hooks(ctx: BenchContext) -> Any:
    """The RQ hooks the composition root wires (on the run's Redis)."""
    return ctx.components.rq_hooks


def run(cfg: BenchConfig, ctx: BenchContext, steps: Steps) -> dict[str, Any]:
    service = ctx.service
    client = ctx.components.queue_redis  # the run's Redis, for the RQ primitives and the index
    hooks = _rq_hooks(ctx)
    game = registry.get_game(GAME)
    rng = random.Random(cfg.seed)
    move_ms: list[float] = []
    timer_ms: list[float] = []  # the whole deadline work of a move
    schedule_ms: list[float] = []  # primitives only: enqueue_at
    cancel_ms: list[float] = []  # primitives only: cancel the previous job
    queue = Queue("deadlines", connection=client) if hooks is None else None
    index_ms: list[float] = []  # the sorted-set alternative
    table = _new_game(service)
    previous: str | None = None
    previous_member: str | None = None
    with steps.step("timers: moves and deadlines", total=cfg.timer_moves) as step:
        for _ in range(cfg.timer_moves):
            if table.status != "active":
                table, previous, previous_member = _new_game(service), None, None
            seat = min(to_act(table, game))
            action = msgspec.to_builtins(rng.choice(game.legal_actions(table.game, seat)))
            t0 = time.perf_counter()
            result = service.act(table.id, seat, action)
            move_ms.append((time.perf_counter() - t0) * 1000.0)
            table = result.table
            if hooks is not None:
                t0 = time.perf_counter()
                hooks.after_append(table, result.events)
                timer_ms.append((time.perf_counter() - t0) * 1000.0)
            elif table.status == "active":
                assert queue is not None
                took_cancel = 0.0
                t0 = time.perf_counter()
                if previous is not None:
                    cancel_job(previous, connection=client)
                    took_cancel = (time.perf_counter() - t0) * 1000.0
                    cancel_ms.append(took_cancel)
                waiting = min(to_act(table, game))
                job_id = f"timeout-{table.id}-v{table.version}"
                t1 = time.perf_counter()
                queue.enqueue_at(datetime.fromtimestamp(table.deadline(waiting) or 0, tz=UTC),
                                 deadline_passed, table.id, table.version, job_id=job_id)
                took_schedule = (time.perf_counter() - t1) * 1000.0
                schedule_ms.append(took_schedule)
                timer_ms.append(took_cancel + took_schedule)
                previous = job_id
            if table.status == "active":
                waiting = min(to_act(table, game))
                member = f"{table.id}:{waiting}"
                t0 = time.perf_counter()
                pipe = client.pipeline(transaction=False)
                if previous_member is not None and previous_member != member:
                    pipe.zrem(DEADLINE_INDEX, previous_member)
                pipe.zadd(DEADLINE_INDEX, {member: table.deadline(waiting) or 0})
                pipe.execute()
                index_ms.append((time.perf_counter() - t0) * 1000.0)
                previous_member = member
            step.advance()
    move_p50 = percentile(move_ms, 50)
    out: dict[str, Any] = {
        "measured": ("workers.hooks.RqHooks.after_append" if hooks is not None else
                     "RQ primitives (workers.hooks is not in this build): enqueue_at with a "
                     "deterministic job id, and cancel_job of the previous version's job"),
        "moves": len(move_ms),
        "move_ms": _summary(move_ms),
        "timer_ms": _summary(timer_ms),
        "share_p50": percentile(timer_ms, 50) / move_p50 if timer_ms else None,
        "share_mean": (sum(timer_ms) / len(timer_ms)) / (sum(move_ms) / len(move_ms))
        if timer_ms else None,
    }
    if hooks is None:
        out["schedule_ms"] = _summary(schedule_ms)
        out["cancel_ms"] = _summary(cancel_ms)
    out["alternative"] = {
        "measured": "for comparison only: deadlines in one sorted set, ZREM the previous "
                    "seat's member + ZADD, one pipelined round trip",
        "timer_ms": _summary(index_ms),
        "share_p50": percentile(index_ms, 50) / move_p50 if index_ms else None,
    }
    return out


def _summary(ms: list[float]) -> dict[str, float | None]:
    if not ms:
        return {"p50": None, "p99": None, "mean": None}
    return {"p50": percentile(ms, 50), "p99": percentile(ms, 99), "mean": sum(ms) / len(ms)}
