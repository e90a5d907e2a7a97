"""A player's notification preferences and e-mail address (`/players/me/notifications`)."""

from __future__ import annotations

import time
from typing import Any

from flask import request
from flask.views import MethodView

from api.auth import require_player
from api.contract.operations import NO_PLAYER_KEY, PLAYER, ContractBlueprint, Failure
from api.errors import ApiError
from api.player_schemas import NotificationsSchema
from api.routes.notifications.wiring import NotifyWiring
from domain.notify.digest import NotifyState
from domain.notify.prefs import BadPreferences, preferences
from domain.service import GameService

BAD_PREFS = Failure(422, ("bad_preferences", "validation_error"),
                    "preferences that cannot be kept (`message` says why)")


def register(blp: ContractBlueprint, service: GameService, wiring: NotifyWiring) -> None:
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

        @blp.arguments(NotificationsSchema())
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
