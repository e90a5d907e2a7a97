"""New events into a batch: stamped, folded into the table, and checkpointed on the way.

A command prepares everything it appends as one `Batch`; nothing here touches the store.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from domain.commitments import commitment_key
from domain.events import Event, event, stamp
from domain.game import Game
from domain.rng import rng_for
from domain.store.port import CHECKPOINT_EVERY
from domain.table import Table, encode_table, evolve_table, ruled_outcome


@dataclass
class Batch:
    """Events prepared for one append, and the replay checkpoint met on the way (if any)."""

    events: list[Event] = field(default_factory=list)
    checkpoint: tuple[int, bytes] | None = None


def fold(table: Table | None, game: Game[Any, Any], new: list[Event], batch: Batch,
         clock: Callable[[], float], seed: str | None = None) -> Table:
    """Stamp new events and apply them; they join `batch`, to be appended together.
    Events with private parts need the game's `seed` (their commitments' key)."""
    version = table.version if table else 0
    prev_hash = table.last_hash if table else ""
    key = commitment_key(seed) if seed is not None else None
    at = stamp_time(clock(), table.updated_at if table else None)
    for ev in stamp(new, version + 1, at, prev_hash, key):
        table = evolve_table(table, ev, game)
        batch.events.append(ev)
        if ev.seq % CHECKPOINT_EVERY == 0:
            batch.checkpoint = (ev.seq, encode_table(table))
    assert table is not None
    return table


class Stamped(float):
    """A time that is an event's stamp already (the replay of a log reads its own): it is
    stamped as it is, whatever rule stamped it first."""


def stamp_time(now: float, previous: float | None = None) -> float:
    """The time an event is stamped with: the clock's, to the millisecond below; after a
    longer wait since the table's previous event (`previous`), to the unit such a wait is
    worth: 10 ms after a second, 100 ms after 10 s, the second after 100 s (a person's
    move hours later then costs the game's archive two bytes, not four: `domain.archive`).
    Never later than the clock (what falls due at an event's time is due now), never
    before the previous event."""
    if type(now) is Stamped:
        return float(now)
    ms = math.floor(now * 1000)
    if previous is not None:
        before = round(previous * 1000)
        if before / 1000 == previous and ms > before:  # (a previous stamp in whole ms)
            wait = ms - before
            ms -= wait % wait_unit(wait)
    stamped = ms / 1000
    return stamped if stamped <= now else (ms - 1) / 1000


# The unit (ms) of a time stamped after a wait (ms) below each bound; then the last unit.
WAIT_UNITS = ((1_000, 1), (10_000, 10), (100_000, 100))
LAST_WAIT_UNIT = 1_000


def wait_unit(wait_ms: int) -> int:
    """The unit, in milliseconds, of a time stamped `wait_ms` after the previous one."""
    for bound, unit in WAIT_UNITS:
        if wait_ms < bound:
            return unit
    return LAST_WAIT_UNIT


def start(table: Table, game: Game[Any, Any], seed: str, batch: Batch,
          clock: Callable[[], float]) -> Table:
    """Every seat is taken: the game starts and its setup (the deal) is recorded."""
    table = fold(table, game, [event("game_started")], batch, clock)
    return fold(table, game, game.setup(table.game, rng_for(seed, 0)), batch, clock, seed)


def finish(table: Table, game: Game[Any, Any], seed: str, batch: Batch,
           clock: Callable[[], float], early: bool = False) -> Table:
    """The game has an outcome (or, `early`, nothing is left to play for: the places as
    they stand): record it as the table rules it, and reveal the seed."""
    outcome = game.standing(table.game) if early else game.outcome(table.game)
    assert outcome is not None
    return fold(table, game, [event("game_finished", seed=seed,
                                    outcome=ruled_outcome(table, outcome, early))],
                batch, clock)


def settle(table: Table, game: Game[Any, Any], seed: str, batch: Batch,
           clock: Callable[[], float]) -> Table:
    """What follows a change of the table's seats or votes: the game ends when nothing is
    left to play for, else it is aborted when every person playing agreed to."""
    if table.status != "active":
        return table
    if table.nothing_to_play_for():
        return finish(table, game, seed, batch, clock, early=True)
    if table.abort_agreed():
        return fold(table, game, [event("game_aborted")], batch, clock)
    return table
