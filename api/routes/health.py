"""Health: this web process, Redis, and each kind of worker with the age of its heartbeat.

`GET /healthz` answers 200 when Redis answers, every required kind of worker has beaten
recently and no queue's oldest job has waited longer than its limit (workers may beat and
still never reach a queue: all busy, or serving others), else 503 with the same report (a
monitor reads which part is missing or late). It says
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
# The store's memory in use and its own limit (None: none), in bytes.
MemoryUse = Callable[[], tuple[int, int | None]]
MEMORY_WARNING = 0.8  # of the budget: /healthz warns from here
# Each queue: (jobs waiting in it, seconds its oldest job has waited or None when empty,
# whether a game waits on its jobs).
QueueWaits = Callable[[float], Mapping[str, tuple[int, float | None, bool]]]


def make_blueprint(client: RedisClient, worker_beats: WorkerBeats | None,
                   required: Sequence[str], stale_after_s: float,
                   clock: Callable[[], float] = time.time,
                   queue_waits: QueueWaits | None = None,
                   queue_wait_limit_s: float = 60.0, memory: MemoryUse | None = None,
                   memory_budget: int | None = None) -> Blueprint:
    """`worker_beats` reads each worker kind's last heartbeat (epoch seconds, None: none);
    the kinds in `required` must have one younger than `stale_after_s`. `queue_waits`
    (given the time now) reads each queue's waiting jobs; a queue whose oldest job has
    waited longer than `queue_wait_limit_s` is late (503 for a queue games wait on, when
    some kind of worker is required; a warning in the report otherwise). `memory` reads
    the store's memory, measured against `memory_budget` (bytes; None: the store's own
    limit, if any): a warning from MEMORY_WARNING of it, unavailable past it."""
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
        queues, late = _queue_report(queue_waits, queue_wait_limit_s, bool(required), now)
        memory_use = _memory_report(memory, memory_budget)
        healthy = healthy and not late and memory_use["status"] != "over"
        return {"status": "ok" if healthy else "unavailable", "web": "ok",
                "redis": store, "workers": workers, "queues": queues,
                "memory": memory_use}, healthy

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
            heartbeat; `stale` past the limit, `missing` when none was ever seen. Each
            queue with its waiting jobs and how long the oldest has waited; `late` past
            the limit (`DONKEYPOST_HEALTH_QUEUE_WAIT_S`): 503 for a queue games wait on
            (`stalls_play`: deadlines, bots' turns), a warning for background work
            (ratings, analyses, archiving, notifications). The games' store's memory against
            its budget (`DONKEYPOST_MEMORY_BUDGET_MB`, else Redis's maxmemory): `warning`
            from 80 %, `over` past it (503)."""
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


def _memory_report(memory: MemoryUse | None, memory_budget: int | None) -> dict[str, Any]:
    """The store's memory against its budget (`memory_budget`, else the store's limit)."""
    used: int | None = None
    budget = memory_budget
    if memory is not None:
        try:
            used, limit = memory()
            budget = budget or limit
        except STORE_ERRORS:
            used = None
    if used is None or not budget:
        return {"status": "unknown", "used_bytes": used, "budget_bytes": budget,
                "used_fraction": None}
    fraction = used / budget
    status = "over" if fraction > 1 else "warning" if fraction >= MEMORY_WARNING else "ok"
    return {"status": status, "used_bytes": used, "budget_bytes": budget,
            "used_fraction": round(fraction, 4)}


def _queue_report(queue_waits: QueueWaits | None, limit_s: float, workers_expected: bool,
                  now: float) -> tuple[dict[str, dict[str, Any]], bool]:
    """Each queue's report, and whether a late one makes the service unavailable."""
    if queue_waits is None:
        return {}, False
    try:
        waits = queue_waits(now)
    except redis.RedisError:
        return {}, False  # the queues' Redis is away: the workers' report says so
    out: dict[str, dict[str, Any]] = {}
    for name, (waiting, oldest, stalls) in sorted(waits.items()):
        status = "late" if oldest is not None and oldest > limit_s else "ok"
        out[name] = {"status": status, "waiting": waiting, "stalls_play": stalls,
                     "oldest_wait_s": round(oldest, 1) if oldest is not None else None}
    # A late background queue is a warning in the report; a late queue that games wait
    # on is a service that does not play (503), where workers are expected at all (a
    # web tier checked alone, no kind of worker required, only reports its queues).
    return out, workers_expected and any(q["status"] == "late" and q["stalls_play"]
                                         for q in out.values())
