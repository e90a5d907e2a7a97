"""The table's life while a game is played: resign, leave the seat to a bot, and abort by
agreement (a vote, and its withdrawal). Each answers the caller's view of the game after
it, and each is offered in the view's `table_actions` when it applies."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response
from flask.views import MethodView

from api.auth import caller_seat
from api.contract.operations import (
    BUSY,
    NO_SEAT,
    NOT_SEATED,
    SEAT,
    UNKNOWN_GAME,
    ContractBlueprint,
    Failure,
    game_link,
)
from api.routes.game_headers import view_answer
from api.schemas import GameViewSchema, LeaveSchema
from domain.service import GameService
from domain.table import Table

NOT_PLAYED_CODES = ("game_not_started", "game_over", "game_cancelled", "game_aborted",
                    "seat_resigned", "seat_left")
NOT_PLAYED = Failure(409, NOT_PLAYED_CODES, "the game is not being played, or the seat was "
                                            "given up already (resigned, or left to a bot)")
ABORT_CLOSED = Failure(409, ("abort_closed",), "the first round is scored: too late to abort")
BAD_LEVEL = Failure(422, ("bad_bot_level",), "not a bot level")


def _operation(blp: ContractBlueprint, operation_id: str, *extra: Failure,
               body: str | None = None) -> Any:
    """How each of these is documented: by a seat, answering the caller's view."""
    return blp.operation(operation_id, security=SEAT, body=body, responses={200: "GameView"},
                         headers={200: ["ETAG"]},
                         failures=[NO_SEAT, NOT_SEATED, UNKNOWN_GAME, BUSY, NOT_PLAYED, *extra],
                         links={200: game_link("getGame", "$request.path.game_id")})


def make_blueprint(service: GameService) -> ContractBlueprint:
    blp = ContractBlueprint("table_life", __name__, url_prefix="/games",
                            description="Resign, leave a seat to a bot, abort by agreement")

    def by_seat(game_id: str, command: Callable[[int], Table]) -> Response:
        """Run `command` for the caller's seat; answer the caller's view after it."""
        _table, seat = caller_seat(service, game_id)
        table = command(seat)
        return view_answer(service.view(table, seat), table.version)

    @blp.route("/<string:game_id>/resign")
    class Resign(MethodView):
        @blp.response(200, GameViewSchema)
        @_operation(blp, "resignGame")
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
        @blp.arguments(LeaveSchema())
        @blp.response(200, GameViewSchema)
        @_operation(blp, "leaveGame", BAD_LEVEL, body="Leave")
        def post(self, body: dict[str, Any], game_id: str) -> Response:
            """Leave: hand your seat to a bot of the level you choose

            Everybody sees it (`seat_left` in the log, `played_by` in the seats). The bot
            plays your seat on as well as its level plays; your seat is placed as a
            resigned one (leaving never escapes a result)."""
            return by_seat(game_id, lambda seat: service.leave(game_id, seat, body["level"]))

    @blp.route("/<string:game_id>/abort")
    class Abort(MethodView):
        @blp.response(200, GameViewSchema)
        @_operation(blp, "voteAbort", ABORT_CLOSED)
        def post(self, game_id: str) -> Response:
            """Agree to abort the game

            Until the first round is scored, the people still playing may call the game
            off: when all of them agree, its status becomes `aborted` (no result, no
            rating). Bots have no say. Your vote is an event (`abort_voted`); voting twice
            is fine; `DELETE` takes it back."""
            return by_seat(game_id, lambda seat: service.vote_abort(game_id, seat))

        @blp.response(200, GameViewSchema)
        @_operation(blp, "withdrawAbort")
        def delete(self, game_id: str) -> Response:
            """Take back your vote to abort

            An event too (`abort_vote_withdrawn`); without a vote, nothing happens."""
            return by_seat(game_id, lambda seat: service.withdraw_abort(game_id, seat))

    return blp
