"""Game types: the games this server runs, their options and the project's rulings."""

from __future__ import annotations

from typing import Any

import msgspec
from flask import after_this_request
from flask.views import MethodView
from flask_smorest import Blueprint

from api.contract.operations import ContractBlueprint, Failure
from api.locale import request_language, varies
from api.schemas import GameTypeSchema
from domain.game import Game
from domain.i18n import Texts
from domain.registry import GameRegistry
from domain.shapes import TABLE_EVENTS


def describe(game: Game[Any, Any]) -> dict[str, Any]:
    tags = [t.__struct_config__.tag for t in getattr(game.action_type, "__args__",
                                                     (game.action_type,))]
    return {"id": game.id, "title": game.title, "min_players": game.min_players,
            "max_players": game.max_players,
            "options": [msgspec.to_builtins(o) for o in game.options],
            "rules": list(game.rules), "actions": tags,
            "events": [*TABLE_EVENTS, *(e for e in game.shapes.events if e not in TABLE_EVENTS)]}


def make_blueprint(games: GameRegistry, texts: Texts) -> Blueprint:
    blp = ContractBlueprint("types", __name__, url_prefix="/games/types",
                    description="The games, their options and rule decisions")

    @blp.route("")
    class GameTypes(MethodView):
        @blp.response(200, GameTypeSchema(many=True))
        @blp.operation("listGameTypes")
        def get(self) -> list[dict[str, Any]]:
            """List the game types

            Titles, options' descriptions and rulings in the request's language
            (`Accept-Language`, or `?lang=`: en, fr, de)."""
            lang = request_language()
            after_this_request(varies)
            return [texts.game_type(lang, describe(g)) for g in games.values()]

    @blp.route("/<string:type_id>", parameters=[{
        "in": "path", "name": "type_id", "required": True, "description": "a game type",
        "schema": {"type": "string", "enum": sorted(games)}}])
    class GameType(MethodView):
        @blp.response(200, GameTypeSchema)
        @blp.operation("getGameType", failures=[
            Failure(404, ("unknown_game_type", "not_found"), "no such game type")])
        def get(self, type_id: str) -> dict[str, Any]:
            """One game type with its options and rule decisions

            In the request's language, as the list."""
            after_this_request(varies)
            return texts.game_type(request_language(), describe(games.game(type_id)))

    return blp
