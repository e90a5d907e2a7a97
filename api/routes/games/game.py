"""One game, as the caller may see it."""

from __future__ import annotations

from typing import Any

from flask import Response, request
from flask.views import MethodView

from api.auth import caller_table
from api.contract.operations import (
    BAD_QUERY,
    BAD_TOKEN,
    SEAT_OR_SPECTATOR,
    UNKNOWN_GAME,
    ContractBlueprint,
    game_link,
    link,
)
from api.encoding import encode_game_view
from api.locale import game_words
from api.routes.game_headers import etag, vary, words_asked
from api.schemas import GameViewSchema
from domain.service import GameService

NOT_MODIFIED = "not modified since the `ETag` in If-None-Match"


def register(blp: ContractBlueprint, service: GameService) -> None:
    @blp.route("/<string:game_id>")
    class GameResource(MethodView):
        @blp.response(200, GameViewSchema)
        @blp.alt_response(304, description=NOT_MODIFIED)
        @blp.operation("getGame", security=SEAT_OR_SPECTATOR,
                       failures=[BAD_TOKEN, UNKNOWN_GAME, BAD_QUERY],
                       responses={200: "GameView"}, parameters=["IfNoneMatch", "Words"],
                       headers={200: ["ETAG", "Vary"], 304: ["ETAG", "Vary"]}, links={200: {
                           "PostAction": link("postAction", "play the first legal action",
                                              body="$response.body#/legal_actions/0",
                                              headers={"If-Match": "$response.body#/version"},
                                              game_id="$response.body#/id"),
                           **game_link("comeBack", "$response.body#/id"),
                           **game_link("getState", "$response.body#/id",
                                       "$response.body#/version")}})
        def get(self, game_id: str) -> Any:
            """The game as the caller may see it (a seat with its token, else a spectator)

            `legal_actions` lists complete action bodies the caller may post unchanged;
            with `words=true` each has its label (`action_labels`) and `layout` lays the
            game out for a client that knows nothing of it. The `ETag` is the game's
            version; `If-None-Match` answers 304 when unchanged."""
            asked = words_asked()
            table, seat = caller_table(service, game_id)
            tag = etag(table.version)
            if tag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
                return Response(status=304, headers={"ETag": tag, "Vary": vary(asked)})
            words = game_words(asked, table.type)
            return Response(encode_game_view(service.view(table, seat, words)),
                            status=200,
                            mimetype="application/json",
                            headers={"ETag": tag, "Vary": vary(asked)})
