"""The archive record of a finished game: its inputs, and the bytes they are kept in.

A game's log is the result of its inputs run through the service's decide-and-fold path
(`domain.archive.replay`). The record keeps those inputs as *steps*, in order:

- a move (`ACT`, the usual step, written as nothing but digits): the seat that acts, as
  its place among the seats to act (nothing when one seat may act), and the action, as
  its place among that seat's legal actions (nothing when it has one); played as its
  seat's owner would (a person, or the bot of a bot seat or of a seat given up);
- `ActAs(by)`: a move played otherwise (`timeout`, `away`: the server for an absent player;
  or `player` / `bot` where the usual one would differ), its seat and action in the digits;
- `EventStep(event, follow)`: one event given as it is (the table's own: a creation, a
  join, a resignation, a vote, a rematch's link, or any event this format does not know
  how to derive), stamped and folded like any other; `follow`: what the table does next
  (the start once every seat is taken, the end or the abort once nothing is left to play
  for) follows it (a creation is written field by field: kind 5);
- `Verbatim(raw)`: an event kept as its stored bytes, for a log no step explains (written
  before the stamping it has now): appended as it is and folded.

And with them what the game's later life needs: the seed (the deal of every round, the
commitments' key), every clock reading the steps took (the events' times), the seat
tokens' hashes, the creator token's hash.

And, from format version 2, the game's summary: its final table as listings read it
(`domain.archive.summary`), so that listing an archived game expands nothing.

The bytes (format version 2, `docs/archive.md`):

    byte     format version (2)
    byte     flags: the times' encoding (0: whole milliseconds, 1: float bits, both as
             varints; 2: whole milliseconds, packed; 3, 4: waits as stamped now, their
             lengths packed in 4 or 5 bits and their places in a mixed-radix number;
             5, 6: as 2 and 3, the lengths in a code fitted to the record, `lengths.py`)
    varint   events in the log (its version)
    varint   steps
    seed     byte 0 + 32 bytes (64 lowercase hex digits), or byte 1 + varint length + text
    varint   clock readings; the first (if any) as a signed varint (ms, or float bits)
    blob     the summary (`summary.py`; empty: none)
    varint   special steps; each: varint steps since the previous one, byte kind, fields
    blob     the choices: one number in a mixed radix, little-endian (`codec.Digits`)
    ...      the other readings, each as a signed delta from the one before: varints
             (flags 0, 1), or a blob of them packed (flags 2, 5: `codec.write_delta`;
             5: the lengths' code described first), or (flags 3, 4, 6:
             `codec.write_wait`) a blob of their lengths (6: the code described first)
             and a blob of their places
    varint   seat tokens; each: 32 bytes (a sha256) + varint seat
    byte     0: no creator token; 1: its sha256, 32 bytes

Format version 1 (still read): no summary; values with small integers from tag 11 and no
whole-number floats (`codec`); the special steps right after the seed, then the choices,
then the readings' count, the first and the others' deltas (as above).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any

from domain.archive.codec import (
    FIVE_BITS,
    FOUR_BITS,
    BitReader,
    BitWriter,
    DigitReader,
    Digits,
    FormatError,
    LengthCode,
    Reader,
    Writer,
    bytes_int,
    int_bytes,
    is_stamped_wait,
    length_symbol,
    read_delta,
    read_wait,
    write_delta,
    write_wait,
)
from domain.archive.lengths import ESCAPE, FittedCode
from domain.events import Event

FORMAT_VERSION = 2
READ_VERSIONS = (1, 2)
TIMES_MS, TIMES_BITS, TIMES_MS_PACKED = 0, 1, 2
# Waits as stamped now (`codec.write_wait`), their lengths in 4 bits, or in 5.
TIMES_WAITS, TIMES_WAITS_WIDE = 3, 4
# Packed milliseconds, and waits, their lengths in a code fitted to the record
# (`lengths.FittedCode`, described at the start of the lengths' bits).
TIMES_MS_FITTED, TIMES_WAITS_FITTED = 5, 6
_PACKED: dict[int, LengthCode | None] = {TIMES_MS_PACKED: FOUR_BITS, TIMES_MS_FITTED: None}
_WAITS: dict[int, LengthCode | None] = {TIMES_WAITS: FOUR_BITS, TIMES_WAITS_WIDE: FIVE_BITS,
                                        TIMES_WAITS_FITTED: None}
_MODES = (TIMES_MS, TIMES_BITS, *_PACKED, *_WAITS)
_KIND_ACT_AS, _KIND_EVENT, _KIND_VERBATIM, _KIND_CREATED = 1, 3, 4, 5  # (2: reserved)
# `game_created`'s fields as the service writes them, in order: kind 5 writes their values
# only (a bot seat as its level, a person's open seat as null, a whole number of seconds
# as an integer), then any further fields as a map.
_CREATED_KEYS = ("id", "type", "options", "seats", "deadline_s", "on_timeout",
                 "bot_delay_s", "seed_hash")
_SECONDS = ("deadline_s", "bot_delay_s")
_INT64 = struct.Struct("<q")
_DOUBLE = struct.Struct("<d")


@dataclass(frozen=True)
class ActAs:
    by: str


@dataclass(frozen=True)
class EventStep:
    event: Event  # type, actor, data, private: what a command gives `fold`
    follow: bool


@dataclass(frozen=True)
class Verbatim:
    raw: bytes


Special = ActAs | EventStep | Verbatim


@dataclass
class Record:
    seed: str
    version: int  # events in the log
    steps: int
    special: dict[int, Special]  # step number -> a step other than a usual move
    choices: int  # the mixed-radix number of every choice made
    times: list[float]  # every reading of the clock, in order
    tokens: dict[str, int] = field(default_factory=dict)  # sha256 of a seat token -> seat
    creator: str | None = None  # sha256 of the creator's token
    summary: bytes | None = None  # the final table as listings read it (`summary.py`)
    # (not kept: what the encoder measured) the choices made and the information in them,
    # sum(log2 n) over each choice among n
    chosen: int = 0
    entropy_bits: float = 0.0


def encode(record: Record) -> bytes:
    """The record's bytes, in the current format (2)."""
    w = Writer()
    ms = all(_whole_ms(t) for t in record.times)
    stamps = [round(t * 1000) if ms else _INT64.unpack(_DOUBLE.pack(t))[0]
              for t in record.times]
    deltas = [b - a for a, b in pairwise(stamps)]
    mode, times = _times(deltas, ms)
    w.byte(FORMAT_VERSION)
    w.byte(mode)
    w.varint(record.version)
    w.varint(record.steps)
    _write_hash(w, record.seed, prefixed=True)
    w.varint(len(stamps))
    if stamps:
        w.signed(stamps[0])
    w.blob(record.summary or b"")
    w.varint(len(record.special))
    previous = -1
    for step in sorted(record.special):
        w.varint(step - previous - 1)
        previous = step
        _write_special(w, record.special[step])
    w.blob(int_bytes(record.choices))
    w.raw(times)
    w.varint(len(record.tokens))
    for digest, seat in record.tokens.items():
        _write_hash(w, digest)
        w.varint(seat)
    if record.creator is None:
        w.byte(0)
    else:
        w.byte(1)
        _write_hash(w, record.creator)
    return w.bytes()


