"""Archiving a log: find the inputs that produced it, then prove that they do.

The log does not say which command appended which events, so the steps are found by
trying, in order, what could explain the events at the current position, on the table as
it stands there:

1. a move of a seat to act: the seat the next event names, by its owner, its bot or the
   server for an absent player (`turn_timed_out` first, `auto` in the data), each of its
   legal actions in turn, until the game's `decide` gives the events that follow;
2. one event, given as it is, with what the table does next (`follow`) or without;
3. the event as it was stored (`Verbatim`).

A candidate is run first with a probe clock (readings 1.0, 2.0, …): comparing everything
but the times tells whether it explains the events, and which reading stamped which event,
hence the readings to keep; it is then run again with those readings and must give the
stored events byte for byte. Finally the whole record is encoded, decoded and expanded
again, and must give the whole log, the stored table and the stored checkpoints byte for
byte (`check`): otherwise the game is not archived (`NotArchivable`) and keeps its log.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from domain.archive.codec import DERIVED, Defaults, Digits
from domain.archive.record import ActAs, EventStep, Record, Special, Verbatim
from domain.archive.record import decode as decode_record
from domain.archive.record import encode as encode_record
from domain.archive.replay import (
    Expansion,
    Games,
    Readings,
    default_by,
    expand,
    follow_up,
    restore_created,
)
from domain.archive.summary import listed, make_summary, record_summary
from domain.errors import DomainError
from domain.events import Event
from domain.events import encode as encode_event
from domain.game import Game, resolve_options
from domain.rng import commitment, rng_for
from domain.service.decide import decide_action
from domain.service.folding import Batch, Stamped, fold
from domain.store.port import StoredGame
from domain.table import (
    TABLE_EVENTS,
    Table,
    UndoNotKept,
    decode_table,
    encode_table,
    evolve_table,
    to_act,
)

# Events a move may begin with besides its own: the server's marks before a move.
_MOVE_PREFIXES = ("turn_timed_out", "seat_returned")


class NotArchivable(Exception):
    """The log could not be archived exactly (the game keeps its log)."""


def archive(stored: StoredGame, games: Games) -> tuple[bytes, Expansion]:
    """The record's bytes, and its expansion, checked against everything `stored` holds:
    the log, the final table and the replay checkpoints, byte for byte."""
    if stored.seed is None:
        raise NotArchivable("the game's seed is missing")
    try:
        record = explain(stored, games)
    except Exception as err:  # a log that does not replay at all: kept whole, said why
        raise NotArchivable(f"the log does not replay: {type(err).__name__}: {err}") \
            from err
    data = encode_record(record)
    expansion = check(data, stored, games)
    return data, expansion


def check(data: bytes, stored: StoredGame, games: Games) -> Expansion:
    """Expand `data` and compare it with what the store holds; NotArchivable if anything
    differs."""
    try:
        expansion = expand(decode_record(data), games)
    except Exception as err:  # any failure to replay is a refusal, said in one line
        raise NotArchivable(f"the record does not expand: {type(err).__name__}: {err}") \
            from err
    if len(expansion.events) != len(stored.events):
        raise NotArchivable(f"{len(expansion.events)} events expanded, "
                            f"{len(stored.events)} stored")
    for got, want in zip(expansion.events, stored.events, strict=True):
        if encode_event(got) != encode_event(want):
            raise NotArchivable(f"event {want.seq} expands differently")
    # Tables are compared as a reader gets them: decoded (an integer where a float is
    # declared reads as the float, whichever way the table was encoded).
    if stored.snapshot is not None and \
            as_read(encode_table(expansion.table), games) != latest_table(stored, games):
        raise NotArchivable("the final table expands differently from the stored one")
    if {seq: as_read(raw, games) for seq, raw in stored.checkpoints.items()} != \
            {seq: as_read(raw, games) for seq, raw in expansion.checkpoints.items()}:
        raise NotArchivable("the replay checkpoints expand differently")
    try:
        summary = record_summary(data, games)
    except Exception as err:  # a summary that does not read is a refusal too
        raise NotArchivable(f"the summary does not read: {type(err).__name__}: {err}") \
            from err
    if summary is not None and as_listed(summary, games) != \
            as_listed(encode_table(expansion.table), games):
        raise NotArchivable("the summary differs from the final table")
    return expansion


def as_read(raw: bytes, games: Games) -> bytes:
    """A stored table's bytes as a reader decodes them, encoded again."""
    return encode_table(decode_table(raw, games))


def as_listed(raw: bytes, games: Games) -> bytes:
    """A stored table's bytes as a listing reads them (`summary.listed`)."""
    return encode_table(listed(decode_table(raw, games)))


