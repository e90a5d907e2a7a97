"""Seeded randomness. Every game has a secret seed, committed as sha256(seed) when it is
created and revealed when it ends; each decision draws from an RNG derived from the seed
and the version it is taken at, so a retried decision draws the same cards. Replays never
use the RNG: the outcomes are in the events."""

from __future__ import annotations

import hashlib
import random
import secrets


def new_seed() -> str:
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


def rng_for(seed: str, version: int) -> random.Random:
    digest = hashlib.sha256(f"{seed}:{version}".encode()).digest()
    return _SeededOnUse(int.from_bytes(digest, "big"))


def drew(rng: random.Random) -> bool:
    """Did a decision draw from `rng` (one of `rng_for`)? (True when it cannot tell.)"""
    return not isinstance(rng, _SeededOnUse) or rng._pending is None


class _SeededOnUse(random.Random):
    """`random.Random(seed)`, the same draws, but seeded at the first draw: seeding the
    Mersenne Twister costs ~16 µs, and most decisions draw nothing (a card played), while
    replaying an archived game takes one for every move (`domain.archive`)."""

    def __init__(self, seed: int) -> None:  # (Random's own __init__ would seed now)
        self._pending: int | None = seed
        self.gauss_next = None

    def _seeded(self) -> None:
        if self._pending is not None:
            pending, self._pending = self._pending, None
            super().seed(pending)

    def random(self) -> float:
        self._seeded()
        return super().random()

    def getrandbits(self, k: int) -> int:
        self._seeded()
        return super().getrandbits(k)

    def getstate(self) -> tuple[object, ...]:
        self._seeded()
        return super().getstate()

    def setstate(self, state: tuple[object, ...]) -> None:
        self._pending = None
        super().setstate(state)

    def seed(self, a: object = None, version: int = 2) -> None:  # type: ignore[override]
        self._pending = None
        super().seed(a, version)
