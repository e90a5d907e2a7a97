"""The notices of appends in Redis (`AppendFeed`): the append script and every chat write
publish "<game id> <version>" (or "<game id> chat") on one channel; a process subscribes
once and wakes every stream and long-poll of the games it hears of. (PUBLISH is not
written to the AOF, so the notices cost the log nothing.)"""

from __future__ import annotations

import redis

import domain.store.keys as keys
from domain.store.redis_chat import CHAT_NOTICE


class RedisAppendFeed:
    """The `AppendFeed` port in Redis."""

    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def appends(self) -> RedisAppendNotices:
        return RedisAppendNotices(self.redis)


class RedisAppendNotices:
    """The notices, through one pub/sub connection."""

    MAX_BATCH = 1000
    # How long a read waits for the rest of a notice that has partly arrived.
    READ_REST_S = 1.0

    def __init__(self, client: redis.Redis) -> None:
        self._pubsub = client.pubsub()
        self._pubsub.subscribe(keys.APPENDED)

    def next(self, timeout_s: float) -> list[tuple[str, int | None]] | None:
        found: list[tuple[str, int | None]] = []
        message = self._pubsub.get_message(timeout=timeout_s)
        while message is not None:
            if message["type"] == "subscribe":
                return None  # (re)subscribed: what happened before is unknown
            if message["type"] == "message":
                game_id, _, version = message["data"].decode().rpartition(" ")
                found.append((game_id, None if version == CHAT_NOTICE else int(version)))
            if len(found) >= self.MAX_BATCH or not self._more_arrived():
                break
            message = self._pubsub.get_message(timeout=self.READ_REST_S)
        return found

    def _more_arrived(self) -> bool:
        """Has (part of) another notice arrived? Asked without reading: redis-py 8 reads
        with the wait it is given, and with none a notice split across two reads (a burst,
        a cluster bus's forwarding) fails the read and drops the subscription."""
        connection = self._pubsub.connection
        return connection is not None and bool(connection.can_read(timeout=0))

    def close(self) -> None:
        self._pubsub.close()
