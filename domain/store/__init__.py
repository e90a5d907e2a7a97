"""Storage behind small ports: the games' (their log and its atomic append, listings,
chat, secrets, the notices of appends), webhooks, players, ratings, archives.

- `port` — the protocols (`GameLog`, `Listings`, `TableChat`, `Secrets`, `AppendFeed`, all
  of them as `EventStore`; `WebhookStore`, `PlayerStore`, …) and their constants;
- `keys` — every Redis key name of the games' data;
- `redis_log` (the Lua append lives here), `redis_listings`, `redis_chat`, `redis_secrets`,
  `redis_notices`, and `redis_store` which holds them in one object; `redis_webhooks`,
  `redis_players`, `redis_ratings` — the ports in Redis;
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
    AppendFeed,
    AppendResult,
    ChatLog,
    EventLog,
    EventStore,
    GameLog,
    Idempotency,
    Listings,
    PlayerStore,
    RatingStore,
    Secrets,
    Stored,
    StreamSource,
    TableChat,
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
    "AppendFeed",
    "AppendResult",
    "ChatLog",
    "EventLog",
    "EventStore",
    "GameLog",
    "Idempotency",
    "Listings",
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
    "Secrets",
    "Stored",
    "StreamSource",
    "TableChat",
    "TimerChanges",
    "WebhookStore",
]
