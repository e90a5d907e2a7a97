"""A move's cost in Redis: what each request sends, counted by Redis itself. The view is
one read; an action that names the version it saw (If-Match) is one append; the process
remembers only facts that never change, and a remembered table never yields a refusal
that the latest table would not give."""

from __future__ import annotations

import pytest
import redis
import redis.client

from tests.support.games import games_under_test


@pytest.fixture
def round_trips(monkeypatch):
    """Every round trip to Redis, as the client sends it: a command or a pipeline."""
    sent: list[str] = []
    command, pipeline = redis.Redis.execute_command, redis.client.Pipeline.execute

    def counted_command(self, *args, **options):
        sent.append(str(args[0]).lower())
        return command(self, *args, **options)

    def counted_pipeline(self, *args, **options):
        sent.append("pipeline:" + ",".join(str(c[0][0]).lower() for c in self.command_stack))
        return pipeline(self, *args, **options)

    monkeypatch.setattr(redis.Redis, "execute_command", counted_command)
    monkeypatch.setattr(redis.client.Pipeline, "execute", counted_pipeline)
    return sent


def test_a_view_then_an_action_at_its_version_cost_one_read_and_one_append(app, api,
                                                                           round_trips):
    game_id, tokens = api.new_game("high-card", 3)
    view = api.view(game_id, tokens[0])
    api.act(game_id, tokens[0], view["legal_actions"][0])  # the process learns the seed
    view = api.view(game_id, tokens[1])
    round_trips.clear()
    view = api.view(game_id, tokens[1])
    # One round trip: the events since the table this process remembers (none here) and
    # that the game still exists; the seat is remembered.
    assert round_trips == ["pipeline:exists,xrange"]
    round_trips.clear()
    r = api.act(game_id, tokens[1], view["legal_actions"][0],
                {"If-Match": f'"{view["version"]}"', "Idempotency-Key": "k1"})
    assert r.status_code == 200
    assert round_trips == ["evalsha"]  # the append, and nothing else
    # Without If-Match the action reads the latest table first.
    view = api.view(game_id, tokens[2])
    round_trips.clear()
    assert api.act(game_id, tokens[2], view["legal_actions"][0]).status_code == 200
    assert round_trips == ["pipeline:exists,xrange", "evalsha"]
    # A process that remembers nothing of the game reads its snapshot and the log's tail.
    app.extensions["donkeypost"].deps.remembered.tables._data.clear()
    round_trips.clear()
    api.view(game_id, tokens[0])
    assert round_trips == ["pipeline:get,xrevrange"]


def test_a_stale_if_match_is_refused_as_stale_even_when_its_table_is_remembered(api):
    game_id, tokens = api.new_game("high-card", 2)
    view = api.view(game_id, tokens[0])
    stale = {"If-Match": f'"{view["version"]}"'}
    played, other = view["legal_actions"][0], view["legal_actions"][1]
    assert api.act(game_id, tokens[0], played, stale).status_code == 200
    # Legal at the remembered version, illegal now: the answer is the one for a stale
    # version, whatever the remembered table says.
    for action in (other, played):
        r = api.act(game_id, tokens[0], action, stale)
        assert r.status_code == 412 and r.get_json()["code"] == "version_mismatch"
    now = api.view(game_id)
    assert r.get_json()["version"] == now["version"]
    # Refusals are decided on the latest table, never on a remembered one.
    r = api.act(game_id, tokens[0], other, {"If-Match": f'"{now["version"]}"'})
    assert r.status_code == 409 and r.get_json()["code"] == "not_your_turn"


def test_the_default_rate_limits_cost_a_move_no_round_trip(redis_url, redis_client,
                                                            round_trips):
    from api.rate_limits import RateLimits
    from domain.service import NoHooks
    from donkeypost.bootstrap import bootstrap, web_app
    from donkeypost.settings import Settings
    from tests.e2e.api_client import ApiClient

    settings = Settings(redis_url=redis_url, rate_limits=RateLimits(), health_workers=())
    api = ApiClient(web_app(bootstrap(settings, hooks=NoHooks(),
                                      games=games_under_test()), {"TESTING": True})
                    .test_client())
    game_id, tokens = api.new_game("high-card", 2)
    view = api.view(game_id, tokens[0])
    api.act(game_id, tokens[0], view["legal_actions"][0])  # the process learns the seed
    view = api.view(game_id, tokens[1])
    round_trips.clear()
    r = api.act(game_id, tokens[1], view["legal_actions"][0],
                {"If-Match": f'"{view["version"]}"'})
    assert r.status_code == 200
    assert r.headers["RateLimit-Limit"] == "10"  # the limits are on: the seat's 10/second
    assert round_trips == ["evalsha"]  # the append alone


def test_the_hooks_of_a_move_read_nothing_and_send_nothing_of_their_own(
        redis_url, redis_client, round_trips):
    """With the production hooks (bot jobs, deadlines, webhooks): the append brings the
    game's webhook registrations back, so a game without any costs the webhooks nothing,
    and one with some gets its deliveries without another read; the append also swaps
    the deadline timers (the queues are on the games' Redis)."""
    from api.rate_limits import RateLimits
    from donkeypost.bootstrap import bootstrap, web_app
    from donkeypost.settings import Settings
    from tests.e2e.api_client import ApiClient

    settings = Settings(redis_url=redis_url, rate_limits=RateLimits.off(), health_workers=())
    api = ApiClient(web_app(bootstrap(settings,
                                      games=games_under_test()), {"TESTING": True}).test_client())
    game = api.create("high-card", 2)
    game_id = game["id"]
    tokens = ["", ""]
    for n in range(2):
        seat, token = api.join(game_id, f"p{n}")
        tokens[seat] = token
    view = api.view(game_id, tokens[0])
    api.act(game_id, tokens[0], view["legal_actions"][0])  # the process learns the seed
    view = api.view(game_id, tokens[1])
    round_trips.clear()
    assert api.act(game_id, tokens[1], view["legal_actions"][0],
                   {"If-Match": f'"{view["version"]}"'}).status_code == 200
    # The append, which also drops the version before's deadline timer and arms the one
    # of the seat now to act: nothing else.
    assert round_trips == ["evalsha"]
    assert [t.decode() for t in redis_client.zrange("donkeypost:timers", 0, -1)] == [
        f"deadline-{game_id}-v{view['version'] + 1}-s0"]

    registered = api.http.post(f"/games/{game_id}/webhooks", json={
        "url": "http://93.184.215.14/hook"}, headers=api.auth(game["creator_token"]))
    assert registered.status_code == 201, registered.get_json()
    hook_id = registered.get_json()["id"]
    view = api.view(game_id, tokens[0])
    round_trips.clear()
    assert api.act(game_id, tokens[0], view["legal_actions"][0],
                   {"If-Match": f'"{view["version"]}"'}).status_code == 200
    assert round_trips[0] == "evalsha" and not any("hvals" in r for r in round_trips)
    deliveries = api.http.get(f"/games/{game_id}/webhooks/{hook_id}/deliveries",
                              headers=api.auth(game["creator_token"]))
    assert deliveries.status_code == 200 and deliveries.get_json(), deliveries.get_json()
