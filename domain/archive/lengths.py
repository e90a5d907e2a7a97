"""A code of the bit lengths of a record's clock deltas, fitted to that record.

Each packed delta (`codec.write_delta`, `codec.write_wait`) starts with its bit length,
in 4 or 5 bits (`codec.FixedWidth`). The waits of one game are alike: bots playing each
other at once wait a millisecond or two (lengths 0 to 2), people by post minutes to days,
so a few lengths make most of a record's. `FittedCode` is a canonical Huffman code of the
record's own lengths: a common length costs a bit or two, at the price of the code's
description, written before the bits it codes:

    5 bits   the first symbol the description covers
    5 bits   how many it covers, less one (n - 1)
    n x 4    when n > 1, each symbol's code length (0: not used; at most 12 bits)

A description of one symbol means every length is that one, written in no bits at all.
Symbols are lengths 0 to 31, 31 being the escape (`codec._write_length`: 6 more bits).
"""

from __future__ import annotations

import functools
import heapq
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from domain.archive.codec import BitReader, BitWriter, FormatError

ESCAPE = 31
MAX_CODE_BITS = 12  # (a longer code is not offered; its decoding table would be large)


@dataclass(frozen=True)
class FittedCode:
    """A prefix code of the symbols from `lowest`: `lengths[i]` bits for `lowest + i`
    (0: not used; a single symbol: no bits)."""

    lowest: int
    lengths: tuple[int, ...]

    @property
    def escape(self) -> int:
        return ESCAPE

    @classmethod
    def fitted(cls, symbols: Iterable[int]) -> FittedCode | None:
        """The code that writes `symbols` in the fewest bits; None when there are none,
        or it would need codes longer than `MAX_CODE_BITS`."""
        counts = Counter(symbols)
        if not counts:
            return None
        if len(counts) == 1:
            return cls(next(iter(counts)), (0,))
        bits = _huffman_lengths(counts)
        if max(bits.values()) > MAX_CODE_BITS:
            return None
        lowest = min(counts)
        return cls(lowest, tuple(bits.get(s, 0) for s in range(lowest, max(counts) + 1)))

    def describe(self, out: BitWriter) -> None:
        out.bits(self.lowest, 5)
        out.bits(len(self.lengths) - 1, 5)
        if len(self.lengths) > 1:
            for n in self.lengths:
                out.bits(n, 4)

    @classmethod
    def read_description(cls, bits: BitReader) -> FittedCode:
        lowest, count = bits.bits(5), bits.bits(5) + 1
        if lowest + count - 1 > ESCAPE:
            raise FormatError("a length code past its alphabet")
        if count == 1:
            return cls(lowest, (0,))
        lengths = tuple(bits.bits(4) for _ in range(count))
        # A Huffman code of two symbols or more is complete: its codes fill the space.
        if max(lengths) > MAX_CODE_BITS or \
                sum(1 << (MAX_CODE_BITS - n) for n in lengths if n) != 1 << MAX_CODE_BITS:
            raise FormatError("a length code that is not a complete prefix code")
        return cls(lowest, lengths)

    def write(self, out: BitWriter, symbol: int) -> None:
        if len(self.lengths) > 1:
            code, n = self._codes[symbol]
            out.bits(code, n)
        elif symbol != self.lowest:
            raise KeyError(symbol)

    def read(self, bits: BitReader) -> int:
        if len(self.lengths) == 1:
            return self.lowest
        width, table = self._table
        symbol, n = table[bits.peek(width)]
        bits.skip(n)
        return symbol

    # (looked up at every length: kept on the code, shared by equal codes)
    @functools.cached_property
    def _codes(self) -> dict[int, tuple[int, int]]:
        return _codes(self.lowest, self.lengths)

    @functools.cached_property
    def _table(self) -> tuple[int, list[tuple[int, int]]]:
        return _table(self.lowest, self.lengths)


def _huffman_lengths(counts: Counter[int]) -> dict[int, int]:
    """Each symbol's code length in a Huffman code of these counts (ties: lower symbols
    first, so the same counts give the same code)."""
    heap = [(count, n, (symbol,)) for n, (symbol, count) in enumerate(sorted(counts.items()))]
    heapq.heapify(heap)
    depth = dict.fromkeys(counts, 0)
    made = len(heap)
    while len(heap) > 1:
        a_count, _, a = heapq.heappop(heap)
        b_count, _, b = heapq.heappop(heap)
        for symbol in a + b:
            depth[symbol] += 1
        heapq.heappush(heap, (a_count + b_count, made, a + b))
        made += 1
    return depth


@functools.lru_cache(maxsize=256)
def _codes(lowest: int, lengths: tuple[int, ...]) -> dict[int, tuple[int, int]]:
    """symbol -> (its code, its length): canonical (shorter codes first, then by
    symbol), so the lengths alone describe the code."""
    used = sorted((n, lowest + i) for i, n in enumerate(lengths) if n)
    codes = {}
    code, previous = 0, used[0][0]
    for n, symbol in used:
        code <<= n - previous
        codes[symbol] = (code, n)
        code += 1
        previous = n
    return codes


@functools.lru_cache(maxsize=256)
def _table(lowest: int, lengths: tuple[int, ...]) -> tuple[int, list[tuple[int, int]]]:
    """The decoding table: the next `width` bits -> (symbol, its code's length)."""
    width = max(lengths)
    table: list[tuple[int, int]] = [(0, 0)] * (1 << width)
    for symbol, (code, n) in _codes(lowest, lengths).items():
        start = code << (width - n)
        table[start:start + (1 << (width - n))] = [(symbol, n)] * (1 << (width - n))
    return width, table
