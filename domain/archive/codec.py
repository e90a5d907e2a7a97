"""The archive's bytes: varints, a mixed-radix number for the choices, and a compact,
type-preserving encoding of JSON-like values (an event's data, an action's body).

- A varint is an unsigned integer in 7-bit groups, least significant first (LEB128); a
  signed one is zigzagged first (0, -1, 1, -2, … → 0, 1, 2, 3, …).
- The choices of a game (which seat of those who may act, which of the legal actions) are
  digits of one number in a mixed radix: the digit `i` of `n` possible values multiplies
  what follows by `n`. A choice among one costs nothing, and the whole number takes
  `ceil(sum(log2 n))` bits: the entropy of choosing uniformly, which no fixed code beats
  without a model of the players.
- A value is a tag byte and its payload (see `_T_*`): None, booleans, integers (zigzag
  varint), floats (8 bytes, exact; from format version 2, a float that is a whole number
  as its zigzag varint: a score of 24.0 in two bytes), strings (a varint index into
  `VOCABULARY` when they are one of its words, else their UTF-8 bytes), lists, maps, and
  the two placeholders of `game_created` (`DERIVED`, `Defaults`). Decoding gives back the
  same Python types in the same order, so an event re-encoded to JSON is byte for byte
  the one stored.
"""

from __future__ import annotations

import functools
import struct
from dataclasses import dataclass
from typing import Any, Protocol

from domain.archive.vocabulary import VOCABULARY
from domain.service.folding import LAST_WAIT_UNIT, WAIT_UNITS, wait_unit

_WORD_INDEX = {word: i for i, word in enumerate(VOCABULARY)}
_DOUBLE = struct.Struct("<d")

# Value tags (the format's: never renumber; add new ones at the end).
_T_NONE, _T_FALSE, _T_TRUE, _T_INT, _T_FLOAT, _T_STR, _T_WORD, _T_LIST, _T_MAP = range(9)
_T_DERIVED, _T_DEFAULTS = 9, 10
# Integers 0..SMALL_INTS-1 are one byte: the tag `small` + the integer. Format version 1:
# small = 11; version 2: small = 16, with tag 11 a float that is a whole number (its
# zigzag varint) and 12-15 free for later.
_T_WHOLE = 11
_SMALL = {1: 11, 2: 16}
_T_SMALL = _SMALL[2]
SMALL_INTS = 256 - _T_SMALL
_WHOLE_LIMIT = 2**53


class FormatError(ValueError):
    """Bytes that are not an archive this code can read."""


class _Derived:
    """A value left out because the expansion computes it (the seed's commitment)."""

    def __repr__(self) -> str:
        return "DERIVED"


DERIVED = _Derived()


class Defaults(dict[str, Any]):
    """Options stored as their difference from the game's defaults (resolved again on
    expansion)."""


