"""The creator's credential: a token issued once after `POST /games`, checked later (e.g.
for a game-wide webhook). Only its sha256 is stored, with the game."""

from __future__ import annotations

from domain.service.tokens import hash_token, matches, new_creator_token
from domain.store.port import Secrets


def issue_creator_token(store: Secrets, game_id: str) -> str:
    token = new_creator_token()
    store.save_creator(game_id, hash_token(token))
    return token


def is_creator(store: Secrets, game_id: str, token: str) -> bool:
    """Is `token` the creator's token of this game?"""
    return matches(store.creator(game_id), token)
