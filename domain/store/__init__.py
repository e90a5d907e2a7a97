"""Storage behind one port: the games' events and what goes with them, and webhooks.

- `port` — the `EventStore`, `EventLog` and `WebhookStore` protocols and their constants;
- `keys` — every Redis key name of the games' data;
- `redis_store`, `redis_webhooks`, `redis_players`, `redis_ratings` — the ports in Redis
  (the Lua append lives here);
- `memory`, `memory_webhooks`, `memory_players`, `memory_ratings` — the same behaviour in
  memory, for tests without Redis.
"""

from __future__ import annotations

from domain.store.memory import MemoryEventStore
from domain.store.memory_players import MemoryPlayerStore
from domain.store.memory_ratings import MemoryRatingStore
from domain.store.memory_webhooks import MemoryWebhookStore
from domain.store.port import (
    CHECKPOINT_EVERY,
    SNAPSHOT_EVERY,
    AppendResult,
    EventLog,
    EventStore,
    Idempotency,
    PlayerStore,
    RatingStore,
    Stored,
    TimerChanges,
    WebhookStore,
)
from domain.store.redis_players import RedisPlayerStore
from domain.store.redis_ratings import RedisRatingStore
from domain.store.redis_store import RedisEventStore
from domain.store.redis_webhooks import RedisWebhookStore

__all__ = [
    "CHECKPOINT_EVERY",
    "SNAPSHOT_EVERY",
    "AppendResult",
    "EventLog",
    "EventStore",
    "Idempotency",
    "MemoryEventStore",
    "MemoryPlayerStore",
    "MemoryRatingStore",
    "MemoryWebhookStore",
    "PlayerStore",
    "RatingStore",
    "RedisEventStore",
    "RedisPlayerStore",
    "RedisRatingStore",
    "RedisWebhookStore",
    "Stored",
    "TimerChanges",
    "WebhookStore",
]
