"""Playing: one action of a seat, answered with the events it caused and the caller's new
view."""

from __future__ import annotations

from typing import Any

import msgspec
from flask import Response, request
from flask.views import MethodView

from api.auth import bearer_token, require_seat
from api.contract.operations import (
    BAD_IDEMPOTENCY_KEY,
    BAD_QUERY,
    BUSY,
    NO_SEAT,
    NOT_SEATED,
    SEAT,
    UNKNOWN_GAME,
    ContractBlueprint,
    Failure,
    game_link,
)
from api.encoding import encode_game_view, with_view
from api.errors import ApiError, from_domain
from api.locale import game_words
from api.routes.game_headers import (
    etag,
    idempotency_key,
    if_match,
    if_match_hint,
    words_asked,
)
from api.schemas import ActedSchema
from domain.errors import DomainError, UnknownGame
from domain.service import GameService
from domain.table import Table
from domain.texts import Translate

GAME_STATE = ("not_your_turn", "game_over", "game_not_started", "game_cancelled",
              "game_aborted", "seat_resigned", "seat_left", "out_of_time")


def _legal(service: GameService, table: Table, seat: int) -> list[Any]:
    return service.view(table, seat)["legal_actions"]


def _told(service: GameService, table: Table, body: bytes, words: Translate) -> bytes:
    """An action's answer with its events' sentences (asked with `words=true`): told with
    the seats' names of the table right after them."""
    answer = msgspec.json.decode(body)
    service.with_sentences(table, answer["events"], words)
    return msgspec.json.encode(answer)


def register(blp: ContractBlueprint, service: GameService) -> None:
    @blp.route("/<string:game_id>/actions")
    class Actions(MethodView):
        @blp.response(200, ActedSchema)
        @blp.operation("postAction", security=SEAT, body="Action", responses={200: "Acted"},
                       parameters=["IfMatch", "IdempotencyKey", "Words"], headers={200: ["ETAG"]},
                       failures=[
                           NO_SEAT, NOT_SEATED, UNKNOWN_GAME, BUSY, BAD_QUERY,
                           Failure(409, GAME_STATE, "not your turn, the game is not being "
                                                    "played, or your seat was given up to a "
                                                    "bot (`legal_actions` says what you may "
                                                    "do)"),
                           Failure(412, ("version_mismatch",),
                                   "the game is not at the If-Match version"),
                           BAD_IDEMPOTENCY_KEY,
                           Failure(422, ("bad_action", "idempotency_key_reused"),
                                   "the same Idempotency-Key with another body, or not an "
                                   "action of this game, or "
                                   "one the rules forbid: then the rule's own code (e.g. "
                                   "`too_low`, `not_in_hand`, `donkey_locked`; each game's "
                                   "module lists them), with `legal_actions`")],
                       links={200: {
                           **game_link("getGame", "$request.path.game_id"),
                           **game_link("getState", "$request.path.game_id",
                                       "$response.body#/version"),
                           **game_link("listEvents", "$request.path.game_id"),
                           **game_link("takeBack", "$request.path.game_id")}})
        def post(self, game_id: str) -> Any:
            """Play one action

            The events it caused come back as the caller may see them, with the caller's
            new `view` of the game (its `legal_actions` when it is still to act; with
            `words=true` labelled and laid out, and the events told in sentences): no GET
            is needed after a move. A retried
            request (the same `Idempotency-Key`) gets the first answer, view included."""
            asked = words_asked()
            token = bearer_token()
            loaded = service.load_to_act(game_id, token, version=if_match_hint())
            seat = require_seat(loaded.seat, token)
            action = request.get_json(silent=True)
            if not isinstance(action, dict):
                now, _ = service.load(game_id)
                raise ApiError(422, "bad_action", "the body must be a JSON object (an action)",
                               version=now.version, legal_actions=_legal(service, now, seat))
            key = idempotency_key()
            try:
                result = service.act(game_id, seat, action, if_match=if_match(),
                                     idempotency_key=key, loaded=loaded)
            except DomainError as err:
                if isinstance(err, UnknownGame):
                    raise
                now, _ = service.load(game_id)
                raise from_domain(err, version=now.version,
                                  legal_actions=_legal(service, now, seat)) from None
            table = result.table
            if result.replayed:  # the first answer's view: of the game at its version
                table = service.table_at(game_id, msgspec.json.decode(result.body)["version"])
            words = game_words(asked, table.type)
            view = encode_game_view(service.view(table, seat, words))
            body = result.body if words is None else _told(service, table, result.body, words)
            return Response(with_view(body, view), status=200,
                            mimetype="application/json",
                            headers={"ETag": etag(table.version)})
