"""Bearer tokens: a seat's and the creator's, made here and kept only as their sha256."""

from __future__ import annotations

import hashlib
import hmac
import secrets

CREATOR_PREFIX = "ctk_"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_seat_token() -> str:
    return secrets.token_urlsafe(24)


def new_creator_token() -> str:
    """The creator is not a seat (they may not even play), yet owns the game-wide settings
    such as a game-wide webhook: their token is returned once by `POST /games`."""
    return CREATOR_PREFIX + secrets.token_urlsafe(24)


def matches(stored_hash: str | None, token: str) -> bool:
    """Is `token` the one whose hash was stored? (In constant time.)"""
    return stored_hash is not None and hmac.compare_digest(stored_hash, hash_token(token))
