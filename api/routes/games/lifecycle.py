"""Before a game and after it: cancel one nobody started yet, ask for the rematch of one
that is finished."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api.auth import caller_seat, creator_credential
from api.contract.operations import (
    BUSY,
    CREATOR_OR_PLAYER,
    NO_SEAT,
    NOT_SEATED,
    SEAT_OR_PLAYER,
    UNKNOWN_GAME,
    ContractBlueprint,
    Failure,
    game_link,
)
from api.routes.game_headers import view_answer
from api.schemas import GameViewSchema, RematchSchema
from domain.service import GameService


def register(blp: ContractBlueprint, service: GameService) -> None:
    @blp.route("/<string:game_id>/cancel")
    class Cancel(MethodView):
        @blp.response(200, GameViewSchema)
        @blp.operation("cancelGame", security=CREATOR_OR_PLAYER, responses={200: "GameView"},
                       headers={200: ["ETAG"]}, failures=[
                           UNKNOWN_GAME, BUSY,
                           Failure(401, ("missing_token", "invalid_authorization",
                                         "invalid_player_key"), "no credential"),
                           Failure(403, ("not_allowed",), "not the creator's token or key"),
                           Failure(409, ("game_started",), "the game has started")])
        def post(self, game_id: str) -> Any:
            """Cancel a game that has not started (its creator only)

            With the `creator_token` of POST /games, or the key of the player who created
            it. The game's status becomes `cancelled`; cancelling twice is fine."""
            table = service.cancel(game_id, creator_credential())
            return view_answer(service.view(table, None), table.version)

    @blp.route("/<string:game_id>/rematch")
    class RematchResource(MethodView):
        @blp.response(201, RematchSchema, description="the rematch, created now")
        @blp.alt_response(200, schema=RematchSchema, description="the rematch, created "
                                                                 "by an earlier request")
        @blp.operation("rematchGame", security=SEAT_OR_PLAYER,
                       responses={201: "Joined", 200: "Joined"}, failures=[
                           NO_SEAT, NOT_SEATED, UNKNOWN_GAME, BUSY,
                           Failure(409, ("game_not_finished",), "the game is not finished")],
                       links={201: game_link("getGame", "$response.body#/game/id"),
                              200: game_link("getGame", "$response.body#/game/id")})
        def post(self, game_id: str) -> Any:
            """Ask for the rematch of a finished game (any of its seats)

            One new game with the same type, options, deadlines and seats, rotated by one
            (the second seat sits first): players are seated again, bots keep their level,
            and a seat an anonymous person held is kept for them — they take it by asking
            here too, with their old seat's token, and get a new token (once). The games
            link both ways (`rematch_of`, `rematch`). Asking again, or at the same moment
            as someone else, gives the same game."""
            _table, seat = caller_seat(service, game_id)
            found = service.rematch(game_id, seat)
            body = {"seat": found.seat, "token": found.token,
                    "game": service.view(found.table, found.seat)}
            return body, 201 if found.created else 200
