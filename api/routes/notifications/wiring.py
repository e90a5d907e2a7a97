"""What the notification routes work with."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from domain.store.port import NotifyStore
from domain.webhooks.targets import TargetPolicy


@dataclass(frozen=True)
class NotifyWiring:
    """What the notification routes work with (built by the composition root)."""

    store: NotifyStore
    link_secret: Callable[[], bytes]  # read when first needed (it may be kept in Redis)
    vapid_public_key: Callable[[], str | None]  # None: Web Push is off
    targets: TargetPolicy
    email_on: bool  # a mail server is configured
