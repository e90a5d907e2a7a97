"""Determinizations of a seat's view: full states consistent with what the seat has seen
(`game.determinize`: the hidden cards are a sample, never the truth).

With a kit that can `weigh`, samples are drawn from a pool in proportion to how well each
explains the other seats' public choices, so the search reads bluffs; a pool in which
nothing agrees falls back to plain samples.
"""

from __future__ import annotations

import random
from typing import Any

from domain.bots.search_terms import Kit


class Sampler:
    """Determinizations of the seat's view; weighted by the kit when it can weigh."""

    def __init__(self, game: Any, view: dict[str, Any], seat: int, kit: Kit,
                 rng: random.Random) -> None:
        self.game, self.view, self.seat, self.kit, self.rng = game, view, seat, kit, rng
        self.count = 0
        self._pool: list[Any] = []
        self._cum: list[float] = []

    def draw(self) -> Any:
        self.count += 1
        if self.kit.weigh is None:
            return self.game.determinize(self.view, self.seat, self.rng)
        if not self._pool:
            self._fill()
        r = self.rng.random() * self._cum[-1]
        lo, hi = 0, len(self._cum) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if self._cum[mid] < r:
                lo = mid + 1
            else:
                hi = mid
        return self._pool[lo]

    def _fill(self) -> None:
        assert self.kit.weigh is not None
        total = 0.0
        for _ in range(self.kit.pool):
            sample = self.game.determinize(self.view, self.seat, self.rng)
            w = max(0.0, float(self.kit.weigh(self.game, sample, self.view, self.seat)))
            self._pool.append(sample)
            total += w
            self._cum.append(total)
        if total <= 0.0:  # nothing agrees: fall back to unweighted samples
            self._cum = [float(i + 1) for i in range(len(self._pool))]
