"""What the notifications keep of a player, as the `NotifyStore` port hands it over: their
record (preferences, address, the notifier's places), where they are (presence), their Web
Push subscriptions and player-level webhooks."""

from __future__ import annotations

from typing import Any, NamedTuple

import msgspec

from domain.notify.digest import NotifyState
from domain.notify.prefs import Preferences

MOVED_KEPT_S = 3600.0  # when a player last moved in a game: older ones are dropped


class PushSubscription(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    endpoint: str
    p256dh: str  # the browser's public key, base64url
    auth: str  # its auth secret, base64url
    created_at: float


class PlayerHook(msgspec.Struct, frozen=True, kw_only=True):
    """A player-level webhook: every entry of the player's stream (of `kinds`) is posted to
    `url`, signed with `secret` as the game webhooks are."""

    id: str
    url: str
    kinds: tuple[str, ...]
    secret: str
    created_at: float

    def described(self) -> dict[str, Any]:
        return {"id": self.id, "url": self.url, "kinds": list(self.kinds),
                "created_at": self.created_at}


class NotifyRecord(NamedTuple):
    """A player's notification record, read at once."""

    prefs: Preferences
    email: str | None  # confirmed
    pending: str | None  # waiting for its confirmation
    confirm_sent: bool  # the confirmation of `pending` was sent
    state: NotifyState


class Presence(NamedTuple):
    present: dict[str, float]  # game id or "*" -> until
    moved: dict[str, float]  # game id -> when
    subscriptions: int
    hooks: list[PlayerHook]
