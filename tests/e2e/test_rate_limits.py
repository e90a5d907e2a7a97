"""Rate limits, counted in the real Redis: per address and per token, on creation, joins,
actions, webhooks and refused tokens; 429 in the shared shape with Retry-After and the
RateLimit-* headers. Small limits keep the tests short; the last test runs under gunicorn
with a limit from the environment, as an operator sets one."""

from __future__ import annotations

from typing import Any

import httpx

from api.rate_limits import RateLimits
from domain.service import NoHooks
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings
from tests.e2e.api_client import ApiClient
from tests.support.games import games_under_test

HUMANS = [{"kind": "human"}, {"kind": "human"}]



def make_app(redis_url: str, trusted_proxies: int = 0, **limits: str) -> Any:
    settings = Settings(redis_url=redis_url, rate_limits=RateLimits(limits=limits),
                        trusted_proxies=trusted_proxies)
    return web_app(bootstrap(settings, hooks=NoHooks(),
                             games=games_under_test()), {"TESTING": True})


def from_address(address: str) -> dict[str, Any]:
    return {"environ_base": {"REMOTE_ADDR": address}}


def create(client: Any, address: str = "203.0.113.7", **extra: Any) -> Any:
    return client.post("/games", json={"type": "high-card", "seats": HUMANS},
                       **from_address(address), **extra)


def assert_limited(response: Any, limit: int, code: str = "too_many_requests") -> None:
    body = response.get_json()
    assert response.status_code == 429, body
    assert body["code"] == code and body["status"] == 429 and "at most" in body["message"]
    assert int(response.headers["Retry-After"]) >= 1
    assert response.headers["RateLimit-Limit"] == str(limit)
    assert response.headers["RateLimit-Remaining"] == "0"
    assert int(response.headers["RateLimit-Reset"]) >= 1


def test_creating_games_is_limited_per_address(redis_url, redis_client):
    client = make_app(redis_url, create="3/minute").test_client()
    remaining = [create(client).headers["RateLimit-Remaining"] for _ in range(3)]
    assert remaining == ["2", "1", "0"]
    refused = create(client)
    assert_limited(refused, 3)
    assert refused.headers["RateLimit-Policy"] == "3;w=60"
    assert create(client, "198.51.100.9").status_code == 201  # another address
    # Listing is not limited, and says nothing of limits.
    listed = client.get("/games", **from_address("203.0.113.7"))
    assert listed.status_code == 200 and "RateLimit-Limit" not in listed.headers


def test_an_ipv6_client_is_counted_by_its_64_prefix(redis_url, redis_client):
    client = make_app(redis_url, create="2/minute").test_client()
    assert create(client, "2001:db8:1:2::1").status_code == 201
    assert create(client, "2001:db8:1:2:ffff::9").status_code == 201
    assert_limited(create(client, "2001:db8:1:2:abcd::1"), 2)
    assert create(client, "2001:db8:1:3::1").status_code == 201  # another /64


def test_joins_are_limited_per_address(redis_url, redis_client):
    client = make_app(redis_url, join="2/minute").test_client()
    game_id = create(client).get_json()["id"]
    other_id = create(client).get_json()["id"]
    for gid in (game_id, other_id):
        assert client.post(f"/games/{gid}/players", json={"name": "a"},
                           **from_address("192.0.2.1")).status_code == 201
    assert_limited(client.post(f"/games/{game_id}/players", json={"name": "b"},
                               **from_address("192.0.2.1")), 2)


def test_a_seats_actions_are_limited_per_token_and_per_address(redis_url, redis_client):
    app = make_app(redis_url, act="2/minute", act_address="3/minute")
    api = ApiClient(app.test_client())
    game_id, tokens = api.new_game("high-card", 2)

    def back(token: str, address: str = "192.0.2.1") -> Any:
        return api.http.post(f"/games/{game_id}/back", headers=api.auth(token),
                             **from_address(address))

    # Refused moves count too: the limit is on requests, before the game is read.
    assert [back(tokens[0]).status_code for _ in range(2)] == [409, 409]
    assert_limited(back(tokens[0]), 2)
    assert back(tokens[1]).status_code == 409  # another seat: its own budget...
    assert_limited(back(tokens[1]), 3)  # ...but the address has used its three
    assert_limited(back(tokens[0], "192.0.2.2"), 2)  # a seat's budget, from any address
    action = api.view(game_id, tokens[0])["legal_actions"][0]
    played = api.http.post(f"/games/{game_id}/actions", json=action,
                           headers=api.auth(tokens[0]), **from_address("192.0.2.3"))
    assert_limited(played, 2)  # the seat's budget covers its actions too


