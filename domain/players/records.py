"""A player as stored: an id, a name, when it was created, whether it is a bot account.
(The key's hash is kept apart, by the store, and never leaves it but for the check.)"""

from __future__ import annotations

import msgspec


class Player(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    created_at: float
    # A bot account: an outside program that plays its games from its event stream;
    # shown as a bot at tables and on leaderboards.
    bot: bool = False
