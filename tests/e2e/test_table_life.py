"""The table's life on the real stack: a seat resigns or leaves and bots on real RQ workers
(burst runs) finish the game for it; the outcome and the ratings say who conceded; a game
ends at once when nothing is left to play for; abort by agreement, vote by vote."""

from __future__ import annotations

import random
from typing import Any

import pytest

from api.rate_limits import RateLimits
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings
from tests.e2e.api_client import ApiClient
from tests.support.workers import burst


@pytest.fixture
def components(redis_url, redis_client):
    # The real hooks (bots, ratings); rate limits off: the test plays fast from one address.
    return bootstrap(Settings(redis_url=redis_url, rate_limits=RateLimits.off()))


@pytest.fixture
def api(components) -> ApiClient:
    return ApiClient(web_app(components, {"TESTING": True}).test_client())


def _register(api: ApiClient, name: str) -> str:
    r = api.http.post("/players", json={"name": name})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["key"]


def _game_of(api: ApiClient, keys: list[str], game_type: str = "ochs-und-esel",
             options: dict[str, Any] | None = None, bots: int = 0) -> str:
    """A started game: the first player created it sitting in seat 0, the others invited
    (by name) and seated; then `bots` basic bots."""
    names = [api.http.get("/players/me", headers=api.auth(k)).get_json()["name"]
             for k in keys]
    seats = [{"kind": "human", "me": True}] + \
        [{"kind": "human", "invite": n} for n in names[1:]] + [{"kind": "bot"}] * bots
    r = api.http.post("/games", json={"type": game_type, "seats": seats,
                                      "options": {"rounds": 1} if options is None else options,
                                      "deadline_s": None}, headers=api.auth(keys[0]))
    assert r.status_code == 201, r.get_json()
    game_id = r.get_json()["id"]
    for key in keys[1:]:
        joined = api.http.post(f"/games/{game_id}/players", headers=api.auth(key))
        assert joined.status_code == 201, joined.get_json()
    return game_id


def _post(api: ApiClient, game_id: str, what: str, key: str | None,
          body: Any = None, method: str = "POST") -> Any:
    return api.http.open(f"/games/{game_id}/{what}", method=method, json=body,
                         headers=api.auth(key))


def _play_with_workers(api: ApiClient, components: Any, game_id: str,
                       keys: dict[int, str], rng: random.Random) -> dict[str, Any]:
    """The people in `keys` play random legal actions; bots move in worker bursts between
    them. Ends with the finished game's spectator view."""
    for _ in range(2000):
        burst(components)
        view = api.view(game_id)
        if view["status"] != "active":
            return view
        acting = [s for s in view["to_act"] if s in keys]
        assert acting, f"the bots have not played: {view['to_act']}"
        mine = api.view(game_id, keys[acting[0]])
        r = api.act(game_id, keys[acting[0]], rng.choice(mine["legal_actions"]))
        assert r.status_code == 200, r.get_json()
    raise AssertionError("the game did not end")


def test_a_resigned_seat_is_played_to_the_end_by_the_basic_bot_and_placed_last(api,
                                                                               components):
    ann, bob, cid = (_register(api, n) for n in ("Ann", "Bob", "Cid"))
    game_id = _game_of(api, [ann, bob, cid], options={"rounds": 1, "first_player": 0})
    view = api.view(game_id, ann)
    assert view["to_act"] == [0]
    assert {"name": "resign", "method": "POST", "href": f"/games/{game_id}/resign"} in \
        view["table_actions"]
    assert api.http.post(f"/games/{game_id}/resign").status_code == 401  # a spectator
    r = _post(api, game_id, "resign", ann)
    assert r.status_code == 200, r.get_json()
    seat = r.get_json()["seats"][0]
    assert seat["resigned"] and seat["played_by"] == "basic" and not seat["left"]
    assert r.get_json()["legal_actions"] == []
    assert all(a["name"] not in ("resign", "leave", "abort") for a in
               r.get_json()["table_actions"])
    assert _post(api, game_id, "resign", ann).status_code == 200  # twice is fine
    assert _post(api, game_id, "leave", ann, {"level": "strong"}).get_json()["code"] == \
        "seat_resigned"
    resigned = [e for e in api.events(game_id)["events"] if e["type"] == "seat_resigned"]
    assert [(e["actor"], e["data"]) for e in resigned] == [(0, {"seat": 0})]
    # Her turn is not hers any more: not in her inbox as such, and her key may not play.
    mine = api.http.get("/players/me/games?my_turn=true", headers=api.auth(ann)).get_json()
    assert mine == []
    r = api.act(game_id, ann, view["legal_actions"][0])  # still her seat's turn: the bot's
    assert r.status_code == 409 and r.get_json()["code"] == "seat_resigned"
    finished = _play_with_workers(api, components, game_id, {1: bob, 2: cid},
                                  random.Random(3))
    assert finished["status"] == "finished"
    outcome = finished["outcome"]
    assert outcome["conceded"] == [0] and "early" not in outcome
    assert outcome["places"][0] == 3 and sorted(outcome["places"][1:])[0] == 1
    # The bot played her cards: seat 0 acted after resigning, and only as the bot.
    events = api.events(game_id)["events"]
    after = events[[e["type"] for e in events].index("seat_resigned") + 1:]
    assert any(e["actor"] == 0 for e in after if e["type"] not in ("game_finished",))
    # The rating job ran in the burst: she lost to both, as her place says.
    burst(components)
    done = api.http.get("/players/me/games?status=finished",
                        headers=api.auth(ann)).get_json()
    assert done[0]["place"] == 3 and done[0]["rating"]["delta"] < 0


