"""A player's webhooks: one for all their games, posted each entry of their stream."""

from __future__ import annotations

import secrets
import time
from typing import Any

from flask.views import MethodView

from api.auth import require_player
from api.contract.operations import NO_PLAYER_KEY, PLAYER, ContractBlueprint, Failure
from api.errors import ApiError
from api.player_schemas import (
    NewPlayerWebhookSchema,
    PlayerWebhookSchema,
    RegisteredPlayerWebhookSchema,
)
from api.routes.notifications.wiring import NotifyWiring
from domain.notify.records import PlayerHook
from domain.service import GameService
from domain.webhooks.registration import MAX_PER_OWNER
from domain.webhooks.signing import new_secret
from domain.webhooks.targets import TargetRefused


def register(blp: ContractBlueprint, service: GameService, wiring: NotifyWiring) -> None:
    store = wiring.store

    @blp.route("/players/me/webhooks")
    class PlayerWebhooks(MethodView):
        @blp.response(200, PlayerWebhookSchema(many=True))
        @blp.operation("listMyWebhooks", security=PLAYER, failures=[NO_PLAYER_KEY])
        def get(self) -> list[dict[str, Any]]:
            """Your player-level webhooks (without their secrets)"""
            return [h.described() for h in store.hooks(require_player(service).id)]

        @blp.arguments(NewPlayerWebhookSchema())
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
