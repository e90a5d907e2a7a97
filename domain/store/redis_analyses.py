"""A finished game's analysis in Redis (`Analyses`): one key in the game's slot
(`keys.analysis`), written once, deleted with the game."""

from __future__ import annotations

import redis
from redis.cluster import RedisCluster

import domain.store.keys as keys


class RedisAnalyses:
    """The `Analyses` port in Redis (a server, or a cluster)."""

    def __init__(self, client: redis.Redis | RedisCluster) -> None:
        self.redis = client

    def analysis(self, game_id: str) -> bytes | None:
        found: bytes | None = self.redis.get(keys.analysis(game_id))
        return found

    def keep_analysis(self, game_id: str, document: bytes) -> bool:
        return bool(self.redis.set(keys.analysis(game_id), document, nx=True))
