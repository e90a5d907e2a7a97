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

from typing import Any

import msgspec

from domain.notify.mail import Links, news_line

PUSH_TTL_S = 24 * 3600
MAX_SUBSCRIPTIONS = 10  # per player
MAX_ENDPOINT = 2000


def payload(entry: dict[str, Any], links: Links) -> bytes:
    return msgspec.json.encode({"id": entry["id"], "type": entry["type"],
                                "game": entry["game"], "game_type": entry["game_type"],
                                "title": news_line(entry), "url": links.table(entry["game"])})


def headers(entry: dict[str, Any]) -> dict[str, str]:
    """`TTL`, `Urgency` and `Topic` of the push for `entry`."""
    return {"TTL": str(PUSH_TTL_S),
            "Urgency": "high" if entry["type"] == "deadline_soon" else "normal",
            "Topic": f"game-{entry['game']}"[:32]}
