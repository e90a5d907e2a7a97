"""Every answer carries an X-Request-ID, every error body the same id, and the request's
log line its id, route, status, duration and game, never a token."""

from __future__ import annotations

import json
import logging

import pytest

from api.observe import HEADER
from donkeypost.logs import JsonFormatter, RequestIdFilter
from tests.e2e.api_client import ApiClient


def _answer(api, method: str, path: str, **kwargs):
    response = api.http.open(path, method=method, buffered=True, **kwargs)
    return response


@pytest.mark.parametrize("method,path,status", [
    ("GET", "/healthz/live", 200),
    ("GET", "/games/nope", 404),
    ("GET", "/no/such/path", 404),
    ("POST", "/players", 422),
    ("DELETE", "/games", 405),
])
def test_every_answer_carries_a_request_id(api, method, path, status) -> None:
    response = _answer(api, method, path, json={} if method == "POST" else None)
    assert response.status_code == status
    rid = response.headers[HEADER]
    assert len(rid) == 24 and int(rid, 16) >= 0
    if status >= 400:
        assert response.get_json()["request_id"] == rid


def test_ids_differ_between_requests(api) -> None:
    ids = {_answer(api, "GET", "/healthz/live").headers[HEADER] for _ in range(5)}
    assert len(ids) == 5


def test_a_clients_well_formed_id_is_kept_and_a_malformed_one_replaced(api) -> None:
    mine = "3f1c2a9e-7b4d-4c1a-9e8f-0a1b2c3d4e5f"
    response = _answer(api, "GET", "/games/nope", headers={HEADER: mine})
    assert response.headers[HEADER] == mine
    assert response.get_json()["request_id"] == mine
    for bad in ("has space", "x" * 129, "semi\"quote", ""):
        response = _answer(api, "GET", "/games/nope", headers={HEADER: bad})
        rid = response.headers[HEADER]
        assert rid != bad and len(rid) == 24
        assert response.get_json()["request_id"] == rid


def test_the_request_line_names_route_status_game_and_no_token(api, caplog) -> None:
    game_id, tokens = api.new_game("ochs-und-esel", 3)
    view = api.view(game_id, tokens[0])
    seat = view["to_act"][0]
    move = api.view(game_id, tokens[seat])["legal_actions"][0]
    caplog.set_level(logging.INFO, logger="donkeypost.requests")
    response = api.http.post(f"/games/{game_id}/actions", json=move, buffered=True,
                             headers={**api.auth(tokens[seat]), HEADER: "trace-42"})
    assert response.status_code == 200
    [record] = [r for r in caplog.records if r.name == "donkeypost.requests"]
    assert record.request_id == "trace-42"
    assert record.route == "/games/{game_id}/actions"
    assert record.method == "POST" and record.status == 200
    assert record.game_id == game_id and record.duration_ms > 0
    line = json.loads(JsonFormatter("web").format(record))
    assert line["level"] == "INFO" and line["time"].endswith("Z")
    assert {"request_id": "trace-42", "route": "/games/{game_id}/actions",
            "status": 200, "game_id": game_id}.items() <= line.items()
    text = json.dumps(line)
    assert tokens[seat] not in text


def test_lines_written_during_a_request_carry_its_id(redis_url, redis_client, caplog) -> None:
    """A log line an error handler writes (here the unexpected-error one) names the
    request it was answering, as its error body does. (An app of its own: it adds a
    route, which an app that has answered requests refuses.)"""
    from api.rate_limits import RateLimits
    from domain.service import NoHooks
    from donkeypost.bootstrap import bootstrap, web_app
    from donkeypost.settings import Settings

    settings = Settings(redis_url=redis_url, rate_limits=RateLimits.off(), health_workers=())
    app = web_app(bootstrap(settings, hooks=NoHooks()), {"TESTING": True})
    api = ApiClient(app.test_client())

    @app.route("/boom-for-test")
    def boom() -> str:
        raise RuntimeError("boom")

    caplog.set_level(logging.INFO)
    caplog.handler.addFilter(RequestIdFilter())
    response = _answer(api, "GET", "/boom-for-test", headers={HEADER: "abc-1"})
    assert response.status_code == 500
    assert response.get_json()["request_id"] == "abc-1"
    errors = [r for r in caplog.records if r.name == "api.errors"]
    assert errors and all(r.request_id == "abc-1" for r in errors)
    [line] = [r for r in caplog.records if r.name == "donkeypost.requests"]
    assert line.status == 500 and line.route == "/boom-for-test"


def test_request_lines_can_be_switched_off(redis_url, redis_client, caplog) -> None:
    from api.rate_limits import RateLimits
    from domain.service import NoHooks
    from donkeypost.bootstrap import bootstrap, web_app
    from donkeypost.settings import Settings

    settings = Settings(redis_url=redis_url, rate_limits=RateLimits.off(), health_workers=(),
                        log_requests=False)
    client = web_app(bootstrap(settings, hooks=NoHooks()), {"TESTING": True}).test_client()
    caplog.set_level(logging.INFO, logger="donkeypost.requests")
    response = client.get("/healthz/live", buffered=True)
    assert response.headers[HEADER]
    assert not [r for r in caplog.records if r.name == "donkeypost.requests"]