def decode(data: bytes) -> Record:
    r = Reader(data)
    head = _read_head(r)
    mode, count = head.mode, head.readings
    special = _read_specials(r)
    choices = bytes_int(r.blob())
    if head.format == 1:  # every reading after the choices
        count = r.varint()
        first = r.signed() if count else 0
    else:
        first = head.first_stamp
    if not count:
        others: list[int] = []
    elif mode in _PACKED:
        bits = BitReader(r.blob())
        code = _PACKED[mode] or FittedCode.read_description(bits)
        others = [read_delta(bits, code) for _ in range(count - 1)]
    elif mode in _WAITS:
        bits, places = BitReader(r.blob()), DigitReader(bytes_int(r.blob()))
        code = _WAITS[mode] or FittedCode.read_description(bits)
        others = [read_wait(bits, places, code) for _ in range(count - 1)]
    else:
        others = [r.signed() for _ in range(count - 1)]
    times: list[float] = []
    last = 0
    for delta in [first, *others] if count else []:
        last += delta
        times.append(last / 1000 if mode != TIMES_BITS else
                     _DOUBLE.unpack(_INT64.pack(last))[0])
    tokens, creator = _read_holders(r)
    return Record(seed=head.seed, version=head.version, steps=head.steps, special=special,
                  choices=choices, times=times, tokens=tokens, creator=creator,
                  summary=head.summary)


@dataclass(frozen=True)
class Head:
    """What a record says before its special steps (format 2: before the second one):
    all its summary needs, read without the rest."""

    format: int
    mode: int
    version: int
    steps: int
    seed: str
    readings: int  # (format 1: not known here, 0)
    first_stamp: int  # the first reading, in its stamp's units (ms, or float bits)
    summary: bytes | None
    special: dict[int, Special]  # (`peek`) the first step, when it is a special one

    @property
    def first_time(self) -> float | None:
        if not self.readings:
            return None
        if self.mode == TIMES_BITS:
            return float(_DOUBLE.unpack(_INT64.pack(self.first_stamp))[0])
        return self.first_stamp / 1000


