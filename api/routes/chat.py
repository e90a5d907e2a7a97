"""The table's chat: read it (anyone), write in it (a seat), hide a message (the creator).

Entries are numbered in the order they came; a page is read after the last one seen. The
same entries come on the game's event stream (`message`, `message_hidden`) and to the
webhooks that ask for `messages`.
"""

from __future__ import annotations

from typing import Any

import msgspec
from flask import Response
from flask.views import MethodView

from api.auth import caller_seat, caller_table, creator_credential
from api.contract.operations import (
    BAD_QUERY,
    BAD_TOKEN,
    CREATOR_OR_PLAYER,
    NO_SEAT,
    NOT_SEATED,
    SEAT,
    SEAT_OR_SPECTATOR,
    UNKNOWN_GAME,
    ContractBlueprint,
    Failure,
    link,
)
from api.schemas import ChatEntrySchema, MessagesArgsSchema, MessagesPageSchema, NewMessageSchema
from domain.chat import MAX_MESSAGES, MAX_TEXT, shown
from domain.service import GameService

UNKNOWN_MESSAGE = Failure(404, ("unknown_game", "not_found", "unknown_message"),
                          "no such game, or no such message in its chat")


def _json(body: Any, status: int) -> Response:
    return Response(msgspec.json.encode(body), status=status, mimetype="application/json")


def make_blueprint(service: GameService) -> ContractBlueprint:
    blp = ContractBlueprint("chat", __name__, url_prefix="/games",
                            description="The table's chat: seats write, everybody reads")

    @blp.route("/<string:game_id>/messages")
    class Messages(MethodView):
        @blp.arguments(MessagesArgsSchema(), location="query")
        @blp.response(200, MessagesPageSchema)
        @blp.operation("listMessages", security=SEAT_OR_SPECTATOR,
                       failures=[BAD_TOKEN, UNKNOWN_GAME, BAD_QUERY])
        def get(self, args: dict[str, Any], game_id: str) -> Response:
            """Read the table's chat, after the last entry you saw

            Everybody may read it, spectators too. Entries are `message`s (a seat's text,
            with its name) and `message_hidden`s (the game's creator hid message
            `message`); a hidden message is listed with `text: null`, `hidden: true`:
            its text is never shown again."""
            caller_table(service, game_id)
            entries = service.messages(game_id, args["after"], args["limit"])
            return _json({"messages": [shown(e) for e in entries]}, 200)

        @blp.arguments(NewMessageSchema())
        @blp.response(201, ChatEntrySchema)
        @blp.operation("postMessage", security=SEAT, body="NewMessage", failures=[
            NO_SEAT, NOT_SEATED, UNKNOWN_GAME,
            Failure(409, ("game_cancelled", "chat_full"), "the game was cancelled, or its "
                    f"chat holds {MAX_MESSAGES} messages"),
            Failure(422, ("bad_message",), "empty or only blanks (spaces, zero-width "
                    f"characters), over {MAX_TEXT} characters, or characters a message may "
                    "not hold (control characters but lines and tabs, bidirectional "
                    "overrides)")],
            links={201: {"HideMessage": link(
                "hideMessage", "hide it (the game's creator)", game_id="$request.path.game_id",
                n="$response.body#/n"), "ListMessages": link(
                "listMessages", "read the chat", game_id="$request.path.game_id")}})
        def post(self, body: dict[str, Any], game_id: str) -> Response:
            """Say something at the table (a seat)

            Only seats write: with your seat's token, or your player key where you hold a
            seat. Everybody reads (GET, the event stream's `message` events, webhooks that
            ask for `messages`)."""
            table, seat = caller_seat(service, game_id)
            entry = service.post_message(table, seat, body["text"])
            return _json(shown(entry), 201)

    @blp.route("/<string:game_id>/messages/<int:n>/hide")
    class HiddenMessage(MethodView):
        @blp.response(200, ChatEntrySchema, description="the message, hidden")
        @blp.operation("hideMessage", security=CREATOR_OR_PLAYER, failures=[
            UNKNOWN_MESSAGE,
            Failure(401, ("missing_token", "invalid_authorization", "invalid_player_key"),
                    "no credential"),
            Failure(403, ("not_allowed",), "not the creator's token or key")])
        def post(self, game_id: str, n: int) -> Response:
            """Hide a message (the game's creator)

            With the `creator_token` of POST /games, or the key of the player who created
            the game. The text is erased: nobody is shown it again. The hiding is an entry
            of the chat (`message_hidden`), so every reader learns of it. Hiding twice is
            fine."""
            return _json(shown(service.hide_message(game_id, n, creator_credential())), 200)

    return blp
