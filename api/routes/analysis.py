"""A finished game's analysis: `GET /games/{id}/analysis` (`domain.bots.analysis`).

The first request after the end queues the analysis job (one per game, however often it is
asked); until it is made the answer is 202 with what the job is doing (and its progress),
then 200 with the analysis, the same for everyone from then on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import Response, jsonify
from flask.views import MethodView
from flask_smorest import Blueprint

from api.contract.operations import UNKNOWN_GAME, ContractBlueprint, Failure
from api.errors import ApiError
from api.schemas import AnalysisPendingSchema, AnalysisSchema
from domain.service import GameService

# Queue a finished game's analysis unless it is queued or running; what its job is doing.
RequestAnalysis = Callable[[str], Mapping[str, Any]]
RETRY_AFTER_S = 5
FAILED_RETRY_AFTER_S = 600


def make_blueprint(service: GameService, request_analysis: RequestAnalysis | None) -> Blueprint:
    blp = ContractBlueprint("analysis", __name__, url_prefix="/games",
                            description="Post-game analysis")

    @blp.route("/<string:game_id>/analysis")
    class Analysis(MethodView):
        @blp.response(200, AnalysisSchema)
        @blp.alt_response(202, schema=AnalysisPendingSchema,
                          description="the analysis is being made: ask again later",
                          headers={"Retry-After": {
                              "$ref": "#/components/headers/RetryAfter"}})
        @blp.operation("getAnalysis", failures=[
            UNKNOWN_GAME, Failure(409, ("game_not_finished",),
                                  "the game is not over (its hands are still hidden)"),
            Failure(503, ("analysis_failed",), "making the analysis failed; it is tried "
                                               "again after `Retry-After`")])
        def get(self, game_id: str) -> Response:
            """A finished game's analysis: the decisions that cost the most

            Each decision of each seat is weighed against the alternatives it had, with
            only what that seat knew then (deals sampled from its view, never the true
            one): every legal action is played on the same sampled deals and followed by
            the bots' policy to the end of the round, and compared in the game's own points
            (`unit`). `moments` names the costliest decisions, a few per seat, with the
            better action and the expected points lost; `seq` is where the replay shows
            the seat's view at that moment. The first request queues the analysis (202,
            `Retry-After`); it takes a minute or two of a worker's time, once per game."""
            document = service.analysis(game_id)
            if document is not None:
                return Response(document, status=200, mimetype="application/json")
            pending = dict(request_analysis(game_id)) if request_analysis is not None \
                else {"status": "queued"}
            if pending.get("status") == "failed":
                raise ApiError(503, "analysis_failed", "the analysis of this game failed; it "
                               "is tried again later", headers={
                                   "Retry-After": str(FAILED_RETRY_AFTER_S)})
            response = jsonify(pending)
            response.status_code = 202
            response.headers["Retry-After"] = str(RETRY_AFTER_S)
            return response

    return blp
