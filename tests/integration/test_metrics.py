"""`GET /metrics` under a gunicorn of two worker processes, in prometheus_client's
multiprocess mode: parsed with the client library's own parser, its counts after a known
number of moves are those moves, whichever process served them or the scrape."""

from __future__ import annotations

import os
import subprocess
import time

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from donkeypost.web_servers import web_command
from tests.support.serve import free_port

TOKEN = "scrape-secret-for-tests"
MOVES = 12


def _scrape(url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    r = httpx.get(f"{url}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30)
    assert r.status_code == 200, r.text
    out = {}
    for family in text_string_to_metric_families(r.text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def _value(scrape, name: str, **labels: str) -> float:
    return scrape.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture
def server(redis_url, redis_client, tmp_path):
    port = free_port()
    folder = tmp_path / "metrics"
    folder.mkdir()
    env = {**os.environ, "REDIS_URL": redis_url, "RATE_LIMITS": "off", "LOG_REQUESTS": "off",
           "METRICS_TOKEN": TOKEN, "PROMETHEUS_MULTIPROC_DIR": str(folder)}
    proc = subprocess.Popen(web_command("gunicorn", "127.0.0.1", port, 2, 50), env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/healthz/live", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.2)
        yield url, folder
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_the_counts_after_a_known_number_of_moves(server) -> None:
    url, folder = server
    assert httpx.get(f"{url}/metrics").status_code == 401
    assert httpx.get(f"{url}/metrics", headers={"Authorization": "Bearer nope"}
                     ).status_code == 401
    before = _scrape(url)
    # A new connection per request: the kernel spreads them over both workers.
    with httpx.Client(base_url=url, timeout=30,
                      limits=httpx.Limits(max_keepalive_connections=0)) as http:
        game = http.post("/games", json={"type": "ochs-und-esel", "deadline_s": None,
                                         "seats": [{"kind": "human"}] * 3}).json()
        tokens = [""] * 3
        for name in ("ann", "bob", "cy"):
            joined = http.post(f"/games/{game['id']}/players", json={"name": name}).json()
            tokens[joined["seat"]] = joined["token"]
        for _ in range(MOVES):
            seat = http.get(f"/games/{game['id']}").json()["to_act"][0]
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            move = http.get(f"/games/{game['id']}", headers=auth).json()["legal_actions"][0]
            r = http.post(f"/games/{game['id']}/actions", json=move, headers=auth)
            assert r.status_code == 200, r.text
    after = _scrape(url)
    route = "/games/{game_id}/actions"
    assert _value(after, "donkeypost_http_requests_total", method="POST", route=route,
                  status="200") - _value(before, "donkeypost_http_requests_total",
                                         method="POST", route=route, status="200") == MOVES
    assert _value(after, "donkeypost_http_request_duration_seconds_count", method="POST",
                  route=route) == MOVES
    assert _value(after, "donkeypost_http_requests_total", method="GET",
                  route="/games/{game_id}", status="200") == 2 * MOVES
    appends = _value(after, "donkeypost_appends_total", game_type="ochs-und-esel")
    assert appends == 1 + 3 + MOVES  # the creation, three joins, the moves
    assert _value(after, "donkeypost_append_duration_seconds_count") == appends
    assert _value(after, "donkeypost_games", status="active", type="ochs-und-esel") == 1
    assert _value(after, "donkeypost_redis_used_memory_bytes") > 0
    assert 0 < _value(after, "donkeypost_redis_round_trip_seconds") < 1
    assert ("donkeypost_queue_jobs", (("queue", "bots"),)) in after
    # Both web processes counted: each wrote its own file, and the scrape added them up.
    pids = {p.name.rsplit("_", 1)[1] for p in folder.glob("counter_*.db")}
    assert len(pids) >= 2, pids
