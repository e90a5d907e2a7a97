"""Storage behind one port: the games' events and what goes with them, and webhooks.

- `port` — the `EventStore`, `EventLog` and `WebhookStore` protocols and their constants;
- `keys` — every Redis key name of the games' data;
- `redis_store`, `redis_webhooks` — the ports in Redis (the Lua append lives here);
- `memory`, `memory_webhooks` — the same behaviour in memory, for tests without Redis.
"""

from __future__ import annotations

from domain.store.memory import MemoryEventStore
from domain.store.memory_webhooks import MemoryWebhookStore
from domain.store.port import (
    CHECKPOINT_EVERY,
    AppendResult,
    EventLog,
    EventStore,
    WebhookStore,
)
from domain.store.redis_store import RedisEventStore
from domain.store.redis_webhooks import RedisWebhookStore

__all__ = [
    "CHECKPOINT_EVERY",
    "AppendResult",
    "EventLog",
    "EventStore",
    "MemoryEventStore",
    "MemoryWebhookStore",
    "RedisEventStore",
    "RedisWebhookStore",
    "WebhookStore",
]