class Writer:
    def __init__(self) -> None:
        self.out = bytearray()

    def byte(self, value: int) -> None:
        self.out.append(value)

    def raw(self, data: bytes) -> None:
        self.out += data

    def varint(self, value: int) -> None:
        if value < 0:
            raise ValueError("a varint is not negative")
        while value >= 0x80:
            self.out.append((value & 0x7F) | 0x80)
            value >>= 7
        self.out.append(value)

    def signed(self, value: int) -> None:
        self.varint(value * 2 if value >= 0 else -value * 2 - 1)

    def blob(self, data: bytes) -> None:
        self.varint(len(data))
        self.out += data

    def text(self, value: str) -> None:
        self.blob(value.encode())

    def value(self, value: Any) -> None:
        """A JSON-like value (see the module)."""
        out = self.out
        if value is None:
            out.append(_T_NONE)
        elif value is True:
            out.append(_T_TRUE)
        elif value is False:
            out.append(_T_FALSE)
        elif type(value) is int:
            if 0 <= value < SMALL_INTS:
                out.append(_T_SMALL + value)
            else:
                out.append(_T_INT)
                self.signed(value)
        elif type(value) is float:
            if value.is_integer() and abs(value) < _WHOLE_LIMIT and \
                    (value != 0.0 or _DOUBLE.pack(value)[-1] == 0):  # (not -0.0)
                out.append(_T_WHOLE)
                self.signed(int(value))
            else:
                out.append(_T_FLOAT)
                out += _DOUBLE.pack(value)
        elif type(value) is str:
            index = _WORD_INDEX.get(value)
            if index is not None:
                out.append(_T_WORD)
                self.varint(index)
            else:
                out.append(_T_STR)
                self.text(value)
        elif value is DERIVED:
            out.append(_T_DERIVED)
        elif isinstance(value, Defaults):
            out.append(_T_DEFAULTS)
            self._map(value)
        elif isinstance(value, dict):
            out.append(_T_MAP)
            self._map(value)
        elif isinstance(value, list | tuple):
            out.append(_T_LIST)
            self.varint(len(value))
            for item in value:
                self.value(item)
        else:
            raise TypeError(f"cannot archive a value of type {type(value).__name__}")

    def _map(self, value: dict[Any, Any]) -> None:
        self.varint(len(value))
        for key, item in value.items():
            if type(key) is not str:
                raise TypeError(f"cannot archive a map key of type {type(key).__name__}")
            self.value(key)
            self.value(item)

    def bytes(self) -> bytes:
        return bytes(self.out)


class Reader:
    """Reads what `Writer` wrote; values as format version `version` wrote them (the
    record's first byte says which: `use_version`)."""

    def __init__(self, data: bytes, at: int = 0, version: int = 2) -> None:
        self.data = data
        self.at = at
        self.use_version(version)

    def use_version(self, version: int) -> None:
        self.small = _SMALL[version]
        self.whole = version >= 2

    def byte(self) -> int:
        try:
            value = self.data[self.at]
        except IndexError:
            raise FormatError("the archive ends early") from None
        self.at += 1
        return value

    def raw(self, n: int) -> bytes:
        if self.at + n > len(self.data):
            raise FormatError("the archive ends early")
        found = self.data[self.at:self.at + n]
        self.at += n
        return found

    def varint(self) -> int:
        data, at = self.data, self.at
        value = shift = 0
        try:
            while True:
                b = data[at]
                at += 1
                value |= (b & 0x7F) << shift
                if b < 0x80:
                    self.at = at
                    return value
                shift += 7
                if shift > 70:
                    raise FormatError("a varint runs on")
        except IndexError:
            raise FormatError("the archive ends early") from None

    def skip_varints(self, n: int) -> None:
        """Go past `n` varints without reading their values."""
        data, at = self.data, self.at
        try:
            while n:
                if data[at] < 0x80:
                    n -= 1
                at += 1
        except IndexError:
            raise FormatError("the archive ends early") from None
        self.at = at

    def signed(self) -> int:
        n = self.varint()
        return n >> 1 if not n & 1 else -(n >> 1) - 1

    def blob(self) -> bytes:
        return self.raw(self.varint())

    def text(self) -> str:
        return self.blob().decode()

    def value(self) -> Any:
        tag = self.byte()
        if tag >= self.small:
            return tag - self.small
        if tag == _T_WHOLE and self.whole:
            return float(self.signed())
        if tag == _T_NONE:
            return None
        if tag == _T_TRUE:
            return True
        if tag == _T_FALSE:
            return False
        if tag == _T_INT:
            return self.signed()
        if tag == _T_FLOAT:
            return _DOUBLE.unpack(self.raw(8))[0]
        if tag == _T_STR:
            return self.text()
        if tag == _T_WORD:
            index = self.varint()
            if index >= len(VOCABULARY):
                raise FormatError(f"no word {index} in the vocabulary")
            return VOCABULARY[index]
        if tag == _T_LIST:
            return [self.value() for _ in range(self.varint())]
        if tag == _T_MAP:
            return self._map({})
        if tag == _T_DERIVED:
            return DERIVED
        if tag == _T_DEFAULTS:
            return self._map(Defaults())
        raise FormatError(f"unknown value tag {tag}")

    def _map(self, into: dict[str, Any]) -> dict[str, Any]:
        for _ in range(self.varint()):
            key = self.value()
            into[key] = self.value()
        return into

    def done(self) -> bool:
        return self.at >= len(self.data)


