"""Health: this web process, Redis, and each kind of worker with the age of its heartbeat.

`GET /healthz` answers 200 when Redis answers and every required kind of worker has beaten
recently, else 503 with the same report (a monitor reads which part is missing). It says
what is missing, never where: no address, path or error text. `GET /healthz/live` answers
200 whenever this web process can answer at all (for a load balancer: a missing worker
must not take the web tier out of rotation).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import redis
from flask import Response, jsonify
from flask.views import MethodView
from flask_smorest import Blueprint

from api.contract.operations import ContractBlueprint
from api.outage import STORE_ERRORS
from api.schemas import HealthSchema, LiveSchema
from domain.connection import RedisClient, ping

WorkerBeats = Callable[[], Mapping[str, float | None]]


def make_blueprint(client: RedisClient, worker_beats: WorkerBeats | None,
                   required: Sequence[str], stale_after_s: float,
                   clock: Callable[[], float] = time.time) -> Blueprint:
    """`worker_beats` reads each worker kind's last heartbeat (epoch seconds, None: none);
    the kinds in `required` must have one younger than `stale_after_s`."""
    blp = ContractBlueprint("health", __name__, url_prefix="/healthz", description="Health")

    def report() -> tuple[dict[str, Any], bool]:
        try:  # (on a cluster: every master)
            store = "ok" if ping(client) else "unavailable"
        except STORE_ERRORS:
            store = "unavailable"
        healthy = store == "ok"
        workers: dict[str, dict[str, Any]] = {}
        beats: Mapping[str, float | None] = {}
        known = worker_beats is not None
        if worker_beats is not None:
            try:
                beats = worker_beats()
            except redis.RedisError:
                known = False
        now = clock()
        for kind in sorted(set(required) | set(beats)):
            last = beats.get(kind)
            age = round(max(0.0, now - last), 1) if last is not None else None
            if not known:
                status = "unknown"
            elif age is None:
                status = "missing"
            else:
                status = "ok" if age <= stale_after_s else "stale"
            if kind in required and status != "ok":
                healthy = False
            workers[kind] = {"status": status, "heartbeat_age_s": age,
                             "required": kind in required}
        return {"status": "ok" if healthy else "unavailable", "web": "ok", "redis": store,
                "workers": workers}, healthy

    @blp.route("")
    class Health(MethodView):
        @blp.response(200, HealthSchema)
        @blp.alt_response(503, schema=HealthSchema,
                          description="Redis or a required kind of worker is missing (the "
                                      "same report, not an error: see `status`)",
                          headers={"Retry-After": {"$ref": "#/components/headers/RetryAfter"}})
        @blp.operation("getHealth")
        def get(self) -> Response:
            """Is the service whole: this web process, Redis, and each kind of worker?

            Each worker kind (`bots`, `deadlines`, `notifications`, `timers`: the pump
            that releases timers and scheduled retries) with the age of its last
            heartbeat; `stale` past the limit, `missing` when none was ever seen."""
            body, healthy = report()
            response = jsonify(body)
            response.status_code = 200 if healthy else 503
            if not healthy:
                response.headers["Retry-After"] = "5"
            return response

    @blp.route("/live")
    class Live(MethodView):
        @blp.response(200, LiveSchema)
        @blp.operation("getLiveness")
        def get(self) -> dict[str, str]:
            """Does this web process answer? (Nothing else is checked.)"""
            return {"status": "ok", "web": "ok"}

    return blp
