"""The games' storage in Redis (>= 6.2), whole: every port of the games' storage, each in a
module of its own, in one object (`EventStore`), what the composition root hands to the
service:

- `redis_log` — the log and its atomic append (`GameLog`: one Lua script, one round trip);
- `redis_listings` — the listings (`Listings`);
- `redis_chat` — the table's chat (`TableChat`);
- `redis_secrets` — the seed and the creator's token (`Secrets`);
- `redis_analyses` — a finished game's analysis (`Analyses`);
- `redis_notices` — the notices of appends (`AppendFeed`).

They share the client (a server's or a cluster's, `domain.connection`) and nothing else;
a game's keys are all under its hash tag (`domain.store.keys`), so deleting its log
deletes its chat and secrets with it.
"""

from __future__ import annotations

import redis
from redis.cluster import RedisCluster

from domain.store.redis_analyses import RedisAnalyses
from domain.store.redis_chat import RedisTableChat
from domain.store.redis_listings import RedisListings
from domain.store.redis_log import RedisGameLog
from domain.store.redis_notices import RedisAppendFeed, RedisAppendNotices
from domain.store.redis_secrets import RedisSecrets

__all__ = ["RedisAppendNotices", "RedisEventStore"]


class RedisEventStore(RedisGameLog, RedisListings, RedisTableChat, RedisSecrets,
                      RedisAnalyses, RedisAppendFeed):
    """The `EventStore` in Redis (a server, or a cluster). An append waits until
    `wait_replicas` replicas have it, at most `wait_timeout_ms` (0: it does not wait)."""

    def __init__(self, client: redis.Redis | RedisCluster, wait_replicas: int = 0,
                 wait_timeout_ms: int = 200) -> None:
        RedisGameLog.__init__(self, client, wait_replicas, wait_timeout_ms)
        RedisTableChat.__init__(self, client)
