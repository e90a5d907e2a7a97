"""Web Push (RFC 8030, VAPID RFC 8292): what a push says, and its headers but the keys'.

A push's payload is small JSON the web table's service worker shows as a notification:
`{id, type, game, game_type, title, url}` (`url` opens the table). Each push is sent with
`TTL` (how long the push service keeps it for an offline browser), `Urgency` (`high` for
`deadline_soon`, else `normal`) and `Topic` (one per game: a newer push of the same game
replaces an unread older one). The payload is encrypted for the subscription (aes128gcm,
RFC 8291) and signed for the push service with the server's VAPID key
(`workers.push.PushSender`).
"""

from __future__ import annotations

import base64
from typing import Any

import msgspec
from cryptography.hazmat.primitives.asymmetric import ec

from domain.notify.mail import Links, news_line

PUSH_TTL_S = 24 * 3600
MAX_SUBSCRIPTIONS = 10  # per player
MAX_ENDPOINT = 2000
# A subscription's keys as `PushSubscription.toJSON()` gives them (base64url, padding
# optional): the browser's P-256 public key, uncompressed (65 bytes, first 0x04), and its
# 16-byte auth secret. The API's schema states these shapes; `keys_problem` also checks
# that the key is a point of the curve (which no pattern can say).
P256DH_PATTERN = r"^B[A-Za-z0-9_-]{86}=?$"
AUTH_PATTERN = r"^[A-Za-z0-9_-]{22}(==)?$"


def keys_problem(p256dh: str, auth: str) -> str | None:
    """Why a payload could never be encrypted for these keys, or None when it can."""
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _unpadded(p256dh))
    except ValueError:
        return "keys.p256dh is not a P-256 public key (uncompressed, base64url)"
    if len(_unpadded(auth)) != 16:
        return "keys.auth is not a 16-byte secret (base64url)"
    return None


def _unpadded(text: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))
    except ValueError:
        return b""


def payload(entry: dict[str, Any], links: Links) -> bytes:
    return msgspec.json.encode({"id": entry["id"], "type": entry["type"],
                                "game": entry["game"], "game_type": entry["game_type"],
                                "title": news_line(entry), "url": links.table(entry["game"])})


def headers(entry: dict[str, Any]) -> dict[str, str]:
    """`TTL`, `Urgency` and `Topic` of the push for `entry`."""
    return {"TTL": str(PUSH_TTL_S),
            "Urgency": "high" if entry["type"] == "deadline_soon" else "normal",
            "Topic": f"game-{entry['game']}"[:32]}
