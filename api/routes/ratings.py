"""The leaderboards: one per game type, players and bots by Glicko-2 rating."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api.contract.operations import BAD_QUERY, ContractBlueprint, Failure
from api.errors import ApiError
from api.paging import PagedBlueprint
from api.player_schemas import LeaderboardEntrySchema
from domain.service import GameService


def make_blueprint(service: GameService) -> PagedBlueprint:
    blp = ContractBlueprint("ratings", __name__, url_prefix="/ratings",
                            description="Leaderboards per game type")

    @blp.route("/<string:type_id>", parameters=[{
        "in": "path", "name": "type_id", "required": True, "description": "a game type",
        "schema": {"type": "string", "enum": sorted(service.games)}}])
    class Leaderboard(MethodView):
        @blp.response(200, LeaderboardEntrySchema(many=True))
        @blp.paginate()
        @blp.operation("getLeaderboard", failures=[BAD_QUERY, Failure(
            404, ("unknown_game_type", "not_found"), "no such game type")])
        @blp.doc(description="""Players rated in this game type, best rating first

Ratings are Glicko-2, updated once per finished game from the places (each game counts as
a result against every other rated seat: a win against a worse place, a draw against the
same). Bots stand among the players, each level at the rating its calibration measured
in this game type (`donkeypost calibrate`: the levels play rated games against each other);
seats taken without a player key are not rated. A rating with a high deviation is
`provisional`.""")
        def get(self, type_id: str, pagination_parameters: Any) -> list[dict[str, Any]]:
            """A game type's leaderboard"""
            if type_id not in service.games:
                raise ApiError(404, "unknown_game_type", f"no game type {type_id!r}")
            entries, total = service.leaderboard(type_id,
                                                 offset=pagination_parameters.first_item,
                                                 limit=pagination_parameters.page_size)
            pagination_parameters.item_count = total
            return entries

    return blp
