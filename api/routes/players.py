"""Players: register, read a profile, rotate the key, and the inbox of one's games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response
from flask.views import MethodView

from api.auth import player_key, require_player
from api.contract.operations import (
    BAD_QUERY,
    NO_PLAYER_KEY,
    PLAYER,
    ContractBlueprint,
    Failure,
    link,
)
from api.encoding import encode_inbox
from api.errors import ApiError
from api.paging import PagedBlueprint
from api.player_schemas import (
    ErasedSchema,
    InboxArgsSchema,
    InboxEntrySchema,
    NewPlayerSchema,
    PlayerKeySchema,
    ProfileSchema,
)
from domain.service import GameService
from domain.service.erasure import Erased

Erase = Callable[[str], Erased]


def make_blueprint(service: GameService, erase: Erase | None = None) -> PagedBlueprint:
    """`erase` erases a player (`DELETE /players/me`; None: not served)."""
    blp = ContractBlueprint("players", __name__, url_prefix="/players",
                            description="Players: one identity, one key, across games")

    @blp.route("")
    class Players(MethodView):
        @blp.arguments(NewPlayerSchema())
        @blp.response(201, PlayerKeySchema)
        @blp.operation("registerPlayer", body="NewPlayer", failures=[
            Failure(409, ("name_taken",), "the name is taken"),
            Failure(422, ("bad_name",), "a name it may not be")],
            links={201: {"GetPlayer": link("getPlayer", "the new player's profile",
                                           player_id="$response.body#/id")}})
        def post(self, body: dict[str, Any]) -> dict[str, Any]:
            """Become a player: the key is shown this once

            Send the key as `Authorization: Bearer <key>` on any game where you hold a
            seat, on POST /games (to sit at your own table or invite players by name) and
            on your inbox. Names are unique whatever their case or Unicode form, and are
            letters of one script, digits, spaces and `-_.'`."""
            player, key = service.register_player(body["name"], body["bot"])
            return {"id": player.id, "name": player.name, "created_at": player.created_at,
                    "bot": player.bot, "key": key}

    @blp.route("/me")
    class Me(MethodView):
        @blp.response(200, ProfileSchema)
        @blp.operation("getMyProfile", security=PLAYER, failures=[NO_PLAYER_KEY])
        def get(self) -> dict[str, Any]:
            """Your own profile"""
            return service.profile(require_player(service).id)

        @blp.response(200, ErasedSchema)
        @blp.operation("erasePlayer", security=PLAYER, failures=[NO_PLAYER_KEY])
        def delete(self) -> dict[str, Any]:
            """Leave for good: erase your name, key, e-mail address and subscriptions

            Your seats in games being played are handed to the basic bot (as on leave);
            in every game you sat at, your name becomes `deleted player` and your chat
            texts are hidden; your key stops working, your name is free again, your
            ratings leave the leaderboards, your notification settings, e-mail address and
            push subscriptions are deleted. The games' logs and results stay, playable and
            verifiable: your seat keeps its random player id, nothing else of you. This
            cannot be undone."""
            if erase is None:
                raise ApiError(404, "not_found", "erasure is not served here")
            report = erase(require_player(service).id)
            return {"erased": True, "games": len(report.games),
                    "seats_handed_to_bots": len(report.seats_handed_to_bots)}

    @blp.route("/me/keys")
    class Keys(MethodView):
        @blp.response(201, PlayerKeySchema)
        @blp.operation("rotatePlayerKey", security=PLAYER, failures=[NO_PLAYER_KEY])
        def post(self) -> dict[str, Any]:
            """Replace your key: the new one is shown this once, the old one stops now"""
            player = require_player(service)
            key = service.rotate_key(player)
            return {"id": player.id, "name": player.name, "created_at": player.created_at,
                    "bot": player.bot, "key": key}

    @blp.route("/me/games")
    class Inbox(MethodView):
        @blp.etag
        @blp.arguments(InboxArgsSchema(), location="query")
        @blp.response(200, InboxEntrySchema(many=True))
        @blp.paginate()
        @blp.operation("listMyGames", security=PLAYER, failures=[NO_PLAYER_KEY, BAD_QUERY],
                       headers={200: ["Vary"]})
        def get(self, args: dict[str, Any], pagination_parameters: Any) -> Response:
            """Your games: where it is your turn, soonest deadline first

            `status=active` (the default) lists the games being played: those where it is
            your turn first, soonest deadline first (without a deadline: the longest
            waiting first), then the others; `my_turn=true` or `false` keeps one part.
            `status=open` lists the games waiting for players that you sit at or are
            invited to, `status=finished` the finished ones with your place and what each
            did to your rating (once rated); both newest first."""
            entries, total = service.inbox(player_key(), args["status"], args.get("my_turn"),
                                           offset=pagination_parameters.first_item,
                                           limit=pagination_parameters.page_size)
            pagination_parameters.item_count = total
            body = encode_inbox(entries)
            # The answer is encoded here, not dumped by the schema: its tag is set from
            # what is sent (with the page it is), and 304 raised when it is the caller's.
            blp.set_etag([body.decode(), total, pagination_parameters.page,
                          pagination_parameters.page_size])
            return Response(body, status=200, mimetype="application/json",
                            headers={"Vary": "Authorization"})

    @blp.route("/<string:player_id>")
    class Profile(MethodView):
        @blp.response(200, ProfileSchema)
        @blp.operation("getPlayer", failures=[
            Failure(404, ("unknown_player", "not_found"), "no such player")])
        def get(self, player_id: str) -> dict[str, Any]:
            """A player's public profile: name, games played and won, rating per type"""
            return service.profile(player_id)

    return blp