def peek(data: bytes) -> Head:
    """The head of a record and its first special step when it is the first step (the
    creation): cheap whatever the game's length. (Format 1 has no summary: its head
    alone.)"""
    r = Reader(data)
    head = _read_head(r)
    if head.format == 1 or not r.varint() or r.varint() != 0:
        return head
    return replace(head, special={0: _read_special(r)})


def peek_holders(data: bytes) -> tuple[Head, Special | None, dict[str, int], str | None]:
    """What reads of an archived game's final table need of its record besides its
    summary: the head, the first step when it is a special one (the creation), and the
    seat tokens' and creator's hashes, at its end. The special steps are read on the way
    (the format has no length for them); the choices and the clock readings are skipped,
    not decoded (a blob each, or for the varint encodings one varint each)."""
    r = Reader(data)
    head = _read_head(r)
    special = _read_specials(r)
    r.blob()  # the choices
    count = head.readings
    if head.format == 1:
        count = r.varint()
        if count:
            r.signed()
    if count and head.mode in _PACKED:
        r.blob()
    elif count and head.mode in _WAITS:
        r.blob()
        r.blob()
    elif count:
        r.skip_varints(count - 1)
    tokens, creator = _read_holders(r)
    return head, special.get(0), tokens, creator


def _read_holders(r: Reader) -> tuple[dict[str, int], str | None]:
    """The seat tokens' hashes and the creator's, the record's last fields."""
    tokens = {}
    for _ in range(r.varint()):
        digest = _read_hash(r)
        tokens[digest] = r.varint()
    creator = _read_hash(r) if r.byte() else None
    if not r.done():
        raise FormatError("bytes after the archive's end")
    return tokens, creator


def _read_head(r: Reader) -> Head:
    version = r.byte()
    if version not in READ_VERSIONS:
        raise FormatError(f"archive format {version} is not known here (this code reads "
                          f"{', '.join(map(str, READ_VERSIONS))})")
    r.use_version(version)
    mode = r.byte()
    if mode not in _MODES:
        raise FormatError(f"unknown flags {mode}")
    events = r.varint()
    steps = r.varint()
    seed = _read_hash(r, prefixed=True)
    if version == 1:
        return Head(version, mode, events, steps, seed, 0, 0, None, {})
    readings = r.varint()
    first = r.signed() if readings else 0
    summary = r.blob() or None
    return Head(version, mode, events, steps, seed, readings, first, summary, {})


def _read_specials(r: Reader) -> dict[int, Special]:
    special: dict[int, Special] = {}
    step = -1
    for _ in range(r.varint()):
        step += r.varint() + 1
        special[step] = _read_special(r)
    return special


def _times(deltas: list[int], ms: bool) -> tuple[int, bytes]:
    """The encoding and bytes of the clock readings after the first (their deltas), the
    shortest of: whole milliseconds as varints or packed; the waits' class codes packed
    (times stamped as `stamp_time` stamps them now); packed, their lengths in 4 or 5 bits
    or in the code fitted to them; else the floats' bits as varints."""
    varints = Writer()
    for delta in deltas:
        varints.signed(delta)
    if not ms:
        return TIMES_BITS, varints.bytes()
    if not deltas:
        return TIMES_MS, b""
    found = [(len(varints.out), TIMES_MS, varints.bytes())]
    fitted = FittedCode.fitted(length_symbol(d, ESCAPE) for d in deltas)

    def length_code(code: LengthCode | None, bits: BitWriter) -> LengthCode | None:
        """A mode's code of the lengths (None: the fitted one, which there is not); the
        fitted one described first."""
        if code is None and fitted is not None:
            fitted.describe(bits)
        return code or fitted

    for mode, fixed in _PACKED.items():
        bits = BitWriter()
        code = length_code(fixed, bits)
        if code is None:
            continue
        for delta in deltas:
            write_delta(bits, delta, code)
        packed = Writer()
        packed.blob(bits.bytes())
        found.append((len(packed.out), mode, packed.bytes()))
    if all(d < 0 or is_stamped_wait(d) for d in deltas):
        for mode, fixed in _WAITS.items():
            bits, places = BitWriter(), Digits()
            code = length_code(fixed, bits)
            if code is None:
                continue
            for delta in deltas:
                write_wait(bits, places, delta, code)
            packed = Writer()
            packed.blob(bits.bytes())
            packed.blob(int_bytes(places.number()))
            found.append((len(packed.out), mode, packed.bytes()))
    _size, mode, data = min(found, key=lambda f: f[0])
    return mode, data


