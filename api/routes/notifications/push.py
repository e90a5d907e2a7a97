"""Web Push: the server's VAPID key, and a player's browsers' subscriptions."""

from __future__ import annotations

import hashlib
import time
from typing import Any

from flask.views import MethodView

from api.auth import require_player
from api.contract.operations import NO_PLAYER_KEY, PLAYER, ContractBlueprint, Failure
from api.errors import ApiError
from api.player_schemas import NewPushSubscriptionSchema, PushKeySchema, PushSubscriptionSchema
from api.routes.notifications.wiring import NotifyWiring
from domain.notify.push import MAX_SUBSCRIPTIONS, keys_problem
from domain.notify.records import PushSubscription
from domain.service import GameService
from domain.webhooks.targets import TargetRefused


def register(blp: ContractBlueprint, service: GameService, wiring: NotifyWiring) -> None:
    store = wiring.store

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

        @blp.arguments(NewPushSubscriptionSchema())
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


def _sub_view(sub: PushSubscription) -> dict[str, Any]:
    return {"id": sub.id, "endpoint": sub.endpoint, "created_at": sub.created_at}
