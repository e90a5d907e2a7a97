"""Redis outages on the real stack: gunicorn's gevent worker serving `donkeypost.wsgi:app`
on a Redis of the test's own, which the test kills by PID and starts again."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
import redis

from api.outage import describe, is_unavailable
from tests.support.gunicorn import Gunicorn
from tests.support.redis_process import RedisProcess
from tests.support.workers import wait_until

SEATS = [{"kind": "human"}] * 3
NEW_GAME = {"type": "ochs-und-esel", "seats": SEATS, "options": {}, "deadline_s": None}


def _playing(client: httpx.Client) -> tuple[str, str]:
    game = client.post("/games", json=NEW_GAME).json()
    tokens = [client.post(f"/games/{game['id']}/players", json={"name": f"p{i}"}).json()["token"]
              for i in range(3)]
    return game["id"], tokens[0]


def test_requests_during_a_redis_outage_get_503_with_retry_after_then_200(tmp_path: Path):
    # `always`: under `everysec` a busy disk makes Redis hold back writes it has answered
    # (README), and the kill lost the game this test plays (seen: its AOF held no game).
    with RedisProcess(tmp_path / "redis", "always") as server, \
            Gunicorn(server.url, workers=1, log_dir=tmp_path, app="donkeypost.wsgi:app") as web, \
            httpx.Client(base_url=web.url, timeout=15) as client:
        game_id, token = _playing(client)
        seat = {"Authorization": f"Bearer {token}"}
        assert client.get(f"/games/{game_id}", headers=seat).status_code == 200

        server.kill()
        answers = []
        for _ in range(10):
            answers += [client.get(f"/games/{game_id}", headers=seat),
                        client.get(f"/games/{game_id}/events", params={"after": 0}),
                        client.post("/games", json=NEW_GAME),
                        client.post(f"/games/{game_id}/actions", json={"kind": "pass"},
                                    headers={**seat, "Idempotency-Key": "k1"})]
        assert [a.status_code for a in answers] == [503] * len(answers)
        for answer in answers:
            body = answer.json()
            assert body["code"] == "store_unavailable" and body["status"] == 503
            assert int(answer.headers["Retry-After"]) > 0
            assert str(server.socket) not in answer.text  # no path reaches a client

        health = client.get("/healthz")
        assert health.status_code == 503 and health.json()["redis"] == "unavailable"
        assert health.json()["web"] == "ok" and str(server.socket) not in health.text
        assert client.get("/healthz/live").status_code == 200

        server.start()
        wait_until(lambda: client.get(f"/games/{game_id}", headers=seat).status_code == 200,
                   10, "the game to be served again")
        assert client.post("/games", json=NEW_GAME).status_code == 201
        wait_until(lambda: "Redis is back" in (tmp_path / "gunicorn.log").read_text(), 5,
                   "the recovery's log line")
    log = (tmp_path / "gunicorn.log").read_text()
    # One line when the outage started, one when it ended: no traceback per request.
    assert log.count("Redis unavailable") == 1, log
    assert log.count("Redis is back") == 1, log
    assert "Traceback" not in log, log


@pytest.mark.parametrize(("error", "kind"), [
    (redis.exceptions.BusyLoadingError("Redis is loading the dataset in memory"),
     "loading its data"),
    (redis.exceptions.MaxConnectionsError("Too many connections"),
     "no free connection in this process"),
    (redis.ConnectionError("No connection available."), "no free connection in this process"),
    (redis.ConnectionError("max number of clients reached"), "out of client connections"),
    (redis.TimeoutError("Timeout reading from socket"), "not answering in time"),
    (redis.exceptions.OutOfMemoryError("OOM command not allowed"), "out of memory"),
    (redis.ResponseError("MISCONF Redis is configured to save RDB snapshots"),
     "refusing commands"),
    (redis.ResponseError("NOREPLICAS Not enough good replicas to write."),
     "refusing commands"),
    # A Redis Cluster while a replica takes over a master that died:
    (redis.exceptions.ClusterDownError("CLUSTERDOWN The cluster is down"),
     "a cluster node is failing over"),
    (redis.exceptions.TryAgainError("TRYAGAIN Multiple keys request during rehashing"),
     "refusing commands"),
    (redis.exceptions.ClusterError("TTL exhausted."), "a cluster node is failing over"),
    (redis.exceptions.SlotNotCoveredError('Slot "42" is not covered by the cluster.'),
     "a cluster node is failing over"),
    (redis.exceptions.RedisClusterException(
        "Redis Cluster cannot be connected. Please provide at least one reachable node"),
     "a cluster node is failing over"),
])
def test_what_counts_as_an_outage(error: Exception, kind: str):
    assert is_unavailable(error) and describe(error) == kind


def test_a_bad_command_is_not_an_outage():
    assert not is_unavailable(redis.ResponseError("WRONGTYPE Operation against a key"))
    assert not is_unavailable(redis.exceptions.NoScriptError("NOSCRIPT"))
    # Keys of two slots in one command: a mistake in the code, not the cluster's state.
    assert not is_unavailable(redis.exceptions.ClusterCrossSlotError(
        "CROSSSLOT Keys in request don't hash to the same slot"))
    assert not is_unavailable(redis.exceptions.RedisClusterException(
        "EVALSHA - all keys must map to the same key slot"))