def test_a_seat_left_to_a_bot_of_a_chosen_level_is_public_and_played_on(api, components):
    ann, bob = _register(api, "Ann"), _register(api, "Bob")
    game_id = _game_of(api, [ann, bob], bots=1)
    leaves = [a for a in api.view(game_id, bob)["table_actions"] if a["name"] == "leave"]
    assert [a["body"] for a in leaves] == [{"level": "random"}, {"level": "basic"},
                                           {"level": "strong"}, {"level": "expert"}]
    r = _post(api, game_id, "leave", bob, {"level": "superb"})
    assert r.status_code == 422
    r = _post(api, game_id, "leave", bob, leaves[0]["body"])
    assert r.status_code == 200, r.get_json()
    # Everybody sees it: the seat in a spectator's view, the event in a spectator's log.
    spectator = api.view(game_id)
    assert spectator["seats"][1]["left"] and spectator["seats"][1]["played_by"] == "random"
    left = [e for e in api.events(game_id)["events"] if e["type"] == "seat_left"]
    assert [e["data"] for e in left] == [{"seat": 1, "level": "random"}]
    assert _post(api, game_id, "leave", bob, {"level": "random"}).status_code == 200
    r = _post(api, game_id, "leave", bob, {"level": "basic"})
    assert r.status_code == 409 and r.get_json()["code"] == "seat_left"
    finished = _play_with_workers(api, components, game_id, {0: ann}, random.Random(5))
    assert finished["status"] == "finished" and finished["outcome"]["conceded"] == [1]
    assert finished["outcome"]["places"][1] == 3


def test_the_game_ends_at_once_when_nothing_is_left_to_play_for(api, components):
    ann, bob = _register(api, "Ann"), _register(api, "Bob")
    # Two people: when one resigns, the other wins there and then.
    duel = _game_of(api, [ann, bob], "trash", {})
    r = _post(api, duel, "resign", bob)
    assert r.status_code == 200
    outcome = r.get_json()["outcome"]
    assert r.get_json()["status"] == "finished" and outcome["early"] is True
    assert outcome["places"] == [1, 2] and outcome["conceded"] == [1]
    assert r.get_json()["seed"] is not None  # revealed, as at every end
    burst(components)
    assert api.http.get("/players/me/games?status=finished",
                        headers=api.auth(ann)).get_json()[0]["rating"]["delta"] > 0
    # One person and two bots: nobody is left to play for once she leaves.
    alone = _game_of(api, [ann], bots=2)
    r = _post(api, alone, "leave", ann, {"level": "basic"})
    assert r.get_json()["status"] == "finished"
    assert r.get_json()["outcome"]["places"] == [3, 1, 1]
    r = _post(api, alone, "resign", ann)
    assert r.status_code == 409 and r.get_json()["code"] == "game_over"
    r = _post(api, alone, "abort", ann)
    assert r.status_code == 409 and r.get_json()["code"] == "game_over"


def test_abort_by_agreement_vote_by_vote_until_the_first_round_is_scored(api, components):
    ann, bob, cid = (_register(api, n) for n in ("Ann", "Bob", "Cid"))
    game_id = _game_of(api, [ann, bob, cid], bots=1)

    def actions(key: str) -> list[tuple[str, str]]:
        return [(a["name"], a["method"]) for a in api.view(game_id, key)["table_actions"]
                if "abort" in a["name"]]

    assert actions(ann) == [("abort", "POST")]
    assert _post(api, game_id, "abort", ann).get_json()["abort_votes"] == [0]
    assert _post(api, game_id, "abort", ann).get_json()["abort_votes"] == [0]  # twice
    assert actions(ann) == [("withdraw_abort", "DELETE")]
    assert _post(api, game_id, "abort", bob).get_json()["abort_votes"] == [0, 1]
    r = _post(api, game_id, "abort", ann, method="DELETE")
    assert r.status_code == 200 and r.get_json()["abort_votes"] == [1]
    assert _post(api, game_id, "abort", ann, method="DELETE").status_code == 200
    # Cid resigns: his vote is not needed any more; Ann's completes the agreement (the bot
    # has no say).
    assert _post(api, game_id, "resign", cid).get_json()["status"] == "active"
    r = _post(api, game_id, "abort", ann)
    assert r.status_code == 200 and r.get_json()["status"] == "aborted"
    assert r.get_json()["outcome"] is None and r.get_json()["ended_at"] is not None
    kinds = [e["type"] for e in api.events(game_id)["events"]]
    assert [k for k in kinds if "abort" in k] == [
        "abort_voted", "abort_voted", "abort_vote_withdrawn", "abort_voted", "game_aborted"]
    r = api.act(game_id, bob, {"type": "pass"})
    assert r.status_code == 409 and r.get_json()["code"] == "game_aborted"
    assert _post(api, game_id, "abort", bob).status_code == 200  # it is, already
    burst(components)  # no bot moves, no rating
    assert api.view(game_id)["version"] == r.get_json()["version"]
    assert api.http.get("/players/me/games?status=finished",
                        headers=api.auth(ann)).get_json() == []
    assert api.http.get("/games?status=aborted").get_json()[0]["id"] == game_id


def test_abort_closes_once_the_first_round_is_scored(api, components):
    game_id, tokens = api.new_game("ochs-und-esel", 3, {"rounds": 2})
    rng = random.Random(2)
    while True:
        view = api.view(game_id, tokens[api.view(game_id)["to_act"][0]])
        if any(a["name"] == "abort" for a in view["table_actions"]):
            r = api.act(game_id, tokens[view["you"]], rng.choice(view["legal_actions"]))
            assert r.status_code == 200
            continue
        break
    assert [e for e in api.events(game_id)["events"] if e["type"] == "round_scored"]
    r = _post(api, game_id, "abort", tokens[0])
    assert r.status_code == 409 and r.get_json()["code"] == "abort_closed"
