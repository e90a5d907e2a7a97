"""The player key: `pk.<player id>.<secret>`, shown once, kept only as its sha256.

The key names its player, so checking it is one read of that player's record (in the
player's own slot of a Redis Cluster), with no index of keys; the secret makes it
unguessable. Rotating a key replaces the stored hash: the old key stops working at once.
(Its hash is `domain.service.tokens.hash_token`, as for seat tokens.) A seat token
never starts with `pk.`, so one `Authorization: Bearer` header carries either.
"""

from __future__ import annotations

import re
import secrets

PREFIX = "pk."
ID_BYTES = 9  # 12 URL-safe characters
# What an id may look like: a key naming anything else names nobody, and never reaches
# the store (a brace would even move the lookup out of the player's hash-tag slot).
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def new_player_id() -> str:
    return secrets.token_urlsafe(ID_BYTES)


def new_player_key(player_id: str) -> str:
    return f"{PREFIX}{player_id}.{secrets.token_urlsafe(24)}"


def is_player_id(text: str) -> bool:
    return _ID.fullmatch(text) is not None


def is_player_key(token: str) -> bool:
    return token.startswith(PREFIX)


def player_of(key: str) -> str | None:
    """The player id a key names, or None for a malformed key."""
    if not is_player_key(key):
        return None
    player_id, dot, secret = key[len(PREFIX):].partition(".")
    if not dot or not secret or not is_player_id(player_id):
        return None
    return player_id
