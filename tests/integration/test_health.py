"""`/healthz` with real `donkeypost worker` processes: every kind of worker with the age of
its heartbeat; 503 while one is missing, 200 once all beat, 503 again when one dies."""

from __future__ import annotations

import time

from domain.service import NoHooks
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings
from tests.support.workers import WorkerProcess, wait_until
from workers import heartbeats

STALE_S = 4.0


def _health(client) -> tuple[int, dict]:
    answer = client.get("/healthz")
    return answer.status_code, answer.get_json()


def _all_stale(body: dict) -> dict | None:
    return body if all(w["status"] == "stale" for w in body["workers"].values()) else None


def test_healthz_reports_each_kind_of_worker_and_answers_503_when_one_is_missing(
        redis_url, redis_client, tmp_path):
    app = web_app(bootstrap(Settings(redis_url=redis_url, health_stale_s=STALE_S),
                            hooks=NoHooks()))
    client = app.test_client()
    status, body = _health(client)
    assert status == 503 and body["status"] == "unavailable"
    assert body["web"] == "ok" and body["redis"] == "ok"
    assert {k: w["status"] for k, w in body["workers"].items()} == {
        kind: "missing" for kind in heartbeats.KINDS}

    worker = WorkerProcess(redis_url, tmp_path / "worker.log")  # every queue
    try:
        status, body = wait_until(lambda: (h := _health(client))[0] == 200 and h, 30,
                                  "every kind of worker")
        assert body["status"] == "ok"
        for kind in heartbeats.KINDS:
            one = body["workers"][kind]
            assert one["status"] == "ok" and one["required"], (kind, body)
            assert 0 <= one["heartbeat_age_s"] <= STALE_S
        assert redis_url.split("://", 1)[1] not in client.get("/healthz").get_data(True)

        worker.kill()
        body = wait_until(lambda: _all_stale(_health(client)[1]), STALE_S + 10,
                          "every kind to go stale")
        assert _health(client)[0] == 503
        assert body["status"] == "unavailable" and body["redis"] == "ok" and body["web"] == "ok"
    finally:
        worker.stop()


def test_only_the_required_kinds_decide_and_live_always_answers(redis_url, redis_client):
    app = web_app(bootstrap(Settings(redis_url=redis_url, health_workers=("bots",)),
                            hooks=NoHooks()))
    client = app.test_client()
    status, body = _health(client)
    assert status == 503 and body["workers"]["bots"] == {
        "status": "missing", "heartbeat_age_s": None, "required": True}
    heartbeats.beat(redis_client, ["bots"], now=time.time())
    status, body = _health(client)
    assert status == 200 and body["workers"]["bots"]["status"] == "ok"
    assert body["workers"]["timers"]["required"] is False
    assert client.get("/healthz/live").get_json() == {"status": "ok", "web": "ok"}


def test_a_queue_whose_oldest_job_waits_too_long_is_late(redis_url, redis_client, tmp_path):
    """Workers that beat are not enough: a queue they never reach shows in its wait. A late
    queue that games wait on (a bot's turn) makes the service unavailable; late background
    work (a rating) is a warning in the report."""
    components = bootstrap(Settings(redis_url=redis_url, health_workers=("bots",),
                                    health_queue_wait_s=1.0))
    client = web_app(components).test_client()
    heartbeats.beat(redis_client, ["bots"], now=time.time())
    status, body = _health(client)
    assert status == 200 and body["queues"]["ratings"] == {
        "status": "ok", "waiting": 0, "oldest_wait_s": None, "stalls_play": False}
    assert body["queues"]["bots"]["stalls_play"] is True
    components.rq_hooks.enqueue_ratings(["g1"])  # nobody serves the ratings
    status, body = _health(client)
    assert status == 200 and body["queues"]["ratings"]["waiting"] == 1
    assert 0 <= body["queues"]["ratings"]["oldest_wait_s"] < 1.0
    time.sleep(1.2)
    heartbeats.beat(redis_client, ["bots"], now=time.time())
    status, body = _health(client)
    assert status == 200 and body["status"] == "ok"  # play goes on
    assert body["queues"]["ratings"]["status"] == "late"
    assert body["queues"]["ratings"]["oldest_wait_s"] > 1.0
    # A bot's turn nobody takes: that table stands still.
    components.service.create("ochs-und-esel", {"rounds": 1},
                              [{"kind": "bot", "level": "basic"}] * 3)
    assert body["workers"]["bots"]["status"] == "ok"
    time.sleep(1.2)
    heartbeats.beat(redis_client, ["bots"], now=time.time())
    status, body = _health(client)
    assert status == 503 and body["status"] == "unavailable"
    assert body["workers"]["bots"]["status"] == "ok"  # every worker beats, all the same
    assert {name for name, q in body["queues"].items() if q["status"] == "late"} == {
        "ratings", "bots"}
    # A web tier checked alone (no kind of worker required): the queues are reported late,
    # and nobody being expected to take their jobs, the answer stays 200.
    alone = web_app(bootstrap(Settings(redis_url=redis_url, health_workers=(),
                                       health_queue_wait_s=1.0))).test_client()
    status, body = _health(alone)
    assert status == 200 and body["queues"]["bots"]["status"] == "late"