def latest_table(stored: StoredGame, games: Games) -> bytes | None:
    """The table a reader of the stored game gets (its snapshot and the events after it
    folded in: the snapshot of an aborted game is not its last table), encoded as read."""
    if stored.snapshot is None:
        return None
    table = decode_table(stored.snapshot, games)
    newer = [e for e in stored.events if e.seq > table.version]
    game = games[table.type]
    try:
        for ev in newer:
            table = evolve_table(table, ev, game)
    except UndoNotKept:  # a take-back after the snapshot: the log has the table before it
        table = None
        for ev in stored.events:
            table = evolve_table(table, ev, game)
    assert table is not None
    return encode_table(table)


def explain(stored: StoredGame, games: Games) -> Record:
    """The record of a log (not yet checked as a whole: see `archive`)."""
    events = list(stored.events)
    seed = stored.seed
    assert seed is not None
    encoded = [encode_event(e) for e in events]
    digits = Digits()
    special: dict[int, Special] = {}
    times: list[float] = []
    table: Table | None = None
    pos = steps = 0
    while pos < len(events):
        found = None
        if table is not None and table.status == "active" and (
                events[pos].type not in TABLE_EVENTS or events[pos].type in _MOVE_PREFIXES):
            found = _move(table, events, encoded, pos, seed, games)
        if found is None:
            found = _event(table, events, encoded, pos, seed, games)
        if found is None:
            ev = events[pos]
            game = games[ev.data["type"] if table is None else table.type]
            found = _Found(evolve_table(table, ev, game), 1, [], Verbatim(encoded[pos]), [])
        table = found.table
        for digit, radix in found.digits:
            digits.add(digit, radix)
        if found.special is not None:
            special[steps] = found.special
        times.extend(found.readings)
        pos += found.count
        steps += 1
    record = Record(seed=seed, version=len(events), steps=steps, special=special,
                    choices=digits.number(), times=times, tokens=dict(stored.tokens),
                    creator=stored.creator, chosen=len(digits.pairs),
                    entropy_bits=sum(math.log2(radix) for _digit, radix in digits.pairs))
    if table is not None:
        try:
            record.summary = make_summary(record, table, games)
        except (ValueError, TypeError):  # a table no summary stands for: listed by expanding
            record.summary = None
    return record


@dataclass
class _Found:
    table: Table
    count: int  # events explained
    digits: list[tuple[int, int]]
    special: Special | None
    readings: list[float]


class _Probe:
    """A clock whose n-th reading is n (as a float): the events' times then tell which
    reading stamped them."""

    def __init__(self) -> None:
        self.used = 0

    def __call__(self) -> float:
        self.used += 1
        return Stamped(self.used)  # (stamped as it is, whatever the wait)


def _run(step: Callable[[Callable[[], float]], tuple[Table, list[Event]]],
         events: Sequence[Event], encoded: Sequence[bytes],
         pos: int) -> tuple[Table, int, list[float]] | None:
    """Run a candidate step with the probe clock, then with the readings it needs; the
    table, the number of events it explains and its readings when it gives the stored
    events byte for byte."""
    probe = _Probe()
    try:
        _table, produced = step(probe)
    except DomainError:
        return None
    n = len(produced)
    if n == 0 or pos + n > len(events):
        return None
    for got, want in zip(produced, events[pos:pos + n], strict=True):
        if not _same_but_time(got, want):
            return None
    first_at: dict[float, float] = {}
    for got, want in zip(produced, events[pos:pos + n], strict=True):
        first_at.setdefault(got.at, want.at)
    readings: list[float] = []
    for k in range(1, probe.used + 1):
        # A reading that stamped nothing (a fold of no event) may be anything.
        readings.append(first_at.get(float(k), readings[-1] if readings else
                                     events[pos].at))
    try:
        table, produced = step(Readings(readings))
    except DomainError:
        return None
    if len(produced) != n or any(encode_event(got) != want for got, want in
                                 zip(produced, encoded[pos:pos + n], strict=True)):
        return None
    return table, n, readings


def _same_but_time(a: Event, b: Event) -> bool:
    return (a.seq == b.seq and a.type == b.type and a.actor == b.actor and a.data == b.data
            and a.private == b.private and a.commitments == b.commitments)


def _move(table: Table, events: Sequence[Event], encoded: Sequence[bytes], pos: int,
          seed: str, games: Games) -> _Found | None:
    """A move that explains the events at `pos`, if one does."""
    game = games[table.type]
    acting = sorted(to_act(table, game))
    first = events[pos]
    prefix = 0
    if first.type in _MOVE_PREFIXES:
        seats = [first.data.get("seat")]
        prefix = 1
    else:
        seats = [first.actor] if first.actor in acting else []
        seats += [s for s in acting if s not in seats]
    mover_event = events[pos + prefix] if pos + prefix < len(events) else None
    for seat in seats:
        if seat not in acting:
            continue
        for by in _modes(table, seat, first, mover_event):
            found = _move_as(table, game, events, encoded, pos, prefix, seed, seat, by,
                             acting)
            if found is not None:
                return found
    return None


