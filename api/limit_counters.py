"""The counters of the rate limits (`api.rate_limits`): one algorithm, the sliding window
counter, kept in one of two places with the same interface (`check` → `Verdict`).

- `SlidingCounts`: in this web process's memory, for the rules checked on every move. A
  move is the most frequent request; checking its two rules (`act` per token,
  `act_address` per address, two windows each) in Redis cost three scripts and about
  0.5 ms of a web worker per request (`docs/benchmarks.md`); here it costs a few
  microseconds, no round trip (`limits`' own in-memory storage cost 150 µs a move's
  check against this one's 10, measured side by side on the busy 2-core machine). The
  error is bounded: each web process counts alone,
  so with N web processes a client whose requests spread over all of them gets at most N
  times a limit before a 429 (a client on one keep-alive connection talks to one process
  and gets the limit itself).
- `RedisCounts`: in the games' Redis (or the Redis Cluster), through the `limits`
  library's sliding window counter, exact across web processes, for the rules that guard
  rarer, costlier things (creating games, joining, registering, webhooks, refused tokens).

The algorithm: the count of the current fixed window plus the previous window's, weighted
by how much of it the sliding window still covers. In memory a request is first tested
against every window of its rules and counted in all of them only if none refuses (a
refused request costs no budget); in Redis it is counted window by window (a round trip
each) and stops at the first that refuses.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from limits import RateLimitItem, RateLimitItemPerSecond, parse_many
from limits.storage import Storage
from limits.strategies import SlidingWindowCounterRateLimiter

# Counters kept at most; past it, those whose windows are over are dropped at once.
MAX_COUNTERS = 100_000


@dataclass(frozen=True)
class Window:
    """One `<amount>/<period>` of a rule, e.g. 10/second."""

    amount: int
    seconds: int

    @classmethod
    def parse(cls, limit: str) -> list[Window]:
        items: list[RateLimitItem] = parse_many(limit)
        return [cls(item.amount, item.get_expiry()) for item in items]

    @property
    def item(self) -> RateLimitItem:
        """The window as the `limits` library's item (`amount` per `seconds` seconds)."""
        return RateLimitItemPerSecond(self.amount, self.seconds)


@dataclass(frozen=True)
class Verdict:
    """The window nearest to refusing, after the request (or the one that refused it)."""

    refused: bool
    window: Window
    remaining: int
    reset_s: int  # seconds until the window's count next drops
    key: str  # the counter's (`<rule>:<who>`)


class _Counter:
    __slots__ = ("current", "previous", "started")

    def __init__(self, started: float) -> None:
        self.started = started  # when the current fixed window began
        self.previous = 0
        self.current = 0


class SlidingCounts:
    """Counts per (key, window) in this process; thread-safe (one lock, held for
    microseconds)."""

    def __init__(self, clock: Callable[[], float] = time.time,
                 max_counters: int = MAX_COUNTERS) -> None:
        self.clock = clock
        self.max_counters = max_counters
        self._counters: dict[tuple[str, Window], _Counter] = {}
        self._lock = threading.Lock()

    def check(self, checks: Sequence[tuple[str, Sequence[Window]]]) -> Verdict:
        """Test `(key, windows)` pairs and count the request in all of them unless one
        refuses; the verdict names the refusing window, else the one with least left."""
        now = self.clock()
        with self._lock:
            counters = [(key, window, self._counter(key, window, now))
                        for key, windows in checks for window in windows]
            nearest: Verdict | None = None
            for key, window, counter in counters:
                used = _weighted(counter, window, now)
                if used + 1 > window.amount:
                    return Verdict(True, window, 0, _reset_s(counter, window, now), key)
                left = window.amount - math.floor(used) - 1
                if nearest is None or left < nearest.remaining:
                    nearest = Verdict(False, window, left, _reset_s(counter, window, now),
                                      key)
            for _key, _window, counter in counters:
                counter.current += 1
        assert nearest is not None
        return nearest

    def _counter(self, key: str, window: Window, now: float) -> _Counter:
        counter = self._counters.get((key, window))
        if counter is None:
            if len(self._counters) >= self.max_counters:
                self._prune(now)
            counter = self._counters[(key, window)] = _Counter(_start(now, window))
            return counter
        started = _start(now, window)
        if started != counter.started:  # a new fixed window: roll the counts over
            counter.previous = counter.current if started - counter.started == \
                window.seconds else 0
            counter.current = 0
            counter.started = started
        return counter

    def _prune(self, now: float) -> None:
        """Drop the counters whose windows no longer count anything; if that is not
        enough, the oldest half (each counted less than a window ago: an error in the
        client's favour, as a process restart would make)."""
        over = [k for k, c in self._counters.items() if now - c.started >= 2 * k[1].seconds]
        for k in over:
            del self._counters[k]
        if len(self._counters) >= self.max_counters:
            for k in list(self._counters)[: len(self._counters) // 2]:
                del self._counters[k]

    def __len__(self) -> int:
        return len(self._counters)


def _start(now: float, window: Window) -> float:
    return now - now % window.seconds


def _weighted(counter: _Counter, window: Window, now: float) -> float:
    elapsed = (now - counter.started) / window.seconds
    return counter.previous * (1.0 - elapsed) + counter.current


def _reset_s(counter: _Counter, window: Window, now: float) -> int:
    """Seconds until the count drops: the current fixed window's end."""
    return max(1, math.ceil(counter.started + window.seconds - now))


class RedisCounts:
    """Counts per (key, window) in Redis (a server, or a cluster: each counter's keys share a
    hash tag) through the `limits` library's sliding window counter."""

    def __init__(self, storage: Storage) -> None:
        self.strategy = SlidingWindowCounterRateLimiter(storage)

    def check(self, checks: Sequence[tuple[str, Sequence[Window]]]) -> Verdict:
        """Count the request in each `(key, windows)` pair's windows in turn, up to the
        first that refuses (which names the verdict); else the one with least left."""
        nearest: Verdict | None = None
        for key, windows in checks:
            for window in windows:
                if not self.strategy.hit(window.item, key):
                    return self._verdict(True, window, key)
                verdict = self._verdict(False, window, key)
                if nearest is None or verdict.remaining < nearest.remaining:
                    nearest = verdict
        assert nearest is not None
        return nearest

    def refused(self, key: str, windows: Sequence[Window]) -> Verdict | None:
        """The first of `windows` that would refuse one more under `key` (nothing
        counted), else None."""
        for window in windows:
            if not self.strategy.test(window.item, key):
                return self._verdict(True, window, key)
        return None

    def count(self, key: str, windows: Sequence[Window]) -> None:
        for window in windows:
            self.strategy.hit(window.item, key)

    def _verdict(self, refused: bool, window: Window, key: str) -> Verdict:
        stats = self.strategy.get_window_stats(window.item, key)
        reset_s = max(1, math.ceil(stats.reset_time - time.time()))
        return Verdict(refused, window, 0 if refused else stats.remaining, reset_s, key)
