"""The tests' clock: the service, the stores and the workers take a clock (a function that
returns the time), so a test moves time instead of waiting for it."""

from __future__ import annotations

import time


class Clock:
    """Fixed at `now`, moved only when told (`advance`, or `now` set); without `now`, the
    wall clock's time moved forward at will (deadlines pass without waiting for them,
    while Redis's own expiries still see real time go by)."""

    def __init__(self, now: float | None = None) -> None:
        self.now = now
        self.offset = 0.0

    def __call__(self) -> float:
        return self.now if self.now is not None else time.time() + self.offset

    def advance(self, seconds: float) -> None:
        if self.now is not None:
            self.now += seconds
        else:
            self.offset += seconds
