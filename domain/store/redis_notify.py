"""What the notifications keep in Redis: each player's preferences, address and place in
their stream (`player:{id}:notify`), their Web Push subscriptions (`player:{id}:push`),
where they are present (`player:{id}:present`) and last moved (`player:{id}:moved`), all
in the player's slot; and the players due for a look (`notify:due`).

The notifier takes due players with a lease (`claim`): their score moves `lease_s` ahead,
so a worker that dies mid-round leaves the player to be taken again once the lease ends;
`release` puts the player back at the time of the next look, unless a new entry came
meanwhile (the stream's write moved the score before the lease: the player is due now).
"""

from __future__ import annotations

import secrets
from typing import Any

import msgspec
import redis

import domain.store.keys as keys
from domain.notify.digest import NotifyState, decode_state, encode_state
from domain.notify.links import address_digest
from domain.notify.prefs import Preferences, decode_prefs, encode_prefs
from domain.notify.records import (
    MOVED_KEPT_S,
    NotifyRecord,
    PlayerHook,
    Presence,
    PushSubscription,
)

# KEYS[1]: the due set. ARGV: now, lease end, limit. The due players, leased.
_CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
for _, player in ipairs(due) do redis.call('ZADD', KEYS[1], 'XX', ARGV[2], player) end
return due
"""
# KEYS[1]: the due set. ARGV: player, the lease's score, next look ('' for none).
_RELEASE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score then return 0 end
if tonumber(score) == tonumber(ARGV[2]) then
  if ARGV[3] == '' then redis.call('ZREM', KEYS[1], ARGV[1])
  else redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1]) end
  return 1
end
if ARGV[3] ~= '' then redis.call('ZADD', KEYS[1], 'LT', ARGV[3], ARGV[1]) end
return 0
"""
# KEYS[1]: a player's subscriptions. ARGV: id, subscription, limit. 1 added, 0 full.
_SUBSCRIBE = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 and
   redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""
# KEYS[1]: a player's notify hash. ARGV: the waiting address as read: it becomes the
# address, unless another one replaced it meanwhile.
_CONFIRM = """
local pending = redis.call('HGET', KEYS[1], 'pending')
if not pending or pending ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'email', pending)
redis.call('HDEL', KEYS[1], 'pending', 'confirm_sent')
return 1
"""


