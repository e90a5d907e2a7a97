"""Expanding a record: its steps run again through the service's own decide-and-fold path.

A move goes through `decide_action` (the game's `decide` with the RNG of the seed and
version, the automatic follow-ups, the end; not the checks of the seat's turn and of the
action's shape, which the replay took from the table: `legal=True`), an event step
through `fold` and,
when it says so, what the table does next (`follow`: the start, the end, the abort), all
with a clock that gives back the readings the record kept. So every event comes out with
its sequence number, time, commitments and chained hash as they were first stamped, and
the table after the last one is the one the store kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.archive.codec import DERIVED, DigitReader, FormatError
from domain.archive.codec import Defaults as OptionDefaults
from domain.archive.record import ActAs, EventStep, Record, Verbatim
from domain.events import Event
from domain.events import decode as decode_event
from domain.game import Game, resolve_options
from domain.rng import commitment
from domain.service.decide import decide_action
from domain.service.folding import Batch, Stamped, fold, settle, start
from domain.store.port import CHECKPOINT_EVERY
from domain.table import Table, encode_table, evolve_table, to_act

Games = Mapping[str, Game[Any, Any]]


@dataclass
class Expansion:
    """A record expanded: the log, the table after it, and the replay checkpoints the store
    kept (seq -> the table after it, encoded), as the service wrote them."""

    events: list[Event]
    table: Table
    checkpoints: dict[int, bytes] = field(default_factory=dict)


class Readings:
    """The clock of an expansion: the readings the record kept, in order (each the stamp
    of the events it stamped: `Stamped`)."""

    def __init__(self, times: list[float]) -> None:
        self.times = times
        self.used = 0

    def __call__(self) -> float:
        if self.used >= len(self.times):
            raise FormatError("the archive's clock readings run out")
        t = self.times[self.used]
        self.used += 1
        return Stamped(t)


def default_by(table: Table, seat: int) -> str:
    """Who usually makes a seat's move: its bot (a bot seat, a seat given up), else its
    owner."""
    return "bot" if table.seats[seat].bot_level is not None else "player"


def follow_up(table: Table, game: Game[Any, Any], seed: str, batch: Batch,
              clock: Callable[[], float]) -> Table:
    """What the table does after one of its own events: a game whose last seat was just
    taken starts; a game being played ends or is aborted when nothing is left to play
    for or every person agreed (the same `start` and `settle` the commands call)."""
    if table.status == "open" and all(s.taken for s in table.seats):
        return start(table, game, seed, batch, clock)
    return settle(table, game, seed, batch, clock)


def restore_created(ev: Event, seed: str, games: Games) -> Event:
    """`game_created` with what the record left out computed again: the seed's commitment
    and the options the game's defaults complete."""
    if ev.type != "game_created":
        return ev
    data = dict(ev.data)
    if data.get("seed_hash") is DERIVED:
        data["seed_hash"] = commitment(seed)
    options = data.get("options")
    if isinstance(options, OptionDefaults):
        game = games[data["type"]]
        data["options"] = resolve_options(game.options, dict(options), len(data["seats"]))
    return msgspec.structs.replace(ev, data=data)


def expand(record: Record, games: Games) -> Expansion:
    """The log, the final table and the checkpoints the record stands for. Raises
    FormatError (or the domain's errors) when the record does not replay."""
    seed = record.seed
    clock = Readings(record.times)
    digits = DigitReader(record.choices)
    events: list[Event] = []
    checkpoints: dict[int, bytes] = {}
    table: Table | None = None
    special_steps = record.special
    for step in range(record.steps):
        special = special_steps.get(step)
        if special is None or isinstance(special, ActAs):  # a move
            if table is None:
                raise FormatError("a move before the game was created")
            game = games[table.type]
            acting = sorted(to_act(table, game))
            if not acting:
                raise FormatError(f"step {step}: a move where no seat may act")
            seat = acting[digits.take(len(acting))]
            legal = game.legal_actions(table.game, seat)
            if not legal:
                raise FormatError(f"step {step}: seat {seat} has no legal action")
            action = legal[digits.take(len(legal))]
            by = special.by if special is not None else default_by(table, seat)
            # (a seat to act, one of its legal actions: not checked again)
            table, batch = decide_action(game, table, seed, seat, action, None, by, clock,
                                         legal=True)
        elif isinstance(special, EventStep):
            batch = Batch()
            ev = restore_created(special.event, seed, games)
            game = games[ev.data["type"] if table is None else table.type]
            table = fold(table, game, [ev], batch, clock, seed)
            if special.follow:
                table = follow_up(table, game, seed, batch, clock)
        else:
            assert isinstance(special, Verbatim)
            batch = Batch()
            ev = decode_event(special.raw)
            if table is None and ev.type != "game_created":
                raise FormatError("the log does not start with game_created")
            game = games[ev.data["type"] if table is None else table.type]
            table = evolve_table(table, ev, game)
            batch.events.append(ev)
            if ev.seq % CHECKPOINT_EVERY == 0:
                batch.checkpoint = (ev.seq, encode_table(table))
        events.extend(batch.events)
        if batch.checkpoint is not None:
            checkpoints[batch.checkpoint[0]] = batch.checkpoint[1]
    if table is None or len(events) != record.version:
        raise FormatError(f"the record expands to {len(events)} events, not "
                          f"{record.version}")
    return Expansion(events, table, checkpoints)
