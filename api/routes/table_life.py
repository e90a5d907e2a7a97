"""The table's life while a game is played: resign, leave the seat to a bot, and abort by
agreement (a vote, and its withdrawal). Each answers the caller's view of the game after
it, and each is offered in the view's `table_actions` when it applies."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response
from flask.views import MethodView
from flask_smorest import Blueprint

from api.auth import bearer_token, require_seat
from api.encoding import encode_game_view
from api.errors import ErrorSchema
from api.schemas import GameViewSchema, LeaveSchema
from domain.service import GameService
from domain.table import Table

SEAT_OR_PLAYER = [{"seatToken": []}, {"playerKey": []}]
CREDENTIAL = "missing or bad token or key"
NOT_SEATED = "a player key without a seat in this game (`not_seated`)"
NOT_PLAYED = ("the game is not being played (`game_not_started`, `game_over`, "
              "`game_cancelled`, `game_aborted`), the seat was given up already "
              "(`seat_resigned`, `seat_left`), or busy (`contention`: retry after "
              "`Retry-After` seconds)")


def make_blueprint(service: GameService) -> Blueprint:
    blp = Blueprint("table_life", __name__, url_prefix="/games",
                    description="Resign, leave a seat to a bot, abort by agreement")

    def by_seat(game_id: str, command: Callable[[int], Table]) -> Response:
        """Run `command` for the caller's seat; answer the caller's view after it."""
        token = bearer_token()
        _table, seat = service.load(game_id, token)
        seat = require_seat(seat, token)
        table = command(seat)
        return Response(encode_game_view(service.view(table, seat)), status=200,
                        mimetype="application/json",
                        headers={"ETag": f'"{table.version}"'})

    @blp.route("/<string:game_id>/resign")
    class Resign(MethodView):
        @blp.response(200, GameViewSchema)
        @blp.alt_response(401, schema=ErrorSchema, description=CREDENTIAL)
        @blp.alt_response(403, schema=ErrorSchema, description=NOT_SEATED)
        @blp.alt_response(404, schema=ErrorSchema, description="unknown game")
        @blp.alt_response(409, schema=ErrorSchema, description=NOT_PLAYED)
        @blp.doc(security=SEAT_OR_PLAYER)
        def post(self, game_id: str) -> Response:
            """Resign: concede the game

            Your seat takes the worst result (placed behind every seat still in play; each
            game's rules say so in its terms, see GET /games/types/{type}), and the basic
            bot plays it to the end so that the others can finish. When fewer than two
            seats are left in play, or none of them a person's, the game ends at once
            (`outcome.early`). Resigning twice is fine. The log says so
            (`seat_resigned`)."""
            return by_seat(game_id, lambda seat: service.resign(game_id, seat))

    @blp.route("/<string:game_id>/leave")
    class Leave(MethodView):
        @blp.arguments(LeaveSchema)
        @blp.response(200, GameViewSchema)
        @blp.alt_response(401, schema=ErrorSchema, description=CREDENTIAL)
        @blp.alt_response(403, schema=ErrorSchema, description=NOT_SEATED)
        @blp.alt_response(404, schema=ErrorSchema, description="unknown game")
        @blp.alt_response(409, schema=ErrorSchema, description=NOT_PLAYED)
        @blp.alt_response(422, schema=ErrorSchema, description="not a bot level")
        @blp.doc(security=SEAT_OR_PLAYER)
        def post(self, body: dict[str, Any], game_id: str) -> Response:
            """Leave: hand your seat to a bot of the level you choose

            Everybody sees it (`seat_left` in the log, `played_by` in the seats). The bot
            plays your seat on as well as its level plays; your seat is placed as a
            resigned one (leaving never escapes a result)."""
            return by_seat(game_id, lambda seat: service.leave(game_id, seat, body["level"]))

    @blp.route("/<string:game_id>/abort")
    class Abort(MethodView):
        @blp.response(200, GameViewSchema)
        @blp.alt_response(401, schema=ErrorSchema, description=CREDENTIAL)
        @blp.alt_response(403, schema=ErrorSchema, description=NOT_SEATED)
        @blp.alt_response(404, schema=ErrorSchema, description="unknown game")
        @blp.alt_response(409, schema=ErrorSchema, description=NOT_PLAYED + "; or the "
                                                  "first round is scored (`abort_closed`)")
        @blp.doc(security=SEAT_OR_PLAYER)
        def post(self, game_id: str) -> Response:
            """Agree to abort the game

            Until the first round is scored, the people still playing may call the game
            off: when all of them agree, its status becomes `aborted` (no result, no
            rating). Bots have no say. Your vote is an event (`abort_voted`); voting twice
            is fine; `DELETE` takes it back."""
            return by_seat(game_id, lambda seat: service.vote_abort(game_id, seat))

        @blp.response(200, GameViewSchema)
        @blp.alt_response(401, schema=ErrorSchema, description=CREDENTIAL)
        @blp.alt_response(403, schema=ErrorSchema, description=NOT_SEATED)
        @blp.alt_response(404, schema=ErrorSchema, description="unknown game")
        @blp.alt_response(409, schema=ErrorSchema, description=NOT_PLAYED)
        @blp.doc(security=SEAT_OR_PLAYER)
        def delete(self, game_id: str) -> Response:
            """Take back your vote to abort

            An event too (`abort_vote_withdrawn`); without a vote, nothing happens."""
            return by_seat(game_id, lambda seat: service.withdraw_abort(game_id, seat))

    return blp
