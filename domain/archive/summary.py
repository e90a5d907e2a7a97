"""A game's summary: its final table as listings read it, kept in its archive record.

A listing (`GET /games`) and an inbox (`GET /players/me/games`) show a game that is over
by its table alone: type, status, seats and names, result, times, version; never its
game state. The record keeps that table (`listed`: the table without its game state,
its take-back memory or its last hash) so that a page of archived games costs what a
page of live ones does, without expanding any of them.

It is kept as its difference from the table the game's creation makes (`created_table`),
given the seed, the version and a finished game ended at its last change: each field
that differs, by its name (a word of the vocabulary); the seats seat by seat, each by
the fields of it that differ; the times as milliseconds after the creation. A bots-only
game's summary is its end time and its outcome (a few dozen bytes); people add their
names, player ids and what they did (resigned, left).

    varint   fields that differ; each: its name (a value), then
               seats: varint seats; each: varint fields that differ, (name, value)
                 each; varint fields gone, their names
               a time (`created_at`, `updated_at`, `ended_at`): a zigzag varint, even:
                 twice its milliseconds after the creation; 1: a value (a float) follows
               the outcome, when it is a game's own (no seat conceded, not early), under
                 the name `outcome_ranked`: varint flags (1: lower is better; 2: the places
                 are the scores' competition ranking, not written), the score's name, the
                 scores, then (flag 2 unset) the places, as values
               anything else: a value (`codec`)

`summary_bytes` writes it, `summary_fields` gives back the table field by field
(`record_summary` encodes them as a snapshot's bytes, which `domain.table.decode_table`
reads), and `archive.explain.check` proves, before any game is archived, that they are
the table the expansion ends with.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from domain.archive.codec import FormatError, Reader, Writer
from domain.archive.record import EventStep, Head, Record, Special, Verbatim, peek
from domain.archive.replay import Games, restore_created
from domain.events import Event
from domain.events import decode as decode_event
from domain.games.common import places
from domain.table import Table, created_table

_TIMES = ("created_at", "updated_at", "ended_at")
# An outcome as a game gives it (`domain.game.Outcome` with nothing the table ruled), and
# the name its short form is written under.
_OUTCOME_KEYS = ("places", "scores", "score_name", "lower_is_better")
_RANKED = "outcome_ranked"
_LOWER_IS_BETTER, _PLACES_RANKED = 1, 2
_encode = msgspec.json.encode


def listed(table: Table) -> Table:
    """What a summary keeps of a table: everything but its game state, its take-back
    memory and its last hash (no listing shows them)."""
    return msgspec.structs.replace(table, game=None, undo=None, last_hash="")


def base_of(creation: Event, seed: str, version: int) -> dict[str, Any]:
    """The table a summary is the difference from: the creation's, with the record's seed
    and version, finished at its creation (`creation.at`); its end, once read, is its
    last change."""
    table = msgspec.structs.replace(created_table(creation), seed=seed, version=version,
                                    status="finished", updated_at=creation.at)
    return msgspec.to_builtins(table, str_keys=True)


def summary_bytes(table: Table, base: Mapping[str, Any]) -> bytes:
    """The summary of `table` (as `listed`) against `base` (`base_of`)."""
    final = msgspec.to_builtins(listed(table), str_keys=True)
    created_ms = _ms(base["created_at"])
    if created_ms is None or set(final) != set(base):
        raise ValueError("a table this summary cannot be the difference of")
    w = Writer()
    changed = [k for k, v in final.items()
               if _encode(v) != _encode(final["updated_at"] if k == "ended_at" else base[k])]
    w.varint(len(changed))
    for key in changed:
        value = final[key]
        if key == "outcome" and _plain_outcome(value):
            w.value(_RANKED)
            _write_outcome(w, value)
            continue
        w.value(key)
        if key == "seats":
            _write_seats(w, value, base[key])
        elif key in _TIMES:
            _write_time(w, value, created_ms)
        else:
            w.value(value)
    return w.bytes()


def summary_fields(data: bytes, base: Mapping[str, Any]) -> dict[str, Any]:
    """The table a summary stands for, field by field (builtins, in the table's order)."""
    table = dict(base)
    created_ms = _ms(base["created_at"])
    r = Reader(data)
    ended = False
    for _ in range(r.varint()):
        key = r.value()
        if key == _RANKED:
            table["outcome"] = _read_outcome(r)
            continue
        if key not in table:
            raise FormatError(f"a summary of a field the table does not have: {key!r}")
        if key == "seats":
            table[key] = _read_seats(r, table[key])
        elif key in _TIMES:
            table[key] = _read_time(r, created_ms)
        else:
            table[key] = r.value()
        ended = ended or key == "ended_at"
    if not r.done():
        raise FormatError("bytes after the summary's end")
    if not ended:
        table["ended_at"] = table["updated_at"]
    return table


def _write_seats(w: Writer, seats: list[dict[str, Any]], base: list[dict[str, Any]]) -> None:
    if len(seats) != len(base):
        raise ValueError("a summary keeps the seats the game was created with")
    w.varint(len(seats))
    for seat, was in zip(seats, base, strict=True):
        changed = [k for k, v in seat.items() if k not in was or _encode(v) != _encode(was[k])]
        gone = [k for k in was if k not in seat]
        w.varint(len(changed))
        for key in changed:
            w.value(key)
            w.value(seat[key])
        w.varint(len(gone))
        for key in gone:
            w.value(key)


def _read_seats(r: Reader, base: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if r.varint() != len(base):
        raise FormatError("a summary of other seats than the game's")
    seats = []
    for was in base:
        seat = dict(was)
        for _ in range(r.varint()):
            key = r.value()
            seat[key] = r.value()
        for _ in range(r.varint()):
            seat.pop(r.value(), None)
        seats.append(seat)
    return seats


def _plain_outcome(value: Any) -> bool:
    """Is `value` a game's own outcome, with nothing the table ruled (`_OUTCOME_KEYS`)?"""
    return isinstance(value, dict) and tuple(value) == _OUTCOME_KEYS and \
        isinstance(value["score_name"], str) and type(value["lower_is_better"]) is bool


def _write_outcome(w: Writer, outcome: dict[str, Any]) -> None:
    lower = outcome["lower_is_better"]
    ranked = outcome["places"] == places(outcome["scores"], lower_is_better=lower)
    w.varint((_LOWER_IS_BETTER if lower else 0) | (_PLACES_RANKED if ranked else 0))
    w.value(outcome["score_name"])
    w.value(outcome["scores"])
    if not ranked:
        w.value(outcome["places"])


def _read_outcome(r: Reader) -> dict[str, Any]:
    flags = r.varint()
    lower = bool(flags & _LOWER_IS_BETTER)
    name = r.value()
    scores = r.value()
    if not isinstance(scores, list):
        raise FormatError("an outcome's scores that are not a list")
    ranked = places(scores, lower_is_better=lower) if flags & _PLACES_RANKED else r.value()
    return {"places": ranked, "scores": scores, "score_name": name,
            "lower_is_better": lower}


def _write_time(w: Writer, value: Any, created_ms: int) -> None:
    ms = _ms(value)
    if ms is None:
        w.signed(1)
        w.value(value)
    else:
        w.signed(2 * (ms - created_ms))


def _read_time(r: Reader, created_ms: int | None) -> Any:
    n = r.signed()
    if n & 1:
        return r.value()
    if created_ms is None:
        raise FormatError("a time after a creation of no whole millisecond")
    return (created_ms + n // 2) / 1000


def _ms(value: Any) -> int | None:
    """A time's whole milliseconds, when it is exactly that many (as stamped)."""
    if type(value) is not float:
        return None
    ms = round(value * 1000)
    return ms if ms / 1000 == value else None


def creation_of(first: Special | None, seed: str, games: Games,
                first_time: float | None) -> Event | None:
    """The log's `game_created` from a record's first step (None: it starts otherwise),
    with its time: the first clock reading (a stored event's: its own)."""
    if isinstance(first, EventStep) and first.event.type == "game_created" and \
            first_time is not None:
        created = restore_created(first.event, seed, games)
        return msgspec.structs.replace(created, at=first_time)
    if isinstance(first, Verbatim):
        ev = decode_event(first.raw)
        return ev if ev.type == "game_created" else None
    return None


def make_summary(record: Record, table: Table, games: Games) -> bytes | None:
    """The summary a record of a game ending with `table` keeps (None: its log starts
    with no creation this can read)."""
    creation = creation_of(record.special.get(0), record.seed, games,
                           record.times[0] if record.times else None)
    if creation is None:
        return None
    return summary_bytes(table, base_of(creation, record.seed, record.version))


def record_summary(data: bytes, games: Games) -> bytes | None:
    """The final table (a snapshot's bytes, without the game state) of an archive record,
    read from its summary alone: no expansion. None: a record without one (format 1)."""
    head = peek(data)
    fields = head_summary(head, head.special.get(0), games)
    return _encode(fields) if fields is not None else None


def head_summary(head: Head, first: Special | None, games: Games) -> dict[str, Any] | None:
    """The final table without its game state, field by field, from a record's head and
    its first step when that is a special one (`record.peek`, `record.peek_holders`):
    None when it has no summary (format 1)."""
    if head.summary is None:
        return None
    creation = creation_of(first, head.seed, games, head.first_time)
    if creation is None:
        raise FormatError("a summary without the game's creation")
    return summary_fields(head.summary, base_of(creation, head.seed, head.version))