class Digits:
    """Writes the choices: (digit, radix) pairs, in the order they are made."""

    def __init__(self) -> None:
        self.pairs: list[tuple[int, int]] = []

    def add(self, digit: int, radix: int) -> None:
        if not 0 <= digit < radix:
            raise ValueError(f"digit {digit} out of radix {radix}")
        if radix > 1:
            self.pairs.append((digit, radix))

    def number(self) -> int:
        n = 0
        for digit, radix in reversed(self.pairs):
            n = n * radix + digit
        return n


class DigitReader:
    """Reads the choices back, in the same order (each needs its radix, which the game's
    state at that point gives)."""

    def __init__(self, number: int) -> None:
        self.n = number

    def take(self, radix: int) -> int:
        if radix <= 1:
            return 0
        self.n, digit = divmod(self.n, radix)
        return digit


def int_bytes(n: int) -> bytes:
    return n.to_bytes((n.bit_length() + 7) // 8, "little")


def bytes_int(data: bytes) -> int:
    return int.from_bytes(data, "little")


class BitWriter:
    """Bits, most significant first, packed into bytes (the last one padded with zeros)."""

    def __init__(self) -> None:
        self.acc = 0
        self.size = 0

    def bits(self, value: int, n: int) -> None:
        if n:
            self.acc = (self.acc << n) | (value & ((1 << n) - 1))
            self.size += n

    def bytes(self) -> bytes:
        pad = -self.size % 8
        return (self.acc << pad).to_bytes((self.size + pad) // 8, "big")


class BitReader:
    def __init__(self, data: bytes) -> None:
        self.acc = int.from_bytes(data, "big")
        self.size = len(data) * 8
        self.at = 0

    def bits(self, n: int) -> int:
        if self.at + n > self.size:
            raise FormatError("the packed bits end early")
        self.at += n
        return (self.acc >> (self.size - self.at)) & ((1 << n) - 1)

    def peek(self, n: int) -> int:
        """The next `n` bits, not taken (zeros past the end)."""
        left = self.size - self.at
        if n <= left:
            return (self.acc >> (left - n)) & ((1 << n) - 1)
        return (self.acc & ((1 << left) - 1)) << (n - left)

    def skip(self, n: int) -> None:
        if self.at + n > self.size:
            raise FormatError("the packed bits end early")
        self.at += n


# A packed delta: the code of its bit length L (`LengthCode`: `width` bits, 4 or 5, or a
# code fitted to the record's lengths, `domain.archive.lengths`) then its L - 1 bits below
# the top one; for L at the code's escape or beyond, the escape then 6 more bits,
# L - escape for a longer one (then its bits as before), 63 for a negative one (then its
# zigzag varint, a byte at a time).
_NEGATIVE = 63


class LengthCode(Protocol):
    """How a packed delta's bit length is written: symbols 0 to `escape` (the escape:
    the length is longer, or the delta negative)."""

    @property
    def escape(self) -> int: ...

    def write(self, out: BitWriter, symbol: int) -> None: ...

    def read(self, bits: BitReader) -> int: ...


@dataclass(frozen=True)
class FixedWidth:
    """Every length in `width` bits."""

    width: int

    @property
    def escape(self) -> int:
        return (1 << self.width) - 1

    def write(self, out: BitWriter, symbol: int) -> None:
        out.bits(symbol, self.width)

    def read(self, bits: BitReader) -> int:
        return bits.bits(self.width)


FOUR_BITS, FIVE_BITS = FixedWidth(4), FixedWidth(5)


def length_symbol(delta: int, escape: int) -> int:
    """The symbol of `delta`'s length in a code escaping at `escape`."""
    return escape if delta < 0 else min(delta.bit_length(), escape)


def _write_length(out: BitWriter, length: int, code: LengthCode) -> None:
    """A bit length below `escape + _NEGATIVE` (escaped beyond: 6 more bits)."""
    escape = code.escape
    if length < escape:
        code.write(out, length)
    else:
        code.write(out, escape)
        out.bits(length - escape, 6)


def _read_length(bits: BitReader, code: LengthCode) -> tuple[int, int | None]:
    """What `_write_length` wrote, or (0, the value) of a delta escaped as a zigzag
    varint (negative, or too long)."""
    escape = code.escape
    length = code.read(bits)
    if length != escape:
        return length, None
    more = bits.bits(6)
    if more != _NEGATIVE:
        return escape + more, None
    value = shift = 0
    while True:
        byte = bits.bits(8)
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return 0, value >> 1 if not value & 1 else -(value >> 1) - 1
        shift += 7


def write_delta(out: BitWriter, delta: int, code: LengthCode = FOUR_BITS) -> None:
    length = delta.bit_length()
    if delta < 0 or length >= code.escape + _NEGATIVE:
        code.write(out, code.escape)
        out.bits(_NEGATIVE, 6)
        w = Writer()
        w.signed(delta)
        for byte in w.out:
            out.bits(byte, 8)
        return
    _write_length(out, length, code)
    if length > 1:
        out.bits(delta, length - 1)


def read_delta(bits: BitReader, code: LengthCode = FOUR_BITS) -> int:
    length, escaped = _read_length(bits, code)
    if escaped is not None:
        return escaped
    if length <= 1:
        return length
    return (1 << (length - 1)) | bits.bits(length - 1)


# Waits as `domain.service.folding.stamp_time` stamps them: every millisecond below a
# second, every 10 ms below 10 s, every 100 ms below 100 s, every second beyond. A wait is
# written as its bit length L (as a packed delta's) and its place among the waits a stamp
# can be with that length (a digit of a mixed-radix number): the coarser units cost their
# bits no more (3.3 bits less a reading after a second's wait, 10 after an hour's).
_SEGMENTS, _LAST_UNIT = WAIT_UNITS, LAST_WAIT_UNIT


def is_stamped_wait(delta: int) -> bool:
    """Could `delta` (ms, >= 0) be the wait between two stamps?"""
    return delta % wait_unit(delta) == 0


def waits_below(x: int) -> int:
    """How many stamped waits there are in [0, x)."""
    n = start = 0
    for end, unit in (*_SEGMENTS, (x, _LAST_UNIT)):
        if x <= start:
            break
        n += (min(x, end) - start + unit - 1) // unit
        start = end
    return n


def nth_wait(n: int) -> int:
    """The stamped wait with `n` others below it."""
    start = 0
    for end, unit in _SEGMENTS:
        count = (end - start) // unit
        if n < count:
            return start + n * unit
        n -= count
        start = end
    return start + n * _LAST_UNIT


@functools.cache
def _waits_of_length(length: int) -> tuple[int, int]:
    """The stamped waits of bit length `length` (> 1): those below them, and the first
    above (a pure function of the length, asked for at every wait: remembered)."""
    return waits_below(1 << (length - 1)), waits_below(1 << length)


def write_wait(bits: BitWriter, digits: Digits, delta: int, code: LengthCode) -> None:
    """A wait (or a negative delta, as `write_delta` writes it)."""
    length = delta.bit_length()
    if delta < 0 or length >= code.escape + _NEGATIVE:
        write_delta(bits, delta, code)
        return
    _write_length(bits, length, code)
    if length > 1:
        low, high = _waits_of_length(length)
        digits.add(waits_below(delta) - low, high - low)


def read_wait(bits: BitReader, digits: DigitReader, code: LengthCode) -> int:
    length, escaped = _read_length(bits, code)
    if escaped is not None:
        return escaped
    if length <= 1:
        return length
    low, high = _waits_of_length(length)
    return nth_wait(low + digits.take(high - low))
