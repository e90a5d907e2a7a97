"""Section "aof": the bytes a move adds to Redis's append-only file, and what a load folds.

Moves of 3-seat Ochs & Esel (random legal actions, new games as needed) through
`GameService.act` in process on the run's embedded Redis (AOF on), in two modes that take
turns in chunks, so both meet the same machine:
- `every SNAPSHOT_EVERY` — the store's snapshot is written with the first append, every
  `SNAPSHOT_EVERY` events and at the end (what the service does);
- `every append` — the snapshot written with every append (what it did before), for
  comparison (`domain.service.appending.snapshot_due` replaced for these chunks).
The AOF's growth is read from `INFO persistence` (`aof_current_size`) around each chunk
(a rewrite during a chunk voids it). Per move: AOF bytes, the events' own bytes, and the
snapshot's size. Then the cost on the read side: `GameService.load` by a process that
remembers nothing, timed at every version of one game (which folds 0 to SNAPSHOT_EVERY - 1
events).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import msgspec

import domain.service.appending as appending
from bench.config import BenchConfig
from bench.context import BenchContext
from bench.progress import Steps
from bench.stats import percentile
from domain import events as codec
from domain.service import GameService
from domain.store import SNAPSHOT_EVERY
from domain.table import Table, encode_table, to_act

GAME = "ochs-und-esel"
SEATS = 3
CHUNK = 50


@contextmanager
def snapshot_every_append() -> Iterator[None]:
    """The service as it was: a snapshot with every append."""
    due = appending.snapshot_due
    appending.snapshot_due = lambda expected, table: True
    try:
        yield
    finally:
        appending.snapshot_due = due


def _new_game(service: GameService) -> Table:
    table = service.create(GAME, None, [{"kind": "human"}] * SEATS, deadline_s=None)
    for n in range(SEATS):
        _seat, _token, table = service.join(table.id, f"p{n}")
    return table


class Mode:
    def __init__(self, name: str) -> None:
        self.name = name
        self.moves = 0
        self.aof_bytes = 0
        self.event_bytes = 0
        self.snapshot_bytes = 0
        self.voided = 0  # chunks dropped: an AOF rewrite happened during them
        self.table: Table | None = None

    def result(self) -> dict[str, Any]:
        per = max(self.moves, 1)
        return {"mode": self.name, "moves": self.moves,
                "aof_bytes_per_move": self.aof_bytes / per,
                "event_bytes_per_move": self.event_bytes / per,
                "snapshot_bytes": self.snapshot_bytes / per, "chunks_voided": self.voided}


def _aof(client: Any) -> tuple[int, int]:
    info = client.info("persistence")
    return int(info.get("aof_current_size", 0)), int(info.get("aof_rewrites", 0))


def _chunk(service: GameService, client: Any, mode: Mode, rng: random.Random) -> None:
    game = service.games.game(GAME)
    table = mode.table if mode.table is not None else _new_game(service)
    size0, rewrites0 = _aof(client)
    moves = event_bytes = snapshot_bytes = 0
    for _ in range(CHUNK):
        if table.status != "active":
            table = _new_game(service)  # (its creation's bytes count too)
        seat = min(to_act(table, game))
        action = msgspec.to_builtins(rng.choice(game.legal_actions(table.game, seat)))
        result = service.act(table.id, seat, action)
        table = result.table
        moves += 1
        event_bytes += sum(len(codec.encode(e)) for e in result.events)
        snapshot_bytes += len(encode_table(table))
    mode.table = table
    time.sleep(0.05)  # the AOF is written in Redis's next event loop turn
    size1, rewrites1 = _aof(client)
    if rewrites1 != rewrites0 or size1 < size0:
        mode.voided += 1
        return
    mode.moves += moves
    mode.aof_bytes += size1 - size0
    mode.event_bytes += event_bytes
    mode.snapshot_bytes += snapshot_bytes


def _load_us(service: GameService, game_id: str, samples: int) -> dict[str, float]:
    """A load by a process that remembers nothing, at the game's current version."""
    times = []
    for _ in range(samples):
        fresh = GameService(service.store, service.games)
        t0 = time.perf_counter()
        fresh.load(game_id)
        times.append((time.perf_counter() - t0) * 1e6)
    return {"p50": percentile(times, 50), "mean": statistics.fmean(times)}


def _loads_over_a_game(service: GameService, rng: random.Random,
                       samples: int) -> dict[str, Any]:
    """Load time by how many events the load folds (0 .. SNAPSHOT_EVERY - 1)."""
    game = service.games.game(GAME)
    table = _new_game(service)
    by_folded: dict[int, list[float]] = {}
    while table.status == "active" and table.version < 40 * SNAPSHOT_EVERY:
        seat = min(to_act(table, game))
        action = msgspec.to_builtins(rng.choice(game.legal_actions(table.game, seat)))
        table = service.act(table.id, seat, action).table
        stored = service.store.read_table(table.id)[0]
        assert stored is not None
        snapshot_version = msgspec.json.decode(stored.snapshot)["version"]
        folded = table.version - snapshot_version
        by_folded.setdefault(folded, []).append(_load_us(service, table.id, samples)["p50"])
    return {str(k): statistics.median(v) for k, v in sorted(by_folded.items())}


def run(cfg: BenchConfig, ctx: BenchContext, steps: Steps) -> dict[str, Any]:
    service = ctx.service
    client = ctx.components.store_redis
    rng = random.Random(cfg.seed)
    now, before = Mode(f"every {SNAPSHOT_EVERY} events"), Mode("every append (before)")
    chunks = max(1, cfg.aof_moves // CHUNK)
    with steps.step("aof: moves in both modes", total=2 * chunks) as step:
        for _ in range(chunks):
            _chunk(service, client, now, rng)
            step.advance()
            with snapshot_every_append():
                _chunk(service, client, before, rng)
            step.advance()
    with steps.step("aof: load time by events folded", total=1):
        loads = _loads_over_a_game(service, rng, cfg.aof_load_samples)
    ratio = (now.aof_bytes / max(now.moves, 1)) / max(before.aof_bytes / max(before.moves, 1), 1)
    return {"snapshot_every": SNAPSHOT_EVERY, "rows": [now.result(), before.result()],
            "aof_ratio": ratio, "load_us_by_events_folded": loads}
