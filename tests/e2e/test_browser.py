"""Browser frontends: CORS for the configured origins only; security headers on every
answer; nothing token-bearing or secret is cacheable."""

from __future__ import annotations

from api.rate_limits import RateLimits
from domain.service import NoHooks
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings
from tests.e2e.api_client import ApiClient
from tests.support.games import games_under_test

FRONTEND = "https://table.example"



def make_api(redis_url: str, origins: tuple[str, ...]) -> ApiClient:
    settings = Settings(redis_url=redis_url, cors_origins=origins,
                        rate_limits=RateLimits.off())
    return ApiClient(web_app(bootstrap(settings, hooks=NoHooks(),
                                       games=games_under_test())).test_client())


def preflight(api: ApiClient, path: str, origin: str, method: str = "POST") -> dict:
    r = api.http.open(path, method="OPTIONS", headers={
        "Origin": origin, "Access-Control-Request-Method": method,
        "Access-Control-Request-Headers": "authorization, content-type, if-match, "
                                          "idempotency-key, last-event-id"})
    assert r.status_code == 200
    return dict(r.headers)


def test_a_configured_frontend_may_call_the_api_with_a_token(redis_url, redis_client):
    api = make_api(redis_url, (FRONTEND,))
    game_id, tokens = api.new_game("high-card", 2)
    allowed = preflight(api, f"/games/{game_id}/actions", FRONTEND)
    assert allowed["Access-Control-Allow-Origin"] == FRONTEND
    assert {h.strip() for h in allowed["Access-Control-Allow-Headers"].split(",")} == {
        "authorization", "content-type", "if-match", "idempotency-key", "last-event-id"}
    assert "POST" in allowed["Access-Control-Allow-Methods"]
    assert "Access-Control-Allow-Credentials" not in allowed  # bearer tokens, no cookies
    view = api.http.get(f"/games/{game_id}", headers={**api.auth(tokens[0]),
                                                      "Origin": FRONTEND})
    assert view.headers["Access-Control-Allow-Origin"] == FRONTEND
    exposed = {h.strip() for h in view.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"ETag", "X-Pagination", "Retry-After", "RateLimit-Remaining"} <= exposed


def test_other_origins_and_the_default_get_no_cors(redis_url, redis_client):
    api = make_api(redis_url, (FRONTEND,))
    assert "Access-Control-Allow-Origin" not in preflight(api, "/games", "https://evil.example")
    default = make_api(redis_url, ())
    assert "Access-Control-Allow-Origin" not in preflight(default, "/games", FRONTEND)
    r = default.http.get("/games", headers={"Origin": FRONTEND})
    assert "Access-Control-Allow-Origin" not in r.headers


def test_every_answer_has_the_security_headers_and_secrets_are_never_cached(redis_url,
                                                                           redis_client):
    api = make_api(redis_url, ())
    created = api.http.post("/games", json={"type": "high-card", "seats": [
        {"kind": "human"}, {"kind": "human"}]})
    game_id = created.get_json()["id"]
    joined = api.http.post(f"/games/{game_id}/players", json={"name": "ann"})
    token = joined.get_json()["token"]
    answers = {
        "created (creator token)": created, "joined (seat token)": joined,
        "a seat's view": api.http.get(f"/games/{game_id}", headers=api.auth(token)),
        "a seat's log": api.http.get(f"/games/{game_id}/log", headers=api.auth(token)),
        "a spectator's view": api.http.get(f"/games/{game_id}"),
        "an error": api.http.get("/games/nope"),
        "a refused token": api.http.get(f"/games/{game_id}", headers=api.auth("bad")),
        "the document": api.http.get("/openapi.json"),
    }
    for what, r in answers.items():
        assert r.headers["X-Content-Type-Options"] == "nosniff", what
        assert r.headers["Referrer-Policy"] == "no-referrer", what
        assert r.headers["X-Frame-Options"] == "DENY", what
        assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"], what
    for what in ("created (creator token)", "joined (seat token)", "a seat's view",
                 "a seat's log", "a refused token"):
        assert answers[what].headers["Cache-Control"] == "no-store", what
    assert "no-store" not in answers["a spectator's view"].headers.get("Cache-Control", "")
    docs = api.http.get("/docs")
    assert docs.status_code == 200 and "script-src 'self'" in \
        docs.headers["Content-Security-Policy"]
