"""A game's seats: take one (the game starts when every seat is taken), and come back to
an away seat."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api.auth import caller_seat, optional_player
from api.contract.operations import (
    ANYONE_OR_PLAYER,
    BAD_IDEMPOTENCY_KEY,
    BAD_PLAYER_KEY,
    BUSY,
    NO_SEAT,
    NOT_SEATED,
    SEAT,
    UNKNOWN_GAME,
    ContractBlueprint,
    Failure,
    game_link,
    link,
)
from api.errors import ApiError
from api.routes.game_headers import idempotency_key, view_answer
from api.schemas import JoinedSchema, JoinSchema
from domain.service import GameService

NAME_OR_KEY = "name_or_key_required"


def register(blp: ContractBlueprint, service: GameService) -> None:
    @blp.route("/<string:game_id>/players")
    class Players(MethodView):
        @blp.arguments(JoinSchema())
        @blp.response(201, JoinedSchema)
        @blp.operation("joinGame", body="Join", responses={201: "Joined"},
                       parameters=["IdempotencyKey"], security=ANYONE_OR_PLAYER, failures=[
                           UNKNOWN_GAME, BAD_PLAYER_KEY, BUSY, BAD_IDEMPOTENCY_KEY,
                           Failure(422, ("idempotency_key_reused", "bad_name"), "the same "
                                   "Idempotency-Key with another request, or a name a table "
                                   "does not take"),
                           Failure(409, ("no_free_seat", "already_seated", "game_cancelled"),
                                   "no free seat (those left may be kept for invited "
                                   "players), you sit here already, or it was cancelled"),
                           Failure(401, (NAME_OR_KEY,), "neither a player key nor a `name`: "
                                   "who is joining?")],
                       rules=[{"code": NAME_OR_KEY, "status": 401,
                               "rule": "a join without a player key needs a `name`"}],
                       links={201: {
                           **game_link("joinGame", "$response.body#/game/id"),
                           **game_link("listEvents", "$response.body#/game/id"),
                           **game_link("listWebhooks", "$response.body#/game/id"),
                           # (No link to postAction: the seat just taken seldom acts first,
                           # and a link must resolve; read the game, then act.)
                           "GetGame": link("getGame", "read the game",
                                           game_id="$response.body#/game/id")}})
        def post(self, body: dict[str, Any], game_id: str) -> dict[str, Any]:
            """Take a seat: the token is shown this once

            Without a credential: the next seat open to anyone, under `name`, with a new
            seat token. With a player key: the seat you are invited to, else the next open
            one, as that player (no token: your key is your credential here). One of the
            two is needed: a join with neither is refused (401 `name_or_key_required`)."""
            player = optional_player(service)
            if player is None and not body.get("name"):
                raise ApiError(401, NAME_OR_KEY, "who is joining? send a `name` for this "
                                                 "table, or your player key",
                               headers={"WWW-Authenticate": "Bearer"})
            seat, token, table = service.join(game_id, body.get("name"), player,
                                              idempotency_key())
            return {"seat": seat, "token": token, "game": service.view(table, seat)}

    @blp.route("/<string:game_id>/back")
    class Back(MethodView):
        @blp.operation("comeBack", security=SEAT, responses={200: "GameView"},
                       headers={200: ["ETAG"]}, failures=[
                           NO_SEAT, NOT_SEATED, UNKNOWN_GAME, BUSY,
                           Failure(409, ("not_away", "game_over", "game_not_started",
                                         "game_cancelled", "seat_resigned", "seat_left"),
                                   "the seat is not away, the game is not being played, "
                                   "or the seat was given up to a bot")],
                       links={200: game_link("getGame", "$response.body#/id")})
        def post(self, game_id: str) -> Any:
            """Come back to an away seat

            After two missed deadlines in a row a seat is marked away and played by the
            server at once. This says its owner is back: from now on the seat waits for
            them again, with its deadline. Playing a move also brings a seat back."""
            _table, seat = caller_seat(service, game_id)
            table = service.come_back(game_id, seat)
            return view_answer(service.view(table, seat), table.version)