def _whole_ms(t: float) -> bool:
    return round(t * 1000) / 1000 == t


def _write_hash(w: Writer, value: str, prefixed: bool = False) -> None:
    """A sha256 or a seed: 32 bytes when it is 64 lowercase hex digits; otherwise (only
    with `prefixed`) its text."""
    compact = compact_hash(value)
    if prefixed:
        w.byte(0 if compact is not None else 1)
        if compact is None:
            w.text(value)
            return
    elif compact is None:
        raise ValueError(f"not a sha256 in hex: {value!r}")
    w.raw(compact)


def compact_hash(value: str) -> bytes | None:
    """A sha256 given as 64 lowercase hex digits, as its 32 bytes (None: not one)."""
    if len(value) != 64 or value != value.lower():
        return None
    try:
        return bytes.fromhex(value)
    except ValueError:
        return None


def _read_hash(r: Reader, prefixed: bool = False) -> str:
    if prefixed and r.byte() == 1:
        return r.text()
    return r.raw(32).hex()


def _write_special(w: Writer, step: Special) -> None:
    match step:
        case ActAs(by=by):
            w.byte(_KIND_ACT_AS)
            w.value(by)
        case EventStep(event=ev, follow=follow) if (fields := _created_fields(ev)):
            w.byte(_KIND_CREATED)
            w.byte(1 if follow else 0)
            w.value(fields)
        case EventStep(event=ev, follow=follow):
            w.byte(_KIND_EVENT)
            w.byte(1 if follow else 0)
            w.value(ev.type)
            w.value(ev.actor)
            w.value(ev.data)
            w.varint(len(ev.private))
            for seat, part in ev.private.items():
                w.signed(seat)
                w.value(part)
        case Verbatim(raw=raw):
            w.byte(_KIND_VERBATIM)
            w.blob(raw)


def _read_special(r: Reader) -> Special:
    kind = r.byte()
    if kind == _KIND_ACT_AS:
        return ActAs(by=r.value())
    if kind == _KIND_EVENT:
        follow = r.byte() == 1
        kind_name = r.value()
        actor = r.value()
        data = r.value()
        private = {}
        for _ in range(r.varint()):
            seat = r.signed()
            private[seat] = r.value()
        return EventStep(Event(type=kind_name, actor=actor, data=data, private=private),
                         follow)
    if kind == _KIND_VERBATIM:
        return Verbatim(r.blob())
    if kind == _KIND_CREATED:
        follow = r.byte() == 1
        fields = r.value()
        if not isinstance(fields, list) or len(fields) != len(_CREATED_KEYS) + 1:
            raise FormatError("a creation step of another shape")
        return EventStep(Event(type="game_created", data=_created_data(fields)), follow)
    raise FormatError(f"unknown kind of step {kind}")


def _created_fields(ev: Event) -> list[Any] | None:
    """`game_created`'s data as kind 5 writes it, when that gives it back exactly."""
    if ev.type != "game_created" or ev.actor is not None or ev.private or \
            tuple(ev.data)[:len(_CREATED_KEYS)] != _CREATED_KEYS:
        return None
    fields: list[Any] = []
    for key in _CREATED_KEYS:
        value = ev.data[key]
        if key == "seats" and isinstance(value, list):
            value = [_short_seat(seat) for seat in value]
        elif key in _SECONDS and type(value) is float and value.is_integer() and \
                abs(value) < 2**53:
            value = int(value)
        fields.append(value)
    fields.append({k: v for k, v in ev.data.items() if k not in _CREATED_KEYS})
    again, original = Writer(), Writer()
    again.value(_created_data(fields))
    original.value(ev.data)
    return fields if again.out == original.out else None


def _created_data(fields: list[Any]) -> dict[str, Any]:
    *values, more = fields
    data: dict[str, Any] = {}
    for key, value in zip(_CREATED_KEYS, values, strict=True):
        if key == "seats" and isinstance(value, list):
            value = [_long_seat(seat) for seat in value]
        elif key in _SECONDS and type(value) is int:
            value = float(value)
        data[key] = value
    if not isinstance(more, dict):
        raise FormatError("a creation step of another shape")
    data.update(more)
    return data


def _short_seat(seat: Any) -> Any:
    if isinstance(seat, dict):
        if tuple(seat) == ("kind", "level") and seat["kind"] == "bot" and \
                type(seat["level"]) is str:
            return seat["level"]
        if tuple(seat) == ("kind",) and seat["kind"] == "human":
            return None
    return seat


def _long_seat(seat: Any) -> Any:
    if type(seat) is str:
        return {"kind": "bot", "level": seat}
    if seat is None:
        return {"kind": "human"}
    return seat
