"""Liveness and readiness: the API answers and Redis answers."""

from __future__ import annotations

from typing import Any

import redis
from flask.views import MethodView
from flask_smorest import Blueprint

from api.contract.operations import ContractBlueprint, Failure
from api.errors import ApiError
from api.schemas import HealthSchema


def make_blueprint(client: redis.Redis) -> Blueprint:
    blp = ContractBlueprint("health", __name__, url_prefix="/healthz", description="Health")

    @blp.route("")
    class Health(MethodView):
        @blp.response(200, HealthSchema)
        @blp.operation("getHealth", failures=[
            Failure(503, ("redis_unavailable",), "Redis does not answer")])
        def get(self) -> dict[str, Any]:
            """Is the service up, and can it reach Redis?"""
            try:
                client.ping()
            except redis.RedisError as err:
                raise ApiError(503, "redis_unavailable", f"Redis does not answer: {err}") from None
            return {"status": "ok", "redis": "ok"}

    return blp
