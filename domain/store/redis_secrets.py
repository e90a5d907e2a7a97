"""A game's secrets in Redis (`Secrets`): its seed and the hash of its creator's token,
each a key in the game's slot (`keys.secret`, `keys.creator`), deleted with the game."""

from __future__ import annotations

import redis
from redis.cluster import RedisCluster

import domain.store.keys as keys


class RedisSecrets:
    """The `Secrets` port in Redis (a server, or a cluster)."""

    def __init__(self, client: redis.Redis | RedisCluster) -> None:
        self.redis = client

    def save_secrets(self, game_id: str, seed: str) -> str:
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(keys.secret(game_id), seed, nx=True)
        pipe.get(keys.secret(game_id))
        kept: bytes = pipe.execute()[1]
        return kept.decode()

    def seed(self, game_id: str) -> str | None:
        raw = self.redis.get(keys.secret(game_id))
        return raw.decode() if raw is not None else None

    def save_creator(self, game_id: str, token_hash: str) -> None:
        self.redis.set(keys.creator(game_id), token_hash)

    def creator(self, game_id: str) -> str | None:
        raw = self.redis.get(keys.creator(game_id))
        return raw.decode() if raw is not None else None
