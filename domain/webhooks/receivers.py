"""Receivers that keep failing are left alone for a while, without holding a worker.

A receiver is an origin (`scheme://host:port`): every registration pointing at it shares
its fate, since a frontend that is down is down for all its games. Each failed attempt
(no answer in time, a refused connection, a 5xx or 429) adds one to the receiver's streak
and blocks it for `first_s * factor**(streak - 1)` seconds (capped at `max_s`); any 2xx,
3xx or 4xx answer (it answered) clears it. While a receiver is blocked, a delivery for it
is not attempted: its job puts it back in the queue's schedule for when the block ends
(no attempt is counted), and the worker goes on with other receivers' deliveries. So a
receiver that never answers costs one attempt per block, not one per delivery.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from urllib.parse import urlsplit

import msgspec


class ReceiverState(msgspec.Struct, frozen=True, kw_only=True):
    failures: int  # attempts failed in a row
    blocked_until: float  # epoch seconds


@dataclass(frozen=True)
class ReceiverBackoff:
    first_s: float = 5.0
    factor: float = 2.0
    max_s: float = 600.0

    def after_failure(self, state: ReceiverState | None, now: float) -> ReceiverState:
        failures = (state.failures if state else 0) + 1
        wait = min(self.first_s * self.factor ** (failures - 1), self.max_s)
        return ReceiverState(failures=failures, blocked_until=now + wait)


def origin_of(url: str) -> str:
    """`scheme://host:port` of a URL, the port spelled out."""
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return f"{parts.scheme}://{(parts.hostname or '').lower()}:{port}"


def receiver_key(origin: str) -> str:
    """A short stable name for an origin (store keys never carry a URL)."""
    return hashlib.sha256(origin.encode()).hexdigest()[:32]


def answered(status_code: int | None) -> bool:
    """Did the receiver answer (whatever it said), as opposed to failing to?"""
    return status_code is not None and status_code < 500 and status_code != 429


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(ReceiverState)


def encode_receiver(state: ReceiverState) -> bytes:
    return _encoder.encode(state)


def decode_receiver(raw: bytes) -> ReceiverState:
    return _decoder.decode(raw)
