"""Webhooks: register a URL to be told about a game; read what was sent and how it went.

Who may register: a seat, with its token, for its own notifications (redacted for that
seat); the game's creator, with the `creator_token` of `POST /games`, for a game-wide one
(a spectator's view). Each owner sees and deletes only its own registrations.
"""

from __future__ import annotations

import time
from typing import Any

from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint

from api.auth import bearer_token
from api.contract.operations import (
    NO_OWNER,
    SEAT_OR_CREATOR,
    UNKNOWN_GAME,
    ContractBlueprint,
    Failure,
    link,
)
from api.errors import ApiError
from api.schemas import (
    DeliverySchema,
    RegisteredWebhookSchema,
    WebhookArgsSchema,
    WebhookSchema,
)
from domain.service import GameService
from domain.store.port import WebhookStore
from domain.webhooks.registration import MAX_PER_OWNER, Registration, new_registration
from domain.webhooks.signing import (
    DELIVERY_HEADER,
    EVENT_HEADER,
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
)
from domain.webhooks.targets import TargetPolicy, TargetRefused

REGISTER_DESCRIPTION = f"""Register a URL for this game's notifications

With a seat's token: the seat's own `your_turn` (the seat became one to act, not through
its own move), `game_finished`, and optionally `events` (every new event, redacted for the
seat). With the creator's token: the same game-wide (`your_turn` names any seat that became
one to act; `events` as a spectator sees them). Either may ask for `messages`: every new
entry of the table's chat, as GET /games/{{id}}/messages shows it (a message hidden before
the delivery is sent goes without its text). Each owner may hold {MAX_PER_OWNER}.

The URL must be http(s), on port 80 or 443, and every address of its host public
(loopback, private, link-local, multicast, reserved and IANA special-purpose addresses,
6to4, Teredo and NAT64 forms included, are refused unless the server allows them); it is
checked again before every attempt.

Each delivery is a `POST` of a JSON body `{{id, type, game, hook, seat, version, status,
data}}` with the headers `{SIGNATURE_HEADER}`, `{TIMESTAMP_HEADER}`, `{DELIVERY_HEADER}`
(the same on every attempt) and `{EVENT_HEADER}` (the type). The signature is `v1=` and
the lowercase hex HMAC-SHA256, keyed with the `secret` returned here (once), of the bytes
`timestamp + "." + body`: the timestamp header's value (Unix seconds), a full stop, and the
raw body. Check it in constant time and refuse timestamps more than 5 minutes off.
A delivery without a 2xx answer is retried with exponential backoff, then marked failed;
`GET …/webhooks/{{hook_id}}/deliveries` shows every attempt."""


UNKNOWN_WEBHOOK = Failure(404, ("unknown_webhook",), "you have no such webhook")
HOOK_LINKS = (("GetWebhook", "getWebhook", "read it"),
              ("ListDeliveries", "listDeliveries", "what was sent"),
              ("DeleteWebhook", "deleteWebhook", "delete it"))


def make_blueprint(service: GameService, store: WebhookStore,
                   policy: TargetPolicy) -> Blueprint:
    blp = ContractBlueprint("webhooks", __name__, url_prefix="/games",
                            description="Push: signed webhooks for a seat or a whole game")

    def owner(game_id: str) -> int | None:
        """The caller's seat, or None for the creator; 401 for anyone else."""
        token = bearer_token()
        if token is None:
            raise ApiError(401, "missing_token", "this needs a seat's or the creator's token")
        _table, seat = service.load(game_id, token)
        if seat is not None:
            return seat
        if service.is_creator(game_id, token):
            return None
        raise ApiError(401, "invalid_token", "this token is neither a seat's of this game "
                                             "nor its creator's")

    def owned(game_id: str, hook_id: str) -> Registration:
        seat = owner(game_id)
        reg = store.registration(game_id, hook_id)
        if reg is None or reg.seat != seat:
            raise ApiError(404, "unknown_webhook", f"you have no webhook {hook_id!r} here")
        return reg

    @blp.route("/<string:game_id>/webhooks")
    class Webhooks(MethodView):
        @blp.arguments(WebhookArgsSchema())
        @blp.response(201, RegisteredWebhookSchema)
        @blp.operation("registerWebhook", security=SEAT_OR_CREATOR, body="WebhookArgs",
                       failures=[NO_OWNER, UNKNOWN_GAME,
                                 Failure(409, ("too_many_webhooks",), "you hold the most "
                                         "webhooks one owner may hold in a game"),
                                 Failure(422, ("url_not_allowed", "url_unresolvable"),
                                         "the URL's host is not a public address")],
                       links={201: {name: link(op, what, game_id="$request.path.game_id",
                                               hook_id="$response.body#/id")
                                    for name, op, what in HOOK_LINKS}})
        @blp.doc(description=REGISTER_DESCRIPTION.split("\n", 2)[2],
                 summary=REGISTER_DESCRIPTION.split("\n", 1)[0])
        def post(self, body: dict[str, Any], game_id: str) -> dict[str, Any]:
            seat = owner(game_id)
            try:
                policy.check(body["url"])
            except TargetRefused as err:
                raise ApiError(422, err.code, err.message,
                               errors={"url": [err.message]}) from None
            reg = new_registration(game_id, seat, body["url"], tuple(body["notify"]),
                                   time.time())
            if not store.add(reg, MAX_PER_OWNER):  # counted and added in one atomic step
                raise ApiError(409, "too_many_webhooks",
                               f"you already hold {MAX_PER_OWNER} webhooks in this game")
            return {**reg.described(), "secret": reg.secret}

        @blp.response(200, WebhookSchema(many=True))
        @blp.operation("listWebhooks", security=SEAT_OR_CREATOR,
                       failures=[NO_OWNER, UNKNOWN_GAME])
        def get(self, game_id: str) -> list[dict[str, Any]]:
            """Your webhooks in this game (their secrets are not shown again)"""
            seat = owner(game_id)
            return [r.described() for r in store.registrations(game_id) if r.seat == seat]

    @blp.route("/<string:game_id>/webhooks/<string:hook_id>")
    class Webhook(MethodView):
        @blp.response(200, WebhookSchema)
        @blp.operation("getWebhook", security=SEAT_OR_CREATOR,
                       failures=[NO_OWNER, UNKNOWN_GAME, UNKNOWN_WEBHOOK])
        def get(self, game_id: str, hook_id: str) -> dict[str, Any]:
            """One of your webhooks"""
            return owned(game_id, hook_id).described()

        @blp.response(204)
        @blp.operation("deleteWebhook", security=SEAT_OR_CREATOR,
                       failures=[NO_OWNER, UNKNOWN_GAME, UNKNOWN_WEBHOOK])
        def delete(self, game_id: str, hook_id: str) -> Response:
            """Delete one of your webhooks; its pending deliveries are dropped"""
            owned(game_id, hook_id)
            store.remove(game_id, hook_id)
            return Response(status=204)

    @blp.route("/<string:game_id>/webhooks/<string:hook_id>/deliveries")
    class Deliveries(MethodView):
        @blp.response(200, DeliverySchema(many=True))
        @blp.operation("listDeliveries", security=SEAT_OR_CREATOR,
                       failures=[NO_OWNER, UNKNOWN_GAME, UNKNOWN_WEBHOOK])
        def get(self, game_id: str, hook_id: str) -> list[dict[str, Any]]:
            """The webhook's latest deliveries, newest first, with every attempt"""
            owned(game_id, hook_id)
            return [d.described() for d in store.deliveries(game_id, hook_id)]

    return blp
