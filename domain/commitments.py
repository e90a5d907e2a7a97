"""Hiding commitments to the private parts of events.

A plain hash of a hidden part hides nothing: a hand of a few cards, a load of 0-30 or a
peeked value has few possible values, and whoever holds the hash tries them all. So the
chain of event hashes covers each private part only through

    commitment = HMAC-SHA256(key, "<seq>:<seat>:" + canonical JSON of the part)

(hex). `key` is derived from the game's secret seed, which nobody outside the server holds
until the game ends: the seed is committed at creation (`seed_hash` = sha256 of the seed)
and revealed in `game_finished`. Until then a commitment says nothing about its part (HMAC
is a pseudo-random function of its key); afterwards anyone derives the key from the
revealed seed and checks every part against its commitment. The seq and the seat are
inside the message, so two equal parts (two seats peeking at the same value) have
unrelated commitments.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
from typing import Any

import msgspec

# Separates the commitment key from the seed's other uses (the RNG, `seed_hash`).
_KEY_LABEL = b"donkeypost commitment key v1"
_canonical = msgspec.json.Encoder(order="sorted")


@functools.lru_cache(maxsize=4096)
def commitment_key(seed: str) -> bytes:
    """The game's commitment key: HMAC-SHA256(seed, label) (remembered for the games this
    process met lately: every batch with a private part asks for it)."""
    return hmac.new(seed.encode(), _KEY_LABEL, hashlib.sha256).digest()


def canonical_part(part: Any) -> bytes:
    """A private part as committed: JSON, keys sorted, no whitespace."""
    return _canonical.encode(msgspec.to_builtins(part, str_keys=True))


def commit(key: bytes, seq: int, seat: int, part: Any) -> str:
    """The commitment to private part `part` of seat `seat` (-1: no seat's) in event `seq`."""
    message = f"{seq}:{seat}:".encode() + canonical_part(part)
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def commitments(key: bytes, seq: int, private: dict[int, Any]) -> dict[int, str]:
    return {seat: commit(key, seq, seat, part) for seat, part in private.items()}


def mismatches(key: bytes, seq: int, private: dict[int, Any],
               committed: dict[int, str]) -> list[int]:
    """The seats whose part is missing, extra, or does not match its commitment."""
    wrong = [seat for seat in committed if seat not in private]
    for seat, part in private.items():
        expected = committed.get(seat)
        if expected is None or not hmac.compare_digest(expected, commit(key, seq, seat, part)):
            wrong.append(seat)
    return sorted(wrong)
