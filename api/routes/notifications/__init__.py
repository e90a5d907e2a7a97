"""Notifications: a player's preferences, their e-mail address and its links, and their
Web Push subscriptions.

- `GET`/`PUT /players/me/notifications`: channels, kinds, digest window, quiet hours and
  time zone, and the e-mail address (a new one is sent a confirmation link first; nothing
  else goes to it before it is confirmed);
- `GET /players/email/confirm?token=`: the confirmation link;
- `GET`/`POST /players/email/unsubscribe?token=`: the link of every e-mail. A GET only
  shows a page with a button (mail scanners follow links: they must unsubscribe nobody);
  a POST unsubscribes at once (RFC 8058 one-click: what a mail client sends for
  `List-Unsubscribe-Post: List-Unsubscribe=One-Click`);
- `GET /push/key`: the server's VAPID public key, for `PushManager.subscribe`;
- `GET`/`POST /players/me/push-subscriptions`, `DELETE …/{id}`: a browser's subscription
  (at most `MAX_SUBSCRIPTIONS` per player; the endpoint gets the webhook targets' checks);
- `GET`/`POST /players/me/webhooks`, `DELETE …/{id}`: one webhook for all of a player's
  games, posted each entry of their stream by the notifier, signed as game webhooks are.

A player's address and subscriptions are shown to nobody but themselves.

One blueprint (the document's `notifications` tag); each resource is a module of its own
that adds its views to it: `preferences`, `email_links`, `push`, `player_webhooks`
(`wiring`: what they work with).
"""

from __future__ import annotations

from api.contract.operations import ContractBlueprint
from api.routes.notifications import email_links, player_webhooks, preferences, push
from api.routes.notifications.wiring import NotifyWiring
from domain.service import GameService

__all__ = ["NotifyWiring", "make_blueprint"]


def make_blueprint(service: GameService, wiring: NotifyWiring) -> ContractBlueprint:
    blp = ContractBlueprint("notifications", __name__, url_prefix="",
                            description="Notifications: e-mail and Web Push",
                            json_bodies_only=False)
    preferences.register(blp, service, wiring)
    email_links.register(blp, wiring)
    push.register(blp, service, wiring)
    player_webhooks.register(blp, service, wiring)
    return blp
