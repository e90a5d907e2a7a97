"""The games' listings in Redis (`Listings`): one sorted set per listing (by status, by
type, by both, the lobby's free seats overall and by type, all games), each member a game
id scored by its creation time, so every query reads one key (no intersection, which a
cluster refuses across slots). They live outside the games' slots and are written after
the append that changed a game's status."""

from __future__ import annotations

from collections.abc import Iterator

import redis
from redis.cluster import RedisCluster

import domain.store.keys as keys
from domain.table import STATUSES


class RedisListings:
    """The `Listings` port in Redis (a server, or a cluster)."""

    def __init__(self, client: redis.Redis | RedisCluster) -> None:
        self.redis = client

    def index(self, game_id: str, game_type: str, status: str, created_at: float,
              free_seat: bool = False) -> None:
        pipe = self.redis.pipeline(transaction=False)
        for s in STATUSES:
            if s != status:
                pipe.zrem(keys.by_status(s), game_id)
                pipe.zrem(keys.by_status_and_type(s, game_type), game_id)
        pipe.zadd(keys.by_status(status), {game_id: created_at})
        pipe.zadd(keys.by_type(game_type), {game_id: created_at})
        pipe.zadd(keys.by_status_and_type(status, game_type), {game_id: created_at})
        pipe.zadd(keys.ALL_GAMES, {game_id: created_at})
        for lobby in (keys.FREE_SEATS, keys.free_seats_of_type(game_type)):
            if free_seat:
                pipe.zadd(lobby, {game_id: created_at})
            else:
                pipe.zrem(lobby, game_id)
        pipe.execute()

    def scan_ids(self, status: str, batch: int = 500) -> Iterator[str]:
        for raw, _created in self.redis.zscan_iter(keys.by_status(status), count=batch):
            yield raw.decode()

    def list_ids(self, status: str | None, game_type: str | None, offset: int,
                 limit: int, free_seat: bool = False) -> tuple[list[str], int]:
        if free_seat:
            # The lobby keeps an index per type: no intersection, one key per query.
            if status not in (None, "open"):
                return [], 0
            return self._page(keys.free_seats_of_type(game_type) if game_type
                              else keys.FREE_SEATS, offset, limit)
        # Every listing is one index, kept on write: no intersection (which a cluster
        # refuses across slots, and which costs as much as the larger index) on read.
        if status and game_type:
            key = keys.by_status_and_type(status, game_type)
        elif status:
            key = keys.by_status(status)
        elif game_type:
            key = keys.by_type(game_type)
        else:
            key = keys.ALL_GAMES
        return self._page(key, offset, limit)

    def _page(self, key: str, offset: int, limit: int) -> tuple[list[str], int]:
        total = self.redis.zcard(key)
        if offset >= total:
            return [], total  # past the end; also keeps huge page numbers away from Redis
        ids = self.redis.zrevrange(key, offset, offset + limit - 1)
        return [i.decode() for i in ids], total

    def listed_before(self, status: str, before: float, limit: int) -> list[str]:
        found = self.redis.zrangebyscore(keys.by_status(status), "-inf", f"({before}",
                                         start=0, num=limit)
        return [i.decode() for i in found]

    def unlist(self, game_id: str, game_type: str | None) -> None:
        pipe = self.redis.pipeline(transaction=False)
        for s in STATUSES:
            pipe.zrem(keys.by_status(s), game_id)
            if game_type is not None:
                pipe.zrem(keys.by_status_and_type(s, game_type), game_id)
        if game_type is not None:
            pipe.zrem(keys.by_type(game_type), game_id)
            pipe.zrem(keys.free_seats_of_type(game_type), game_id)
        pipe.zrem(keys.ALL_GAMES, game_id)
        pipe.zrem(keys.FREE_SEATS, game_id)
        pipe.execute()
