"""A seat takes its last move back; the clocks' settings: a seat's forced moves, a
player's forced moves and vacations. Each reaches the tables as events of their logs
(`domain.service.take_back`, `domain.service.seat_clocks`)."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask.views import MethodView

from api.auth import bearer_token, require_player, require_seat
from api.clock_schemas import (
    ClockSettingsChangeSchema,
    ClockSettingsSchema,
    ForcedMovesSchema,
    NewVacationSchema,
)
from api.contract.operations import (
    BUSY,
    NO_PLAYER_KEY,
    NO_SEAT,
    NOT_SEATED,
    PLAYER,
    SEAT,
    UNKNOWN_GAME,
    ContractBlueprint,
    Failure,
    game_link,
)
from api.encoding import encode_game_view
from api.routes.table_life import NOT_PLAYED, NOT_PLAYED_CODES
from api.schemas import GameViewSchema
from domain.service import GameService

VACATION_REFUSED = Failure(409, ("on_vacation", "vacation_allowance"),
                           "a vacation runs already, or not enough days are left this year")
BAD_VACATION = Failure(422, ("bad_vacation",), "more days than a vacation may last")
TAKE_BACK_REFUSED = Failure(409, ("take_back_closed", *NOT_PLAYED_CODES),
                            "not your last action, someone acted since, your game does not "
                            "allow taking it back, or the game is not being played")


def make_blueprint(service: GameService) -> ContractBlueprint:
    blp = ContractBlueprint("clocks", __name__, url_prefix="",
                            description="Forced moves that play themselves; vacations")

    @blp.route("/games/<string:game_id>/take-back")
    class TakeBack(MethodView):
        @blp.response(200, GameViewSchema)
        @blp.operation("takeBack", security=SEAT, responses={200: "GameView"},
                       headers={200: ["ETAG"]},
                       failures=[NO_SEAT, NOT_SEATED, UNKNOWN_GAME, BUSY, TAKE_BACK_REFUSED],
                       links={200: game_link("getGame", "$request.path.game_id")})
        def post(self, game_id: str) -> Response:
            """Take your last action back

            Only your own last action, before any other seat acts, and only one your game
            allows: nothing hidden was revealed by it (no card drawn, no hidden load
            revealed, no trick completed) and nothing was drawn at random (GET
            /games/types/{type}: the Decision lines on take-backs). The view offers it in
            `table_actions` exactly then. The log keeps the action and adds
            `move_taken_back`; the table is as it was before the action, your clock too
            (the time you took counts)."""
            token = bearer_token()
            _table, seat = service.load(game_id, token)
            seat = require_seat(seat, token)
            table = service.take_back(game_id, seat)
            return Response(encode_game_view(service.view(table, seat)), status=200,
                            mimetype="application/json",
                            headers={"ETag": f'"{table.version}"'})

    @blp.route("/games/<string:game_id>/forced-moves")
    class SeatForcedMoves(MethodView):
        @blp.arguments(ForcedMovesSchema())
        @blp.response(200, GameViewSchema)
        @blp.operation("setForcedMoves", security=SEAT, body="ForcedMoves",
                       responses={200: "GameView"}, headers={200: ["ETAG"]},
                       failures=[NO_SEAT, NOT_SEATED, UNKNOWN_GAME, BUSY, NOT_PLAYED],
                       links={200: game_link("getGame", "$request.path.game_id")})
        def put(self, body: dict[str, Any], game_id: str) -> Response:
            """Let this seat's forced moves play themselves (or not)

            For this table only (a player's own setting covers all their tables: PUT
            /players/me/settings). The table hears it as an event (`forced_moves_set`),
            and a forced move waiting now is played at once. A move is forced when it is
            the seat's only legal action and the game rules that playing it at once tells
            nobody anything (GET /games/types/{type}: the Decision lines on forced moves)."""
            token = bearer_token()
            _table, seat = service.load(game_id, token)
            seat = require_seat(seat, token)
            table = service.set_seat_forced(game_id, seat, body["auto"])
            return Response(encode_game_view(service.view(table, seat)), status=200,
                            mimetype="application/json",
                            headers={"ETag": f'"{table.version}"'})

    @blp.route("/players/me/settings")
    class Settings(MethodView):
        @blp.response(200, ClockSettingsSchema)
        @blp.operation("getMySettings", security=PLAYER, failures=[NO_PLAYER_KEY])
        def get(self) -> dict[str, Any]:
            """Your clock settings: forced moves, vacation days"""
            return service.clock_settings(require_player(service))

        @blp.arguments(ClockSettingsChangeSchema())
        @blp.response(200, ClockSettingsSchema)
        @blp.operation("setMySettings", security=PLAYER, body="ClockSettingsChange",
                       failures=[NO_PLAYER_KEY])
        def put(self, body: dict[str, Any]) -> dict[str, Any]:
            """Let your forced moves play themselves (or not), in every game you play

            Each of your games hears it as an event (`forced_moves_set`); the tables you
            sit down at later too."""
            return service.set_player_forced(require_player(service), body["auto_forced"])

    @blp.route("/players/me/vacation")
    class Vacation(MethodView):
        @blp.arguments(NewVacationSchema())
        @blp.response(200, ClockSettingsSchema)
        @blp.operation("startVacation", security=PLAYER, body="NewVacation",
                       failures=[NO_PLAYER_KEY, VACATION_REFUSED, BAD_VACATION])
        def post(self, body: dict[str, Any]) -> dict[str, Any]:
            """Go on vacation: your clocks stop for `days` whole days

            In every correspondence game you play that allows vacations (its
            `time_control.vacation`), your bank stops now and runs again when the vacation
            ends; the others see `vacation_until` on your seat. A year has
            `allowance_days` of vacation (counted once, however many games you play),
            at most `max_days` at once; every day begun counts. One vacation at a time."""
            return service.start_vacation(require_player(service), body["days"])

        @blp.response(200, ClockSettingsSchema)
        @blp.operation("endVacation", security=PLAYER, failures=[NO_PLAYER_KEY])
        def delete(self) -> dict[str, Any]:
            """Come back from vacation early

            Your clocks run again now; the whole days not begun are given back. Without a
            vacation, nothing happens."""
            return service.end_vacation(require_player(service))

    return blp
