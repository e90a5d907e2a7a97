"""The games: create one, list them (newest first; the lobby is the games with a free
seat)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api.auth import optional_player
from api.contract.jsonschema import ref
from api.contract.operations import (
    ANYONE_OR_PLAYER,
    BAD_PLAYER_KEY,
    BAD_QUERY,
    ContractBlueprint,
    Failure,
    game_link,
)
from api.errors import ApiError
from api.schemas import CreatedGameSchema, CreateGameSchema, GameViewSchema, ListArgsSchema
from domain.service import GameService

REFUSED_GAME = Failure(422, ("unknown_game_type", "bad_player_count", "bad_players",
                             "bad_bot_level", "bad_option", "unknown_option", "bad_options",
                             "bad_donkey_deck", "not_enough_cards", "bad_name",
                             "bad_time_control"),
                      "the game does not take these options or seats")


def register(blp: ContractBlueprint, service: GameService) -> None:
    @blp.route("")
    class Games(MethodView):
        @blp.arguments(CreateGameSchema())
        @blp.response(201, CreatedGameSchema)
        @blp.operation("createGame", body="CreateGame", responses={201: "CreatedGame"},
                       security=ANYONE_OR_PLAYER, failures=[REFUSED_GAME, BAD_PLAYER_KEY, Failure(
                           404, ("unknown_player",), "no player has the name invited")],
                       links={201: {
                           name: target for op in ("joinGame", "getGame", "registerWebhook",
                                                   "streamEvents", "exportLog", "cancelGame")
                           for name, target in game_link(op, "$response.body#/id").items()}})
        def post(self, body: dict[str, Any]) -> dict[str, Any]:
            """Create a game

            Seats are `human` (taken later with POST /games/{id}/players) or `bot`. With a
            player key, a human seat may say `"me": true` (you sit there) or
            `"invite": "<player name>"` (kept for that player: only they may take it);
            other human seats are open to anyone. The game starts when every seat is
            taken. The answer's `creator_token` (shown once) is the creator's credential,
            e.g. for a game-wide webhook or to cancel the game before it starts."""
            if body["type"] not in service.games:
                raise ApiError(422, "unknown_game_type", f"no game type {body['type']!r}",
                               errors={"type": [f"one of {sorted(service.games)}"]})
            by = optional_player(service)
            table = service.create(body["type"], body["options"], body["seats"],
                                   deadline_s=body["deadline_s"], on_timeout=body["on_timeout"],
                                   bot_delay_s=body["bot_delay_s"], by=by,
                                   time_control=body["time_control"])
            return {**service.view(table, table.seat_of(by.id) if by else None),
                    "creator_token": service.issue_creator_token(table.id)}

        @blp.etag
        @blp.arguments(ListArgsSchema(), location="query")
        @blp.response(200, GameViewSchema(many=True))
        @blp.paginate()
        @blp.operation("listGames", failures=[BAD_QUERY],
                       responses={200: {"type": "array", "items": ref("GameView")}})
        def get(self, args: dict[str, Any], pagination_parameters: Any) -> list[dict[str, Any]]:
            """List games, newest first (filter by status and type)

            `has_free_seat=true` is the lobby: open games with a seat anyone may take. A
            game that is over (finished, aborted, cancelled) is listed with its seats,
            result and times but without its final board (`game` is null): GET
            /games/{id} shows it."""
            tables, total = service.list_games(
                args.get("status"), args.get("type"),
                offset=pagination_parameters.first_item,
                limit=pagination_parameters.page_size,
                free_seat=args.get("has_free_seat", False))
            pagination_parameters.item_count = total
            # Each seat's `time_left` as of now: a bank that runs changes the page (and
            # its ETag) as it runs; pages without one keep their ETag.
            return [service.view(t, None) for t in tables]