class RedisNotifyStore:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client
        self._claim = client.register_script(_CLAIM)
        self._release = client.register_script(_RELEASE)
        self._subscribe = client.register_script(_SUBSCRIBE)
        self._confirm = client.register_script(_CONFIRM)

    # --- preferences and the address ----------------------------------------------------
    def record(self, player_id: str) -> NotifyRecord:
        found = self.redis.hgetall(keys.player_notify(player_id))
        prefs = decode_prefs(found[b"prefs"]) if b"prefs" in found else Preferences()
        state = decode_state(found[b"state"]) if b"state" in found else NotifyState()
        return NotifyRecord(prefs, _text(found.get(b"email")), _text(found.get(b"pending")),
                            b"confirm_sent" in found, state)

    def save_prefs(self, player_id: str, prefs: Preferences,
                   state: NotifyState | None = None) -> None:
        mapping: dict[str, Any] = {"prefs": encode_prefs(prefs)}
        if state is not None:
            mapping["state"] = encode_state(state)
        self.redis.hset(keys.player_notify(player_id), mapping=mapping)

    def set_address(self, player_id: str, address: str | None) -> None:
        """A new address waits for its confirmation (None: no address at all)."""
        key = keys.player_notify(player_id)
        pipe = self.redis.pipeline(transaction=False)
        if address is None:
            pipe.hdel(key, "email", "pending", "confirm_sent")
        else:
            pipe.hset(key, "pending", address)
            pipe.hdel(key, "confirm_sent")
        pipe.execute()

    def confirm_address(self, player_id: str, digest: str) -> bool:
        """Confirm the waiting address whose digest is `digest`."""
        pending = self.redis.hget(keys.player_notify(player_id), "pending")
        if pending is None or address_digest(pending.decode()) != digest:
            return False
        return bool(self._confirm(keys=[keys.player_notify(player_id)], args=[pending]))

    def unsubscribe(self, player_id: str, digest: str) -> bool:
        """Forget the confirmed address whose digest is `digest` (no more e-mail)."""
        key = keys.player_notify(player_id)
        email = self.redis.hget(key, "email")
        if email is None or address_digest(email.decode()) != digest:
            return False
        self.redis.hdel(key, "email")
        return True

    def confirmation_sent(self, player_id: str) -> None:
        self.redis.hset(keys.player_notify(player_id), "confirm_sent", 1)

    def save_state(self, player_id: str, state: NotifyState) -> None:
        self.redis.hset(keys.player_notify(player_id), "state", encode_state(state))

    # --- where the player is ------------------------------------------------------------
    def mark_present(self, player_id: str, what: str, until: float) -> None:
        """An event stream of the player's is open on game `what` (or `*`, their own)."""
        self.redis.zadd(keys.player_present(player_id), {what: until})

    def presence(self, player_id: str, now: float) -> Presence:
        pipe = self.redis.pipeline(transaction=False)
        pipe.zremrangebyscore(keys.player_present(player_id), "-inf", now)
        pipe.zremrangebyscore(keys.player_moved(player_id), "-inf", now - MOVED_KEPT_S)
        pipe.zrange(keys.player_present(player_id), 0, -1, withscores=True)
        pipe.zrange(keys.player_moved(player_id), 0, -1, withscores=True)
        pipe.hlen(keys.push_subscriptions(player_id))
        pipe.hvals(keys.player_hooks(player_id))
        _, _, present, moved, subscriptions, hooks = pipe.execute()
        return Presence({g.decode(): s for g, s in present},
                        {g.decode(): s for g, s in moved}, int(subscriptions),
                        sorted((msgspec.json.decode(raw, type=PlayerHook) for raw in hooks),
                               key=lambda h: h.created_at))

    # --- Web Push subscriptions ---------------------------------------------------------
    def subscribe(self, player_id: str, sub: PushSubscription, limit: int) -> bool:
        return bool(self._subscribe(keys=[keys.push_subscriptions(player_id)],
                                    args=[sub.id, msgspec.json.encode(sub), limit]))

    def unsubscribe_push(self, player_id: str, sub_id: str) -> bool:
        return bool(self.redis.hdel(keys.push_subscriptions(player_id), sub_id))

    def subscriptions(self, player_id: str) -> list[PushSubscription]:
        found = self.redis.hvals(keys.push_subscriptions(player_id))
        subs = [msgspec.json.decode(raw, type=PushSubscription) for raw in found]
        return sorted(subs, key=lambda s: s.created_at)

    # --- player-level webhooks ---------------------------------------------------------
    def add_hook(self, player_id: str, hook: PlayerHook, limit: int) -> bool:
        return bool(self._subscribe(keys=[keys.player_hooks(player_id)],
                                    args=[hook.id, msgspec.json.encode(hook), limit]))

    def remove_hook(self, player_id: str, hook_id: str) -> bool:
        return bool(self.redis.hdel(keys.player_hooks(player_id), hook_id))

    def hooks(self, player_id: str) -> list[PlayerHook]:
        found = self.redis.hvals(keys.player_hooks(player_id))
        return sorted((msgspec.json.decode(raw, type=PlayerHook) for raw in found),
                      key=lambda h: h.created_at)

    # --- the notifier's schedule --------------------------------------------------------
    def claim(self, now: float, lease_s: float, limit: int) -> tuple[list[str], float]:
        """Due players (at most `limit`), leased until now + lease_s; and the lease."""
        lease = float(repr(now + lease_s))
        found = self._claim(keys=[keys.NOTIFY_DUE], args=[repr(now), repr(lease), limit])
        return [p.decode() for p in found], lease

    def release(self, player_id: str, lease: float, next_look: float | None) -> None:
        self._release(keys=[keys.NOTIFY_DUE],
                      args=[player_id, repr(lease), "" if next_look is None else repr(next_look)])

    def due_now(self, player_id: str, at: float) -> None:
        self.redis.zadd(keys.NOTIFY_DUE, {player_id: at}, lt=True)

    # --- server secrets -----------------------------------------------------------------
    def kept_secret(self, key: str, make: bytes) -> bytes:
        """The value kept under `key`, `make` if none was (the first process wins)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(key, make, nx=True)
        pipe.get(key)
        kept: bytes = pipe.execute()[1]
        return kept

    def link_secret(self) -> bytes:
        return self.kept_secret(keys.NOTIFY_SECRET, secrets.token_bytes(32))

    def erase(self, player_id: str) -> None:
        """Everything the notifications keep of a player."""
        self.redis.delete(*keys.of_player_notifications(player_id))
        self.redis.zrem(keys.NOTIFY_DUE, player_id)


def _text(raw: bytes | None) -> str | None:
    return raw.decode() if raw is not None else None
