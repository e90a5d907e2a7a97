"""The API end to end on a Redis Cluster: tests written for one Redis (tests/e2e), collected
here again, so they run with this directory's `app` and `api` (the service on a three-master
cluster, the queues on a plain Redis). A representative set: whole games over HTTP with
the no-leak checks, the API's conventions (idempotency, If-Match races, the log and
replay, long-polls, listings filtered by status and type), event streams, the players'
keys, inboxes, lobby, rematches and ratings, and bots played by real RQ workers."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from api.rate_limits import RateLimits
from domain.service import NoHooks
from donkeypost.bootstrap import bootstrap, web_app
from tests.e2e.api_client import ApiClient
from tests.e2e.test_api_contract import (  # noqa: F401 - collected here, on the cluster
    test_create_join_start_and_see_only_your_own_hand,
    test_if_match_and_idempotency_key,
    test_listing_is_paginated_and_filtered,
    test_log_replay_and_seed_reveal_after_the_end,
    test_long_poll_returns_when_a_move_lands,
    test_two_racing_conditional_actions_exactly_one_is_accepted,
    test_types_and_health,
)
from tests.e2e.test_bots_over_http import (  # noqa: F401
    test_one_human_and_three_bots_play_to_the_end_over_http,
)
from tests.e2e.test_full_games import (  # noqa: F401
    test_a_three_player_ochs_und_esel_game_to_the_end,
)
from tests.e2e.test_players import (  # noqa: F401
    test_a_player_key_is_shown_once_and_works_on_every_game_of_theirs,
    test_a_rematch_asked_for_twice_at_once_gives_one_game,
    test_the_inbox_shows_what_a_finished_game_did_to_the_rating,
    test_the_lobby_lists_open_seats_and_the_creator_may_cancel,
    test_two_players_inboxes_list_their_turns_soonest_deadline_first,
)
from tests.e2e.test_rate_limits import assert_limited
from tests.e2e.test_stream import (  # noqa: F401
    test_a_client_that_keeps_reconnecting_misses_and_repeats_nothing,
    test_a_stream_is_the_log_as_the_caller_sees_it_and_resumes_after_the_end,
    test_a_whole_game_streamed_to_every_seat_and_a_spectator_leaks_nothing,
)
from tests.support.live import serving


@pytest.fixture
def base(app):
    with serving(app) as url:
        yield url


@pytest.fixture
def live_app(components):
    """The app with the real hooks (bot turns queued on the plain Redis)."""
    return web_app(components, {"TESTING": True})


def test_rate_limits_are_counted_in_the_cluster(cluster_settings, cluster_client, redis_client,
                                                games):
    limits = RateLimits(limits={"act": "2/minute", "auth_failures": "2/minute"})
    app = web_app(bootstrap(dataclasses.replace(cluster_settings, rate_limits=limits),
                            hooks=NoHooks(), games=games), {"TESTING": True})
    api = ApiClient(app.test_client())
    game_id, tokens = api.new_game("high-card", 2)

    def back() -> Any:
        return api.http.post(f"/games/{game_id}/back", headers=api.auth(tokens[0]))

    assert [back().status_code for _ in range(2)] == [409, 409]
    assert_limited(back(), 2)
    assert [api.http.get(f"/games/{game_id}", headers=api.auth(f"guess-{n}")).status_code
            for n in range(3)] == [401, 401, 429]
    # The counters are on the cluster's masters; none on the queues' Redis.
    # (the `limits` library's keys: `LIMITS:{<counter>}`, a slot per counter.)
    assert list(cluster_client.scan_iter(match="LIMITS:*"))
    assert list(redis_client.scan_iter(match="LIMITS:*")) == []


def test_a_move_that_no_replica_confirmed_in_time_is_a_503_and_its_retry_the_first_answer(
        api, cluster_settings, games):
    game_id, tokens = api.new_game("high-card", 2)
    # A service that waits for two replicas where each master has one: none confirms
    # both in time, so the move is not acknowledged although it was written.
    strict = ApiClient(web_app(bootstrap(
        dataclasses.replace(cluster_settings, wait_replicas=2, wait_timeout_ms=20),
        hooks=NoHooks(), games=games), {"TESTING": True}).test_client())
    view = api.view(game_id, tokens[0])
    headers = {**api.auth(tokens[0]), "Idempotency-Key": "move-1"}
    sent = strict.http.post(f"/games/{game_id}/actions", json=view["legal_actions"][0],
                            headers=headers)
    assert sent.status_code == 503, sent.get_json()
    assert sent.get_json()["code"] == "store_unavailable" and sent.headers["Retry-After"]
    assert api.view(game_id)["version"] == view["version"] + 1  # written all the same
    again = api.http.post(f"/games/{game_id}/actions", json=view["legal_actions"][0],
                          headers=headers)
    assert again.status_code == 200 and again.get_json()["version"] == view["version"] + 1
