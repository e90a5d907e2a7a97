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
"""

from __future__ import annotations

import hashlib
import html
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Response, request
from flask.views import MethodView

from api.auth import require_player
from api.contract.operations import (
    BAD_QUERY,
    NO_PLAYER_KEY,
    PLAYER,
    RATE_LIMITED,
    ContractBlueprint,
    Failure,
)
from api.errors import ApiError
from api.player_schemas import (
    EmailLinkArgsSchema,
    NewPlayerWebhookSchema,
    NewPushSubscriptionSchema,
    NotificationsSchema,
    PlayerWebhookSchema,
    PushKeySchema,
    PushSubscriptionSchema,
    RegisteredPlayerWebhookSchema,
)
from domain.notify.digest import NotifyState
from domain.notify.links import CONFIRM, UNSUBSCRIBE, LinkToken, address_digest, read_token
from domain.notify.prefs import BadPreferences, preferences
from domain.notify.push import MAX_SUBSCRIPTIONS, keys_problem
from domain.notify.records import PlayerHook, PushSubscription
from domain.service import GameService
from domain.store.port import NotifyStore
from domain.webhooks.registration import MAX_PER_OWNER
from domain.webhooks.signing import new_secret
from domain.webhooks.targets import TargetPolicy, TargetRefused


@dataclass(frozen=True)
class NotifyWiring:
    """What the notification routes work with (built by the composition root)."""

    store: NotifyStore
    link_secret: Callable[[], bytes]  # read when first needed (it may be kept in Redis)
    vapid_public_key: Callable[[], str | None]  # None: Web Push is off
    targets: TargetPolicy
    email_on: bool  # a mail server is configured


BAD_LINK = Failure(403, ("invalid_link",), "the link is not one this server signed, was "
                                           "changed, or has expired")
STALE_LINK = Failure(409, ("address_changed",), "the address the link was sent to is no "
                                                "longer the one waiting for its confirmation")
BAD_PREFS = Failure(422, ("bad_preferences", "validation_error"),
                    "preferences that cannot be kept (`message` says why)")


def make_blueprint(service: GameService, wiring: NotifyWiring) -> ContractBlueprint:
    blp = ContractBlueprint("notifications", __name__, url_prefix="",
                            description="Notifications: e-mail and Web Push",
                            json_bodies_only=False)
    store = wiring.store

    def shown(player_id: str) -> dict[str, Any]:
        record = store.record(player_id)
        return {**record.prefs.shown(), "email": record.email,
                "email_pending": record.pending,
                "push_subscriptions": len(store.subscriptions(player_id)),
                "email_available": wiring.email_on,
                "push_available": wiring.vapid_public_key() is not None}

    @blp.route("/players/me/notifications")
    class Preferences(MethodView):
        @blp.response(200, NotificationsSchema)
        @blp.operation("getMyNotifications", security=PLAYER, failures=[NO_PLAYER_KEY])
        def get(self) -> dict[str, Any]:
            """Your notification preferences, address and subscriptions"""
            return shown(require_player(service).id)

        @blp.arguments(NotificationsSchema)
        @blp.response(200, NotificationsSchema)
        @blp.operation("setMyNotifications", security=PLAYER, body="SetNotifications",
                       failures=[NO_PLAYER_KEY, BAD_PREFS])
        def put(self, body: dict[str, Any]) -> dict[str, Any]:
            """Set how you are told of your games when you are not at the table

            `channels` (`email`, `push`; none: nothing is sent, your event stream still
            has it all), `kinds`, `digest_hours` (0: at once; N: at most one e-mail per N
            hours listing every game where it is your turn), `quiet_hours` (`{start,
            end}`, HH:MM in `time_zone`, an IANA name: nothing is sent then; it goes out
            when they end). A new `email` is sent a confirmation link first (`null`
            removes the address). Nothing is sent about a game you are watching (an event
            stream open on it) or moved in within the last five minutes."""
            player = require_player(service)
            if not request.is_json:  # (this blueprint also takes the links' forms)
                raise ApiError(415, "unsupported_media_type", "send the preferences as "
                               "application/json")
            try:
                prefs = preferences(body)
            except BadPreferences as err:
                raise ApiError(422, "bad_preferences", str(err)) from None
            record = store.record(player.id)
            state = None
            if record.state == NotifyState():  # the first time: from now on
                last = service.players.last_player_event(player.id)
                state = NotifyState(push_after=last, email_after=last)
            store.save_prefs(player.id, prefs, state)
            if "email" in body:
                if body["email"] is None and (record.email or record.pending):
                    store.set_address(player.id, None)
                elif body["email"] is not None and \
                        body["email"] not in (record.email, record.pending):
                    store.set_address(player.id, body["email"])
                    store.due_now(player.id, time.time())  # the notifier sends the link
            return shown(player.id)

    @blp.route("/players/email/confirm")
    class Confirm(MethodView):
        @blp.arguments(EmailLinkArgsSchema, location="query")
        @blp.response(200, description="a page saying the address is confirmed",
                      content_type="text/html")
        @blp.operation("confirmEmail", failures=[BAD_LINK, STALE_LINK, BAD_QUERY])
        def get(self, args: dict[str, Any]) -> Response:
            """The confirmation link of an e-mail address (opened from the e-mail)

            Opened again once the address is confirmed, it says so again."""
            token = _token(wiring, args["token"], CONFIRM)
            if not store.confirm_address(token.player_id, token.address_digest) and \
                    not _confirmed(store, token):
                raise ApiError(409, "address_changed", "this link is for an address that "
                               "is no longer waiting for its confirmation: the address was "
                               "changed since")
            return _page("Address confirmed", "donkeypost will write to this address as "
                         "your notification preferences say.")

    @blp.route("/players/email/unsubscribe")
    class Unsubscribe(MethodView):
        @blp.arguments(EmailLinkArgsSchema, location="query")
        @blp.response(200, description="a page with a button that unsubscribes",
                      content_type="text/html")
        @blp.operation("unsubscribeEmailPage", failures=[BAD_LINK, BAD_QUERY])
        def get(self, args: dict[str, Any]) -> Response:
            """The unsubscribe link of every e-mail: a page asking to confirm (a GET
            changes nothing)"""
            _token(wiring, args["token"], UNSUBSCRIBE)
            action = html.escape(request.full_path)
            return _page("No more e-mails?", f'<form method="post" action="{action}">'
                         '<input type="hidden" name="List-Unsubscribe" value="One-Click">'
                         '<button type="submit">Stop the e-mails</button></form>',
                         raw=True)

        @blp.arguments(EmailLinkArgsSchema, location="query")
        @blp.response(200, description="a page saying it is done",
                      content_type="text/html")
        @blp.operation("unsubscribeEmail", failures=[BAD_LINK, BAD_QUERY, RATE_LIMITED])
        def post(self, args: dict[str, Any]) -> Response:
            """Unsubscribe at once (RFC 8058 one-click, or the page's button)"""
            token = _token(wiring, args["token"], UNSUBSCRIBE)
            store.unsubscribe(token.player_id, token.address_digest)
            return _page("Unsubscribed", "No more e-mails will be sent to this address. "
                         "Your games still tell you in the browser and on your event "
                         "stream.")

    @blp.route("/push/key")
    class PushKey(MethodView):
        @blp.response(200, PushKeySchema)
        @blp.operation("getPushKey", failures=[Failure(404, ("push_off",),
                                                       "Web Push is off on this server")])
        def get(self) -> dict[str, Any]:
            """The server's VAPID public key (`applicationServerKey` of
            `PushManager.subscribe`)"""
            key = wiring.vapid_public_key()
            if key is None:
                raise ApiError(404, "push_off", "Web Push is off on this server")
            return {"key": key}

    @blp.route("/players/me/push-subscriptions")
    class Subscriptions(MethodView):
        @blp.response(200, PushSubscriptionSchema(many=True))
        @blp.operation("listMyPushSubscriptions", security=PLAYER, failures=[NO_PLAYER_KEY])
        def get(self) -> list[dict[str, Any]]:
            """Your browsers' Web Push subscriptions"""
            return [_sub_view(s) for s in store.subscriptions(require_player(service).id)]

        @blp.arguments(NewPushSubscriptionSchema)
        @blp.response(201, PushSubscriptionSchema)
        @blp.operation("addMyPushSubscription", security=PLAYER, body="NewPushSubscription",
                       failures=[NO_PLAYER_KEY, Failure(409, ("too_many_subscriptions",),
                                                        "the player holds the most already"),
                                 Failure(422, ("url_not_allowed", "url_unresolvable",
                                               "bad_push_keys"),
                                         "an endpoint the server may not call, or keys no "
                                         "payload can be encrypted for")])
        def post(self, body: dict[str, Any]) -> dict[str, Any]:
            """Keep a browser's subscription (`PushSubscription.toJSON()`)

            The same endpoint again replaces it. The endpoint must be an address the
            server may call (public, unless the operator allows others)."""
            player = require_player(service)
            try:
                wiring.targets.check(body["endpoint"])
            except TargetRefused as err:
                raise ApiError(422, err.code, err.message) from None
            problem = keys_problem(body["keys"]["p256dh"], body["keys"]["auth"])
            if problem is not None:
                raise ApiError(422, "bad_push_keys", problem)
            sub = PushSubscription(
                id="push_" + hashlib.sha256(body["endpoint"].encode()).hexdigest()[:16],
                endpoint=body["endpoint"], p256dh=body["keys"]["p256dh"],
                auth=body["keys"]["auth"], created_at=time.time())
            if not store.subscribe(player.id, sub, MAX_SUBSCRIPTIONS):
                raise ApiError(409, "too_many_subscriptions", f"a player may hold "
                               f"{MAX_SUBSCRIPTIONS} subscriptions: delete one first")
            return _sub_view(sub)

    @blp.route("/players/me/webhooks")
    class PlayerWebhooks(MethodView):
        @blp.response(200, PlayerWebhookSchema(many=True))
        @blp.operation("listMyWebhooks", security=PLAYER, failures=[NO_PLAYER_KEY])
        def get(self) -> list[dict[str, Any]]:
            """Your player-level webhooks (without their secrets)"""
            return [h.described() for h in store.hooks(require_player(service).id)]

        @blp.arguments(NewPlayerWebhookSchema)
        @blp.response(201, RegisteredPlayerWebhookSchema)
        @blp.operation("registerMyWebhook", security=PLAYER, body="NewPlayerWebhook",
                       failures=[NO_PLAYER_KEY, Failure(409, ("too_many_webhooks",),
                                                        "the player holds the most already"),
                                 Failure(422, ("url_not_allowed", "url_unresolvable"),
                                         "a URL the server may not call")])
        def post(self, body: dict[str, Any]) -> dict[str, Any]:
            """One webhook for all your games: each entry of your event stream, posted

            From now on, every entry of your stream (of `kinds`) is posted to `url` as
            `{id, type, player, hook, entry}`, signed as game webhooks are
            (`X-Donkeypost-Signature: v1=HMAC-SHA256(secret, timestamp + "." + body)`,
            `X-Donkeypost-Timestamp`, `X-Donkeypost-Delivery`: the same id on every
            attempt). In order; a failed delivery is tried again with backoff before the
            next one goes. The secret is shown once."""
            player = require_player(service)
            try:
                wiring.targets.check(body["url"])
            except TargetRefused as err:
                raise ApiError(422, err.code, err.message) from None
            hook = PlayerHook(id="phk_" + secrets.token_hex(8), url=body["url"],
                              kinds=tuple(dict.fromkeys(body["kinds"])),
                              secret=new_secret(), created_at=time.time())
            if not store.add_hook(player.id, hook, MAX_PER_OWNER):
                raise ApiError(409, "too_many_webhooks", f"a player may hold "
                               f"{MAX_PER_OWNER} webhooks: delete one first")
            return {**hook.described(), "secret": hook.secret}

    @blp.route("/players/me/webhooks/<string:hook_id>")
    class PlayerWebhook(MethodView):
        @blp.response(204)
        @blp.operation("deleteMyWebhook", security=PLAYER, failures=[
            NO_PLAYER_KEY, Failure(404, ("unknown_webhook", "not_found"),
                                   "no such webhook of yours")])
        def delete(self, hook_id: str) -> None:
            """Stop a player-level webhook"""
            if not store.remove_hook(require_player(service).id, hook_id):
                raise ApiError(404, "unknown_webhook", "no such webhook of yours")

    @blp.route("/players/me/push-subscriptions/<string:subscription_id>")
    class Subscription(MethodView):
        @blp.response(204)
        @blp.operation("deleteMyPushSubscription", security=PLAYER, failures=[
            NO_PLAYER_KEY, Failure(404, ("unknown_subscription", "not_found"),
                                   "no such subscription of yours")])
        def delete(self, subscription_id: str) -> None:
            """Forget a browser's subscription"""
            if not store.unsubscribe_push(require_player(service).id, subscription_id):
                raise ApiError(404, "unknown_subscription", "no such subscription of yours")

    return blp


def _token(wiring: NotifyWiring, raw: str, purpose: str) -> LinkToken:
    token = read_token(wiring.link_secret(), raw, time.time())
    if token is None or token.purpose != purpose:
        raise ApiError(403, "invalid_link", "this link is not valid (changed, or expired): "
                       "ask for a new one")
    return token


def _confirmed(store: NotifyStore, token: LinkToken) -> bool:
    """Is the token's address the player's confirmed one already (a link opened twice)?"""
    email = store.record(token.player_id).email
    return email is not None and address_digest(email) == token.address_digest


def _sub_view(sub: PushSubscription) -> dict[str, Any]:
    return {"id": sub.id, "endpoint": sub.endpoint, "created_at": sub.created_at}


def _page(title: str, text: str, raw: bool = False) -> Response:
    body = text if raw else f"<p>{html.escape(text)}</p>"
    return Response(f"<!doctype html><html><head><meta charset=\"utf-8\"><title>"
                    f"{html.escape(title)}</title></head><body><h1>{html.escape(title)}</h1>"
                    f"{body}</body></html>", mimetype="text/html")
