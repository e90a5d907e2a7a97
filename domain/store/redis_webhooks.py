"""The `WebhookStore` port in Redis, in the game's hash-tagged keys (`domain.store.keys`):
a hash of registrations; each delivery under its own key, kept `DELIVERY_TTL_S`; per
registration a list of its latest `DELIVERIES_KEPT` delivery ids, newest first.
"""

from __future__ import annotations

import math
import time

import redis

import domain.store.keys as keys
from domain.store.port import DELIVERIES_KEPT, DELIVERY_TTL_S, RECEIVER_KEPT_S
from domain.webhooks.deliveries import (
    Delivery,
    decode_delivery,
    encode_delivery,
)
from domain.webhooks.receivers import (
    ReceiverState,
    decode_receiver,
    encode_receiver,
    receiver_key,
)
from domain.webhooks.registration import (
    Registration,
    decode_registration,
    encode_registration,
)

# Counts the owner's registrations and adds one, atomically. A registration's `seat` is a
# number, or null for the creator's game-wide one (cjson.null).
_ADD = """
local owner = ARGV[3]
local held = 0
for _, raw in ipairs(redis.call('HVALS', KEYS[1])) do
  local seat = cjson.decode(raw).seat
  local of = 'game'
  if seat ~= cjson.null and seat ~= nil then of = tostring(seat) end
  if of == owner then held = held + 1 end
end
if held >= tonumber(ARGV[4]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""


class RedisWebhookStore:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._add = client.register_script(_ADD)

    # --- registrations -------------------------------------------------------------------
    def registrations(self, game_id: str) -> list[Registration]:
        found = self.redis.hvals(keys.webhooks(game_id))
        return sorted((decode_registration(raw) for raw in found), key=lambda r: r.created_at)

    def registration(self, game_id: str, hook_id: str) -> Registration | None:
        raw = self.redis.hget(keys.webhooks(game_id), hook_id)
        return decode_registration(raw) if raw is not None else None

    def add(self, reg: Registration, limit: int) -> bool:
        """See `WebhookStore.add`: one script counts the owner's and adds."""
        owner = "game" if reg.seat is None else str(reg.seat)
        added = self._add(keys=[keys.webhooks(reg.game_id)],
                          args=[reg.id, encode_registration(reg), owner, limit])
        return bool(added)

    def remove(self, game_id: str, hook_id: str) -> bool:
        pipe = self.redis.pipeline(transaction=False)
        pipe.hdel(keys.webhooks(game_id), hook_id)
        pipe.delete(keys.hook_deliveries(game_id, hook_id))
        removed, _ = pipe.execute()
        return bool(removed)

    # --- deliveries ----------------------------------------------------------------------
    def add_deliveries(self, deliveries: list[Delivery]) -> None:
        pipe = self.redis.pipeline(transaction=False)
        for d in deliveries:
            listed = keys.hook_deliveries(d.game_id, d.hook_id)
            pipe.set(keys.delivery(d.game_id, d.id), encode_delivery(d), ex=DELIVERY_TTL_S)
            pipe.lpush(listed, d.id)
            pipe.ltrim(listed, 0, DELIVERIES_KEPT - 1)
            pipe.expire(listed, DELIVERY_TTL_S)
        pipe.execute()

    def save_delivery(self, delivery: Delivery) -> None:
        self.redis.set(keys.delivery(delivery.game_id, delivery.id),
                       encode_delivery(delivery), ex=DELIVERY_TTL_S)

    def delivery(self, game_id: str, delivery_id: str) -> Delivery | None:
        raw = self.redis.get(keys.delivery(game_id, delivery_id))
        return decode_delivery(raw) if raw is not None else None

    def deliveries(self, game_id: str, hook_id: str, limit: int = DELIVERIES_KEPT
                   ) -> list[Delivery]:
        """The registration's latest deliveries, newest first."""
        ids = self.redis.lrange(keys.hook_deliveries(game_id, hook_id), 0, limit - 1)
        if not ids:
            return []
        found = self.redis.mget([keys.delivery(game_id, i.decode()) for i in ids])
        return [decode_delivery(raw) for raw in found if raw is not None]

    # --- receivers -----------------------------------------------------------------------
    def receiver(self, origin: str) -> ReceiverState | None:
        raw = self.redis.get(keys.webhook_receiver(receiver_key(origin)))
        return decode_receiver(raw) if raw is not None else None

    def save_receiver(self, origin: str, state: ReceiverState | None) -> None:
        key = keys.webhook_receiver(receiver_key(origin))
        if state is None:
            self.redis.delete(key)
            return
        ttl = max(1, math.ceil(state.blocked_until - time.time()) + RECEIVER_KEPT_S)
        self.redis.set(key, encode_receiver(state), ex=ttl)
