"""Seeded randomness. Every game has a secret seed, committed as sha256(seed) when it is
created and revealed when it ends; each decision draws from an RNG derived from the seed
and the version it is taken at, so a retried decision draws the same cards. Replays never
use the RNG: the outcomes are in the events."""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import MutableSequence
from typing import Any


def new_seed() -> str:
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


def rng_for(seed: str, version: int) -> random.Random:
    """`random.Random(int(sha256("<seed>:<version>")))`, made at its first draw."""
    return _SeededOnUse(seed, version)


def _seed_of(seed: str, version: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{seed}:{version}".encode()).digest(), "big")


def drew(rng: random.Random) -> bool:
    """Did a decision draw from `rng` (one of `rng_for`)? (True when it cannot tell.)"""
    return not isinstance(rng, _SeededOnUse) or rng._pending is None


class _SeededOnUse(random.Random):
    """`random.Random(_seed_of(seed, version))`, the same draws, but its seed computed and
    set at the first draw: seeding the Mersenne Twister costs ~16 µs and the seed's hash
    ~0.6 µs, and most decisions draw nothing (a card played), while replaying an archived
    game takes one for every move (`domain.archive`). Once seeded
    it becomes a plain `random.Random` (its class is swapped: same layout, same state), so
    that the draws after the first cost what Random's own do; a shuffle (a deal) is seeded
    before it starts, so that it runs at Random's speed (a deck of 104: ~12 µs, not ~33
    through these methods). A bound method taken before the swap still draws the same."""

    # (Random's own __init__ would seed now, and its C constructor seeds only from a lone
    # argument: given these two it leaves the generator to the first draw, which seeds it
    # whole in any case.)
    def __init__(self, seed: str, version: int) -> None:
        self._pending: tuple[str, int] | None = (seed, version)
        self.gauss_next = None

    def random(self) -> float:
        _first_draw(self)
        return random.Random.random(self)

    def getrandbits(self, k: int) -> int:
        _first_draw(self)
        return random.Random.getrandbits(self, k)

    def shuffle(self, x: MutableSequence[Any]) -> None:
        if len(x) > 1:  # (a shorter one draws nothing)
            _first_draw(self)
        random.Random.shuffle(self, x)

    def getstate(self) -> tuple[object, ...]:
        _first_draw(self)
        return random.Random.getstate(self)

    def setstate(self, state: tuple[object, ...]) -> None:
        self._pending = None
        self.__class__ = random.Random  # type: ignore[assignment]
        random.Random.setstate(self, state)

    def seed(self, a: object = None, version: int = 2) -> None:  # type: ignore[override]
        self._pending = None
        self.__class__ = random.Random  # type: ignore[assignment]
        random.Random.seed(self, a, version)


def _first_draw(rng: random.Random) -> None:
    """Seed `rng` (a `_SeededOnUse`) if it is not yet, and make it a plain Random."""
    pending = rng.__dict__.get("_pending")
    if pending is not None:
        rng._pending = None  # type: ignore[attr-defined]
        random.Random.seed(rng, _seed_of(*pending))
        rng.__class__ = random.Random  # type: ignore[assignment]