def test_refused_tokens_are_limited_per_address_even_for_a_good_token(redis_url, redis_client):
    app = make_app(redis_url, auth_failures="3/minute")
    api = ApiClient(app.test_client())
    game_id, tokens = api.new_game("high-card", 2)

    def view(token: str | None, address: str = "192.0.2.1") -> Any:
        return api.http.get(f"/games/{game_id}", headers=api.auth(token),
                            **from_address(address))

    assert [view(f"guess-{n}").status_code for n in range(3)] == [401, 401, 401]
    assert_limited(view("guess-4"), 3)
    # A good token this process never saw is refused as well: guessing teaches nothing.
    assert_limited(view(tokens[0]), 3)
    assert view(None).status_code == 200  # no token: nothing to guess
    assert view(tokens[0], "192.0.2.2").status_code == 200  # another address
    # A token this process found valid is no guess: it plays on from the blocked address.
    assert view(tokens[0]).status_code == 200


def test_guessed_player_keys_are_refused_tokens_and_a_known_key_plays_on(redis_url,
                                                                          redis_client):
    api = ApiClient(make_app(redis_url, auth_failures="3/minute").test_client())
    ann = api.http.post("/players", json={"name": "Ann"}).get_json()

    def inbox(key: str, address: str = "192.0.2.1") -> Any:
        return api.http.get("/players/me/games", headers=api.auth(key), **from_address(address))

    assert inbox(ann["key"], "192.0.2.9").status_code == 200  # found valid, elsewhere
    guesses = [inbox(f"pk.{ann['id']}.guess{n}").status_code for n in range(3)]
    assert guesses == [401, 401, 401]
    assert_limited(inbox(f"pk.{ann['id']}.guess4"), 3)
    assert inbox(ann["key"]).status_code == 200  # no guess: it plays on from there


def test_webhook_changes_are_limited_per_token(redis_url, redis_client):
    api = ApiClient(make_app(redis_url, webhooks="2/minute").test_client())
    game = api.create("high-card", 2)
    for n in range(2):
        r = api.http.post(f"/games/{game['id']}/webhooks", headers=api.auth(
            game["creator_token"]), json={"url": f"http://93.184.215.14/{n}"})
        assert r.status_code == 201, r.get_json()
    assert_limited(api.http.post(f"/games/{game['id']}/webhooks", headers=api.auth(
        game["creator_token"]), json={"url": "http://93.184.215.14/x"}), 2)


def test_forwarded_addresses_count_only_behind_a_declared_proxy(redis_url, redis_client):
    forged = {"headers": {"X-Forwarded-For": "198.51.100.1"}}
    direct = make_app(redis_url, create="1/minute").test_client()
    assert create(direct, **forged).status_code == 201
    assert_limited(create(direct, headers={"X-Forwarded-For": "198.51.100.2"}), 1)
    redis_client.flushdb()
    proxied = make_app(redis_url, trusted_proxies=1, create="1/minute").test_client()
    assert create(proxied, **forged).status_code == 201
    assert create(proxied, headers={"X-Forwarded-For": "198.51.100.2"}).status_code == 201
    assert_limited(create(proxied, **forged), 1)


def test_limits_can_be_turned_off(redis_url, redis_client):
    settings = Settings(redis_url=redis_url, rate_limits=RateLimits.off())
    client = web_app(bootstrap(settings, hooks=NoHooks(), games=games_under_test())).test_client()
    answers = [create(client) for _ in range(25)]
    assert {a.status_code for a in answers} == {201}
    assert "RateLimit-Limit" not in answers[-1].headers


def test_the_defaults_let_a_bot_client_play_several_games_from_one_address(redis_url,
                                                                            redis_client):
    api = ApiClient(make_app(redis_url).test_client())
    games = [api.new_game("high-card", 2) for _ in range(4)]  # 4 creations, 8 joins
    for game_id, tokens in games:
        end = api.play_to_end(game_id, tokens)  # as fast as the test client goes
        assert end["status"] == "finished"


def test_a_limit_from_the_environment_under_gunicorn(redis_url, redis_client, monkeypatch):
    from tests.support.gunicorn import Gunicorn

    monkeypatch.setenv("RATE_LIMIT_CREATE", "2/minute")
    with Gunicorn(redis_url, workers=2) as server:
        body = {"type": "ochs-und-esel", "seats": [{"kind": "bot"}] * 3}
        answers = [httpx.post(f"{server.url}/games", json=body) for _ in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 429]
    refused = answers[-1]
    assert refused.json()["code"] == "too_many_requests"
    assert int(refused.headers["Retry-After"]) >= 1
    assert refused.headers["RateLimit-Limit"] == "2"


def test_every_route_that_writes_has_a_rate_limit(redis_url, redis_client):
    from api.rate_limits import ROUTES

    app = make_app(redis_url)
    writes = {(rule.endpoint, method) for rule in app.url_map.iter_rules()
              for method in rule.methods & {"POST", "PUT", "PATCH", "DELETE"}}
    assert writes - set(ROUTES) == set(), "add the new route to api.rate_limits.ROUTES"
    assert set(ROUTES) <= writes  # and the table names no route that is gone
