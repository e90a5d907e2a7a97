"""Registrations and deliveries in Redis, in the game's hash-tagged keys.

- `game:{<id>}:hooks` — hash: registration id → registration;
- `game:{<id>}:delivery:<delivery id>` — one delivery with its attempts (kept 14 days);
- `game:{<id>}:hook:<registration id>:deliveries` — the registration's latest deliveries,
  newest first (the last 100).
"""

from __future__ import annotations

import redis

from domain.webhooks.deliveries import (
    Delivery,
    decode_delivery,
    encode_delivery,
)
from domain.webhooks.registration import (
    Registration,
    decode_registration,
    encode_registration,
)

DELIVERY_TTL_S = 14 * 24 * 3600
DELIVERIES_KEPT = 100


def _key(game_id: str, what: str) -> str:
    return f"game:{{{game_id}}}:{what}"


class WebhookStore:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    # --- registrations -------------------------------------------------------------------
    def registrations(self, game_id: str) -> list[Registration]:
        found = self.redis.hvals(_key(game_id, "hooks"))
        return sorted((decode_registration(raw) for raw in found), key=lambda r: r.created_at)

    def registration(self, game_id: str, hook_id: str) -> Registration | None:
        raw = self.redis.hget(_key(game_id, "hooks"), hook_id)
        return decode_registration(raw) if raw is not None else None

    def add(self, reg: Registration) -> None:
        self.redis.hset(_key(reg.game_id, "hooks"), reg.id, encode_registration(reg))

    def remove(self, game_id: str, hook_id: str) -> bool:
        pipe = self.redis.pipeline(transaction=False)
        pipe.hdel(_key(game_id, "hooks"), hook_id)
        pipe.delete(_key(game_id, f"hook:{hook_id}:deliveries"))
        removed, _ = pipe.execute()
        return bool(removed)

    # --- deliveries ----------------------------------------------------------------------
    def add_deliveries(self, deliveries: list[Delivery]) -> None:
        pipe = self.redis.pipeline(transaction=False)
        for d in deliveries:
            listed = _key(d.game_id, f"hook:{d.hook_id}:deliveries")
            pipe.set(_key(d.game_id, f"delivery:{d.id}"), encode_delivery(d), ex=DELIVERY_TTL_S)
            pipe.lpush(listed, d.id)
            pipe.ltrim(listed, 0, DELIVERIES_KEPT - 1)
            pipe.expire(listed, DELIVERY_TTL_S)
        pipe.execute()

    def save_delivery(self, delivery: Delivery) -> None:
        self.redis.set(_key(delivery.game_id, f"delivery:{delivery.id}"),
                       encode_delivery(delivery), ex=DELIVERY_TTL_S)

    def delivery(self, game_id: str, delivery_id: str) -> Delivery | None:
        raw = self.redis.get(_key(game_id, f"delivery:{delivery_id}"))
        return decode_delivery(raw) if raw is not None else None

    def deliveries(self, game_id: str, hook_id: str, limit: int = DELIVERIES_KEPT
                   ) -> list[Delivery]:
        """The registration's latest deliveries, newest first."""
        ids = self.redis.lrange(_key(game_id, f"hook:{hook_id}:deliveries"), 0, limit - 1)
        if not ids:
            return []
        found = self.redis.mget([_key(game_id, f"delivery:{i.decode()}") for i in ids])
        return [decode_delivery(raw) for raw in found if raw is not None]
