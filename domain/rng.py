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
    return random.Random(int.from_bytes(digest, "big"))
