"""Players: register, read a profile, rotate the key, and the inbox of one's games."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView

from api.auth import player_key, require_player
from api.encoding import encode_inbox
from api.errors import ErrorSchema
from api.paging import PagedBlueprint
from api.player_schemas import (
    InboxArgsSchema,
    InboxEntrySchema,
    NewPlayerSchema,
    PlayerKeySchema,
    ProfileSchema,
)
from domain.service import GameService

KEY_ONLY = [{"playerKey": []}]


def make_blueprint(service: GameService) -> PagedBlueprint:
    blp = PagedBlueprint("players", __name__, url_prefix="/players",
                         description="Players: one identity, one key, across games")

    @blp.route("")
    class Players(MethodView):
        @blp.arguments(NewPlayerSchema)
        @blp.response(201, PlayerKeySchema)
        @blp.alt_response(409, schema=ErrorSchema, description="the name is taken "
                                                              "(`name_taken`)")
        @blp.alt_response(422, schema=ErrorSchema, description="a name it may not be "
                                                              "(`bad_name`)")
        def post(self, body: dict[str, Any]) -> dict[str, Any]:
            """Become a player: the key is shown this once

            Send the key as `Authorization: Bearer <key>` on any game where you hold a
            seat, on POST /games (to sit at your own table or invite players by name) and
            on your inbox. Names are unique whatever their case or Unicode form, and are
            letters of one script, digits, spaces and `-_.'`."""
            player, key = service.register_player(body["name"])
            return {"id": player.id, "name": player.name, "created_at": player.created_at,
                    "key": key}

    @blp.route("/me")
    class Me(MethodView):
        @blp.response(200, ProfileSchema)
        @blp.alt_response(401, schema=ErrorSchema, description="missing or bad player key")
        @blp.doc(security=KEY_ONLY)
        def get(self) -> dict[str, Any]:
            """Your own profile"""
            return service.profile(require_player(service).id)

    @blp.route("/me/keys")
    class Keys(MethodView):
        @blp.response(201, PlayerKeySchema)
        @blp.alt_response(401, schema=ErrorSchema, description="missing or bad player key")
        @blp.doc(security=KEY_ONLY)
        def post(self) -> dict[str, Any]:
            """Replace your key: the new one is shown this once, the old one stops now"""
            player = require_player(service)
            key = service.rotate_key(player)
            return {"id": player.id, "name": player.name, "created_at": player.created_at,
                    "key": key}

    @blp.route("/me/games")
    class Inbox(MethodView):
        @blp.arguments(InboxArgsSchema(), location="query")
        @blp.response(200, InboxEntrySchema(many=True))
        @blp.alt_response(401, schema=ErrorSchema, description="missing or bad player key")
        @blp.paginate()
        @blp.doc(security=KEY_ONLY)
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
            return Response(encode_inbox(entries), status=200, mimetype="application/json")

    @blp.route("/<string:player_id>")
    class Profile(MethodView):
        @blp.response(200, ProfileSchema)
        @blp.alt_response(404, schema=ErrorSchema, description="unknown player")
        def get(self, player_id: str) -> dict[str, Any]:
            """A player's public profile: name, games played and won, rating per type"""
            return service.profile(player_id)

    return blp