def _modes(table: Table, seat: int, first: Event, mover_event: Event | None) -> list[str]:
    """Who may have made the move, most likely first."""
    if first.type == "turn_timed_out":
        return ["timeout"]
    if first.type == "seat_returned":
        return ["player"]
    auto = mover_event.data.get("auto") if mover_event is not None else None
    usual = default_by(table, seat)
    if isinstance(auto, str):  # the server moved for the seat: `auto` says how
        return [auto, usual]
    return [usual, "player" if usual == "bot" else "bot"]


def _move_as(table: Table, game: Game[Any, Any], events: Sequence[Event],
             encoded: Sequence[bytes], pos: int, prefix: int, seed: str, seat: int, by: str,
             acting: list[int]) -> _Found | None:
    legal = game.legal_actions(table.game, seat)
    wanted = events[pos + prefix:]
    rng_seed = (seed, table.version)
    for index, action in enumerate(legal):
        if not _decides_like(game, table, seat, action, by, wanted, rng_seed):
            continue
        found = _run(_acting(game, table, seed, seat, action, by), events, encoded, pos)
        if found is None:
            continue
        after, n, readings = found
        usual = by == default_by(table, seat)
        digits = [(acting.index(seat), len(acting)), (index, len(legal))]
        return _Found(after, n, digits, None if usual else ActAs(by), readings)
    # No listed action explains the events: they are kept as events (`_event`).
    return None


def _decides_like(game: Game[Any, Any], table: Table, seat: int, action: Any, by: str,
                  wanted: Sequence[Event], rng_seed: tuple[str, int]) -> bool:
    """Does the game's own `decide` give the events wanted (a cheap first look, without
    stamping)?"""
    try:
        decided = game.decide(table.game, seat, action, rng_for(*rng_seed))
    except DomainError:
        return False
    if len(decided) > len(wanted):
        return False
    marked = "auto" in (wanted[0].data if wanted else {}) and by not in ("player", "bot")
    for n, (got, want) in enumerate(zip(decided, wanted, strict=False)):
        data = {**got.data, "auto": by} if marked and got.actor == seat else got.data
        if n == 0 and "undoable" in want.data and by == "player":
            # (the service marks a move that may be taken back: `decide_action`)
            data = {**data, "undoable": want.data["undoable"]}
        if got.type != want.type or got.actor != want.actor or data != want.data or \
                got.private != want.private:
            return False
    return True


def _acting(game: Game[Any, Any], table: Table, seed: str, seat: int, body: Any,
            by: str) -> Callable[[Callable[[], float]], tuple[Table, list[Event]]]:
    def step(clock: Callable[[], float]) -> tuple[Table, list[Event]]:
        after, batch = decide_action(game, table, seed, seat, body, None, by, clock)
        return after, batch.events
    return step


def _event(table: Table | None, events: Sequence[Event], encoded: Sequence[bytes], pos: int,
           seed: str, games: Games) -> _Found | None:
    """The event at `pos` given as it is, with what follows it or without."""
    ev = events[pos]
    game = games[ev.data.get("type", "") if table is None else table.type] \
        if table is not None or ev.type == "game_created" else None
    if game is None:
        return None
    given = msgspec.structs.replace(ev, seq=0, at=0.0, commitments={}, hash="")
    compact = _compact_created(given, seed, games)
    for follow in (True, False):
        def step(clock: Callable[[], float], follow: bool = follow
                 ) -> tuple[Table, list[Event]]:
            batch = Batch()
            after = fold(table, game, [restore_created(compact, seed, games)], batch, clock,
                         seed)
            if follow:
                after = follow_up(after, game, seed, batch, clock)
            return after, batch.events
        found = _run(step, events, encoded, pos)
        if found is not None:
            after, n, readings = found
            if follow and n == 1:
                follow = False  # nothing followed: the same step without its follow-up
            return _Found(after, n, [], EventStep(compact, follow), readings[:1]
                          if not follow else readings)
    return None


def _compact_created(ev: Event, seed: str, games: Games) -> Event:
    """`game_created` without what the expansion computes again: the seed's commitment,
    and the options equal to the game's defaults."""
    if ev.type != "game_created":
        return ev
    data = dict(ev.data)
    if data.get("seed_hash") == commitment(seed):
        data["seed_hash"] = DERIVED
    options, game = data.get("options"), games.get(data.get("type", ""))
    if isinstance(options, dict) and game is not None:
        players = len(data.get("seats") or ())
        try:
            defaults = resolve_options(game.options, {}, players)
            given = Defaults({k: v for k, v in options.items()
                              if k not in defaults or _bytes(defaults[k]) != _bytes(v)})
            again = resolve_options(game.options, dict(given), players)
        except DomainError:
            again = None
        if again is not None and _bytes(again) == _bytes(options):
            data["options"] = given
    return msgspec.structs.replace(ev, data=data)


def _bytes(value: Any) -> bytes:
    return msgspec.json.encode(value)
