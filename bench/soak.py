"""Section "soak": Redis memory over a long run of games created, played, finished and swept.

For `--soak-minutes` (30 by default) the service in process, on the run's embedded Redis
(AOF on), creates games without pause: three in four are 3-seat Ochs & Esel games of one
round played to the end with random legal moves; one in four is created with one seat
taken and never started. Every `SWEEP_EVERY_S` the retention sweep runs
(`domain.service.retention`) with games never started expiring after
`--soak-unstarted-ttl` seconds (instead of 7 days), so that the run reaches the steady
state in which as many of them are deleted as are created.

Every `--soak-sample` seconds it records Redis's `used_memory`, the keys, the AOF's size,
the games finished (the replay archive, kept by design) and `MEMORY USAGE` of every key,
split between the archive (the finished games' keys and the listings with an entry per
game) and the rest. Reported: memory per hour over the steady state (the samples after the
first TTL and sweep), in all (it grows with the archive) and of the rest, which must be
flat, and the archive's bytes per finished game.
"""

from __future__ import annotations

import random
import time
from typing import Any

import msgspec

from bench.config import BenchConfig
from bench.context import BenchContext
from bench.progress import Steps
from domain.service import GameService
from domain.service.retention import RetentionPolicy, sweep_unstarted
from domain.store import keys
from domain.table import Table, to_act

GAME = "ochs-und-esel"
SEATS = 3
SWEEP_EVERY_S = 5.0
UNSTARTED_EVERY = 4  # one game in this many is never started


def _play_to_end(service: GameService, rng: random.Random) -> tuple[Table, int]:
    game = service.games.game(GAME)
    table = service.create(GAME, {"rounds": 1}, [{"kind": "human"}] * SEATS, deadline_s=None)
    for n in range(SEATS):
        _seat, _token, table = service.join(table.id, f"p{n}")
    moves = 0
    while table.status == "active":
        seat = min(to_act(table, game))
        action = msgspec.to_builtins(rng.choice(game.legal_actions(table.game, seat)))
        table = service.act(table.id, seat, action).table
        moves += 1
    return table, moves


def _never_started(service: GameService) -> Table:
    table = service.create(GAME, None, [{"kind": "human"}] * SEATS, deadline_s=None)
    return service.join(table.id, "alone")[2]


# The listings that keep an entry per finished game, as its own keys are kept.
ARCHIVE_LISTINGS = (keys.ALL_GAMES, keys.by_status("finished"), keys.by_type(GAME))


def _memory_by_kind(client: Any, finished: set[str]) -> tuple[int, int]:
    """(archive, rest): `MEMORY USAGE` summed over every key, split between the finished
    games' keys with the listings that grow with them, and every other key. Both sums come
    from the same estimate, which counts a little more than `used_memory` grows by (the
    allocator's share), so the rest is measured, never `used_memory` minus the archive."""
    archive = rest = 0
    names = [raw.decode() for raw in client.scan_iter(count=2000)]
    for start in range(0, len(names), 1000):
        chunk = names[start:start + 1000]
        pipe = client.pipeline(transaction=False)
        for name in chunk:
            pipe.memory_usage(name, samples=0)
        for name, size in zip(chunk, pipe.execute(), strict=True):
            if name in ARCHIVE_LISTINGS or _game_of(name) in finished:
                archive += size or 0
            else:
                rest += size or 0
    return archive, rest


def _game_of(key: str) -> str | None:
    """The game a `game:{<id>}:…` key belongs to, else None."""
    if not key.startswith("game:{"):
        return None
    end = key.find("}", 6)
    return key[6:end] if end > 0 else None


def _slope_per_hour(points: list[tuple[float, float]]) -> float | None:
    """Least-squares slope of (seconds, bytes), in bytes per hour."""
    if len(points) < 3:
        return None
    n = len(points)
    mean_t = sum(t for t, _ in points) / n
    mean_v = sum(v for _, v in points) / n
    var = sum((t - mean_t) ** 2 for t, _ in points)
    if var == 0:
        return None
    return sum((t - mean_t) * (v - mean_v) for t, v in points) / var * 3600.0


def run(cfg: BenchConfig, ctx: BenchContext, steps: Steps) -> dict[str, Any]:
    service = ctx.service
    client = ctx.components.store_redis
    webhooks = ctx.components.webhook_store
    rng = random.Random(cfg.seed)
    policy = RetentionPolicy(unstarted_ttl_s=cfg.soak_unstarted_ttl_s, batch=500)
    duration_s = cfg.soak_minutes * 60.0
    started = time.monotonic()
    next_sweep = next_sample = started
    finished: set[str] = set()
    created = unstarted = moves = swept = shown = 0
    samples: list[dict[str, Any]] = []
    with steps.step("soak: games created, played, finished, swept",
                    total=max(1, int(duration_s))) as step:
        while (now := time.monotonic()) - started < duration_s:
            if now >= next_sweep:
                swept += sweep_unstarted(service.store, webhooks, policy, time.time()).deleted
                next_sweep = now + SWEEP_EVERY_S
            if now >= next_sample:
                memory = client.info("memory")["used_memory"]
                archive, rest = _memory_by_kind(client, finished)
                samples.append({
                    "t_s": round(now - started, 1), "used_memory": memory,
                    "archive_bytes": archive, "without_archive": rest,
                    "keys": client.dbsize(),
                    "aof_bytes": client.info("persistence").get("aof_current_size"),
                    "finished": len(finished), "created": created, "swept": swept,
                    "unstarted_listed": client.zcard(keys.by_status("open"))})
                next_sample = now + cfg.soak_sample_s
                step.advance(int(now - started) - shown)
                shown = int(now - started)
            created += 1
            if created % UNSTARTED_EVERY == 0:
                _never_started(service)
                unstarted += 1
            else:
                table, played = _play_to_end(service, rng)
                finished.add(table.id)
                moves += played
    steady_from = cfg.soak_unstarted_ttl_s + 2 * SWEEP_EVERY_S
    steady = [s for s in samples if s["t_s"] >= steady_from]
    last = samples[-1] if samples else {}
    return {
        "minutes": cfg.soak_minutes, "unstarted_ttl_s": cfg.soak_unstarted_ttl_s,
        "games_created": created, "games_finished": len(finished),
        "games_never_started": unstarted, "games_swept": swept, "moves": moves,
        "moves_per_s": moves / max(duration_s, 1e-9),
        "steady_from_s": steady_from, "steady_samples": len(steady),
        "memory_per_hour": _slope_per_hour([(s["t_s"], s["used_memory"]) for s in steady]),
        "memory_without_archive_per_hour": _slope_per_hour(
            [(s["t_s"], s["without_archive"]) for s in steady]),
        "archive_bytes_per_finished_game": (last.get("archive_bytes", 0)
                                            / max(last.get("finished", 0), 1)),
        # Never-started games present at once: bounded by the TTL times the creation rate.
        "unstarted_listed": [min((s["unstarted_listed"] for s in steady), default=None),
                             max((s["unstarted_listed"] for s in steady), default=None)],
        "samples": samples,
    }
