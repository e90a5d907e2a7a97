"""Signatures: every delivery proves it comes from this server and is fresh.

The signed bytes are `timestamp + "." + body`: the decimal Unix time in seconds (the value of
the `X-Donkeypost-Timestamp` header), a full stop, and the request body exactly as sent. The
signature is `v1=` followed by the lowercase hex HMAC-SHA256 of those bytes, keyed with the
registration's secret (its UTF-8 bytes), in `X-Donkeypost-Signature`. A receiver recomputes
it, compares in constant time, and refuses timestamps too far from its clock (a replay).
The timestamp is taken anew for each attempt; the delivery id stays the same, so a receiver
can also drop a delivery it has already handled.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

SIGNATURE_HEADER = "X-Donkeypost-Signature"
TIMESTAMP_HEADER = "X-Donkeypost-Timestamp"
DELIVERY_HEADER = "X-Donkeypost-Delivery"
EVENT_HEADER = "X-Donkeypost-Event"
SCHEME = "v1"
# How far a receiver should let a timestamp drift from its own clock.
DEFAULT_TOLERANCE_S = 300


def new_secret() -> str:
    return "whsec_" + secrets.token_urlsafe(32)


def signed_bytes(timestamp: int, body: bytes) -> bytes:
    return str(timestamp).encode() + b"." + body


def sign(secret: str, timestamp: int, body: bytes) -> str:
    digest = hmac.new(secret.encode(), signed_bytes(timestamp, body), hashlib.sha256)
    return f"{SCHEME}={digest.hexdigest()}"


def verify(secret: str, timestamp: str, body: bytes, signature: str, now: float,
           tolerance_s: float = DEFAULT_TOLERANCE_S) -> bool:
    """What a receiver does: a well-formed, fresh timestamp and a matching signature."""
    if not timestamp.isdigit() or abs(now - int(timestamp)) > tolerance_s:
        return False
    return hmac.compare_digest(sign(secret, int(timestamp), body), signature)


def delivery_headers(secret: str, delivery_id: str, kind: str, body: bytes,
                     now: float) -> dict[str, str]:
    """The headers of one attempt to send a delivery."""
    timestamp = int(now)
    return {
        "Content-Type": "application/json",
        SIGNATURE_HEADER: sign(secret, timestamp, body),
        TIMESTAMP_HEADER: str(timestamp),
        DELIVERY_HEADER: delivery_id,
        EVENT_HEADER: kind,
    }
