"""A player's clock settings: whether their forced moves play themselves, and their
vacations (a yearly allowance of days, counted once across all their games).

A vacation starts now and lasts whole days: at least one, at most `max_days` at once, and
no more than the days left of the year's `allowance` (the year of its start, in UTC; the
count starts again each year). Every day begun is used: ending a vacation early gives back
only the whole days not begun. One vacation at a time.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import msgspec

from domain.clocks import DAY_S


class ClockSettings(msgspec.Struct, frozen=True, kw_only=True):
    """What the store keeps of a player's clocks (all zero for a player who never set
    anything)."""

    auto_forced: bool = False
    year: int = 0  # the year `used` counts
    used: int = 0  # vacation days used that year
    start: float = 0.0  # the last vacation's start and end (its end in the past: over)
    until: float = 0.0

    def on_vacation(self, now: float) -> bool:
        return self.until > now

    def used_in(self, year: int) -> int:
        return self.used if self.year == year else 0


@dataclass(frozen=True)
class VacationPolicy:
    allowance_days: int = 30  # a year's vacation days
    max_days: int = 14  # at most this many at once


def year_of(at: float) -> int:
    return time.gmtime(at).tm_year


def days_given_back(until: float, now: float) -> int:
    """The whole days of a vacation ending at `until` not begun at `now`."""
    return max(0, math.floor((until - now) / DAY_S))
