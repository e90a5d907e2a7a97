"""The creator's credential: a token returned once by `POST /games`.

The creator is not a seat (they may not even play), yet owns the game-wide settings such as
a game-wide webhook. Only the token's sha256 is stored, in the game's hash-tagged keys.
"""

from __future__ import annotations

import hmac
import secrets

import redis

from domain.service import hash_token


def _key(game_id: str) -> str:
    return f"game:{{{game_id}}}:creator"


class CreatorTokens:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def issue(self, game_id: str) -> str:
        token = "ctk_" + secrets.token_urlsafe(24)
        self.redis.set(_key(game_id), hash_token(token))
        return token

    def holds(self, game_id: str, token: str) -> bool:
        """Is `token` the creator's token of this game?"""
        stored = self.redis.get(_key(game_id))
        return stored is not None and hmac.compare_digest(stored.decode(), hash_token(token))
