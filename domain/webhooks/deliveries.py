"""Deliveries: one notification for one registration, and every attempt to send it.

A delivery is `pending` until an attempt gets a 2xx answer (`delivered`) or the last
attempt fails (`failed`). Attempts that fail are retried with exponential backoff: the n-th
retry waits `first_delay_s * factor**(n-1)` seconds (capped at `max_delay_s`), and there
are at most `max_attempts` attempts in all. Each attempt records when it started, how long
it took, and the answer's status code or the error.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

PENDING, DELIVERED, FAILED = "pending", "delivered", "failed"


class Attempt(msgspec.Struct, frozen=True, kw_only=True):
    number: int
    at: float
    duration_ms: float
    status_code: int | None = None
    error: str | None = None

    @property
    def succeeded(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


class Delivery(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    game_id: str
    hook_id: str
    kind: str  # your_turn, game_finished, events
    version: int  # the game's version the notification is about
    created_at: float
    body: str  # the JSON body, sent unchanged by every attempt
    status: str = PENDING
    attempts: tuple[Attempt, ...] = ()
    next_attempt_at: float | None = None

    def described(self) -> dict[str, Any]:
        """As shown by the API: the body is parsed back to an object."""
        out = msgspec.to_builtins(self)
        out["body"] = msgspec.json.decode(self.body)
        return out


def new_delivery_id() -> str:
    return "dlv_" + secrets.token_hex(8)


@dataclass(frozen=True)
class RetryPolicy:
    max_attempts: int = 6
    first_delay_s: float = 10.0
    factor: float = 4.0
    max_delay_s: float = 3600.0

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any]) -> RetryPolicy:
        """`WEBHOOK_MAX_ATTEMPTS`, `WEBHOOK_RETRY_FIRST_S`, `WEBHOOK_RETRY_FACTOR`."""
        default = cls()
        return cls(
            max_attempts=int(settings.get("WEBHOOK_MAX_ATTEMPTS") or default.max_attempts),
            first_delay_s=float(settings.get("WEBHOOK_RETRY_FIRST_S")
                                or default.first_delay_s),
            factor=float(settings.get("WEBHOOK_RETRY_FACTOR") or default.factor),
        )

    def delay_after(self, attempts_made: int) -> float | None:
        """Seconds to wait before the next attempt, or None when none is left."""
        if attempts_made >= self.max_attempts:
            return None
        return min(self.first_delay_s * self.factor ** (attempts_made - 1), self.max_delay_s)


def after_attempt(delivery: Delivery, attempt: Attempt, policy: RetryPolicy,
                  retryable: bool = True) -> Delivery:
    """The delivery once `attempt` is recorded: delivered, waiting for a retry, or failed."""
    attempts = (*delivery.attempts, attempt)
    if attempt.succeeded:
        return msgspec.structs.replace(delivery, attempts=attempts, status=DELIVERED,
                                       next_attempt_at=None)
    delay = policy.delay_after(len(attempts)) if retryable else None
    if delay is None:
        return msgspec.structs.replace(delivery, attempts=attempts, status=FAILED,
                                       next_attempt_at=None)
    return msgspec.structs.replace(delivery, attempts=attempts,
                                   next_attempt_at=attempt.at + attempt.duration_ms / 1000
                                   + delay)


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Delivery)


def encode_delivery(delivery: Delivery) -> bytes:
    return _encoder.encode(delivery)


def decode_delivery(raw: bytes) -> Delivery:
    return _decoder.decode(raw)
