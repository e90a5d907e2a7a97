"""A human and three bots (strong, basic, expert) play a whole game over HTTP, the bots
moving on real RQ workers (a burst between the human's moves), and no bot of any level ever
receives more than its own seat's view."""

from __future__ import annotations

import random
from collections import Counter
from itertools import groupby

import pytest

from api.rate_limits import RateLimits
from domain import bots
from domain.bots import Observation, levels
from domain.bots.search_terms import Budget
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings
from tests.e2e.api_client import ApiClient
from tests.support.workers import burst


@pytest.fixture
def components(redis_url, redis_client):
    # The real hooks; no rate limits: the human seat plays at full speed.
    return bootstrap(Settings(redis_url=redis_url, rate_limits=RateLimits.off()))


@pytest.fixture
def live_app(components):
    return web_app(components, {"TESTING": True})


def test_the_bot_interface_holds_only_a_seats_view():
    assert Observation.__struct_fields__ == ("seat", "view", "legal_actions")


@pytest.mark.parametrize("game_type, options", [
    ("ochs-und-esel", {"rounds": 1}),
    ("crazy-donkey", {"deals": 1}),
    ("trash", {"target_slots": 8}),
    ("canyon-donkeys", {}),
])
def test_one_human_and_three_bots_play_to_the_end_over_http(live_app, components, monkeypatch,
                                                            game_type, options):
    api = ApiClient(live_app.test_client())
    service = live_app.extensions["donkeypost"]
    # Quick searching bots: every level plays a seat.
    monkeypatch.setattr(levels, "DEFAULT_BUDGET", Budget(seconds=0.02))
    monkeypatch.setattr(levels, "EXPERT_BUDGET", Budget(seconds=0.02))
    created = api.create(game_type, [{"kind": "human"},
                                     {"kind": "bot", "level": "strong"},
                                     {"kind": "bot", "level": "basic"},
                                     {"kind": "bot", "level": "expert"}],
                         options, deadline_s=None)
    game_id = created["id"]
    asked: Counter[tuple[int, str]] = Counter()
    choose = bots.choose_action

    def only_its_own_view(level, game, obs, rng, budget=None):
        # The truth at the version the bot plays at: the job appends only after this returns.
        table, _ = service.load(game_id)
        assert table.seats[obs.seat].kind == "bot" and table.seats[obs.seat].level == level
        assert obs.view == game.view(table.game, obs.seat), "not exactly the seat's view"
        assert "hands" not in obs.view
        assert list(obs.legal_actions) == game.legal_actions(table.game, obs.seat)
        asked[obs.seat, level] += 1
        return choose(level, game, obs, rng, budget)

    monkeypatch.setattr(bots, "choose_action", only_its_own_view)
    seat, token = api.join(game_id, "ann")
    assert seat == 0
    rng = random.Random(7)
    for _ in range(1000):
        burst(components)
        view = api.view(game_id, token)
        if view["status"] == "finished":
            break
        assert view["to_act"] == [0], "the bots have not played"
        answer = api.act(game_id, token, rng.choice(view["legal_actions"]))
        assert answer.status_code == 200, answer.get_json()
    else:
        raise AssertionError("the game did not end")

    events = api.events(game_id, token)["events"]
    # One append per move: its events share their time, and the first with an actor is the
    # mover's (later ones may be automatic follow-ups, e.g. a Trash chain or a trick won).
    moved: Counter[int] = Counter()
    for _at, batch in groupby(events, key=lambda e: e["at"]):
        actors = [e["actor"] for e in batch
                  if e["actor"] is not None and e["type"] != "player_joined"]
        if actors:
            moved[actors[0]] += 1
    # One bot decision per bot move: no job acted twice, none was lost.
    assert asked == {(1, "strong"): moved[1], (2, "basic"): moved[2],
                     (3, "expert"): moved[3]}
    assert moved[1] > 0 and moved[2] > 0 and moved[3] > 0 and moved[0] > 0
    assert not any("auto" in e["data"] for e in events)  # nobody timed out
    outcome = view["outcome"]
    assert sorted(outcome["places"])[0] == 1 and len(outcome["scores"]) == 4
