"""Time controls over HTTP: chosen at creation, shown in the view and in the lobby, and
refused in one JSON shape when they do not hold together."""

from __future__ import annotations

from api.rate_limits import RateLimits
from domain.service import NoHooks
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings
from tests.e2e.api_client import ApiClient
from tests.support.clock import Clock

CORRESPONDENCE = {"kind": "correspondence", "bank_s": 259200, "increment_s": 86400}


def test_a_correspondence_game_shows_its_clock_in_the_view_and_the_lobby(api):
    game = api.create("ochs-und-esel", 3, {"first_player": 0}, time_control=CORRESPONDENCE,
                      on_timeout="away")
    assert game["time_control"] == {**CORRESPONDENCE, "vacation": True}
    assert game["deadline_s"] is None and game["on_timeout"] == "away"
    lobby = api.http.get("/games?status=open&has_free_seat=true").get_json()
    assert [g["time_control"]["kind"] for g in lobby if g["id"] == game["id"]] == \
        ["correspondence"]
    tokens = [api.join(game["id"], name)[1] for name in ("ann", "bob", "cy")]
    view = api.view(game["id"], tokens[0])
    seats = view["seats"]
    assert seats[0]["deadline"] is not None and seats[0]["time_left"] <= 259200
    assert [s["time_left"] for s in seats[1:]] == [259200, 259200]
    assert [s["deadline"] for s in seats[1:]] == [None, None]
    assert all(s["vacation_until"] is None for s in seats)


def test_the_listing_shows_a_running_bank_as_it_runs(redis_url, redis_client, games):
    clock = Clock(now=1_900_000_000.0)
    app = web_app(bootstrap(Settings(redis_url=redis_url, rate_limits=RateLimits.off(),
                                     health_workers=()), hooks=NoHooks(), clock=clock,
                            games=games), {"TESTING": True})
    api = ApiClient(app.test_client())
    game = api.create("ochs-und-esel", 3, {"first_player": 0}, time_control=CORRESPONDENCE)
    for name in ("ann", "bob", "cy"):
        api.join(game["id"], name)

    def listed() -> tuple[list[float], str]:
        r = api.http.get("/games?status=active")
        (mine,) = [g for g in r.get_json() if g["id"] == game["id"]]
        return [s["time_left"] for s in mine["seats"]], r.headers["ETag"]

    (running, *stopped), etag = listed()
    assert running == 259200 and stopped == [259200, 259200]
    clock.advance(3600)  # seat 0 thinks for an hour: the listing says so, as the view does
    (running, *stopped), later = listed()
    assert running == 259200 - 3600 and stopped == [259200, 259200]
    assert later != etag
    assert api.view(game["id"])["seats"][0]["time_left"] == running


def test_old_clients_get_a_deadline_per_move(api):
    game = api.create("trash", 2, deadline_s=3600)
    assert game["time_control"] == {"kind": "per_move", "deadline_s": 3600}
    assert all(s["time_left"] is None for s in game["seats"])
    assert api.create("trash", 2, deadline_s=None)["time_control"] == {"kind": "none"}


def test_a_time_control_that_does_not_hold_together_is_refused(api):
    r = api.http.post("/games", json={"type": "trash", "seats": [{"kind": "human"}] * 2,
                                      "time_control": {"kind": "correspondence"}})
    assert r.status_code == 422 and r.get_json()["code"] == "bad_time_control"
    r = api.http.post("/games", json={"type": "trash", "seats": [{"kind": "human"}] * 2,
                                      "time_control": {"kind": "hourglass"}})
    assert r.status_code == 422 and r.get_json()["code"] == "validation_error"


def test_a_seat_lets_its_forced_moves_play_themselves(api):
    game_id, tokens = api.new_game("trash", 2)
    seat = api.view(game_id)["to_act"][0]  # its first draw is forced: the discard is empty
    r = api.http.put(f"/games/{game_id}/forced-moves", json={"auto": True},
                     headers=api.auth(tokens[seat]))
    assert r.status_code == 200, r.get_json()
    view = r.get_json()
    assert view["seats"][seat]["auto_forced"] is True
    log = api.events(game_id, tokens[seat])["events"]
    assert log[-1]["type"] != "forced_moves_set"  # the draw followed at once
    assert any(e["data"].get("auto") == "forced" and e["actor"] == seat for e in log)
    r = api.http.put(f"/games/{game_id}/forced-moves", json={"auto": "maybe"},
                     headers=api.auth(tokens[seat]))
    assert r.status_code == 422
    r = api.http.put(f"/games/{game_id}/forced-moves", json={"auto": True})
    assert r.status_code == 401


def test_a_player_s_settings(api):
    r = api.http.post("/players", json={"name": "Ann"})
    key = r.get_json()["key"]
    settings = api.http.get("/players/me/settings", headers=api.auth(key)).get_json()
    assert settings["auto_forced"] is False
    assert settings["vacation"]["until"] is None and settings["vacation"]["days_used"] == 0
    r = api.http.put("/players/me/settings", json={"auto_forced": True}, headers=api.auth(key))
    assert r.status_code == 200 and r.get_json()["auto_forced"] is True
    assert api.http.get("/players/me/settings").status_code == 401


def test_a_vacation_over_http_stops_the_clock_the_others_see(api):
    ann = api.http.post("/players", json={"name": "Ann"}).get_json()["key"]
    r = api.http.post("/games", headers=api.auth(ann), json={
        "type": "ochs-und-esel", "options": {"first_player": 0}, "time_control": CORRESPONDENCE,
        "seats": [{"kind": "human", "me": True}, {"kind": "human"}, {"kind": "human"}]})
    game_id = r.get_json()["id"]
    bob = api.join(game_id, "bob")[1]
    api.join(game_id, "cy")
    r = api.http.post("/players/me/vacation", json={"days": 2}, headers=api.auth(ann))
    assert r.status_code == 200, r.get_json()
    until = r.get_json()["vacation"]["until"]
    assert r.get_json()["vacation"]["days_used"] == 2
    seat = api.view(game_id, bob)["seats"][0]
    assert seat["vacation_until"] == until and seat["deadline"] == until + seat["time_left"]
    r = api.http.post("/players/me/vacation", json={"days": 1}, headers=api.auth(ann))
    assert r.status_code == 409 and r.get_json()["code"] == "on_vacation"
    r = api.http.delete("/players/me/vacation", headers=api.auth(ann))
    assert r.status_code == 200 and r.get_json()["vacation"]["until"] is None
    assert api.view(game_id, bob)["seats"][0]["vacation_until"] is None
    types = [e["type"] for e in api.events(game_id, bob)["events"]]
    assert types[-2:] == ["vacation_started", "vacation_ended"]


def test_a_seat_takes_its_last_move_back(api):
    game_id, tokens = api.new_game("ochs-und-esel", 3, {"first_player": 0})
    before = api.view(game_id, tokens[0])
    move = before["legal_actions"][0]
    r = api.act(game_id, tokens[0], move)
    assert r.status_code == 200
    view = r.get_json()["view"]
    assert "take_back" in [a["name"] for a in view["table_actions"]]
    assert "take_back" not in [a["name"] for a in api.view(game_id, tokens[1])["table_actions"]]
    r = api.http.post(f"/games/{game_id}/take-back", headers=api.auth(tokens[1]))
    assert r.status_code == 409 and r.get_json()["code"] == "take_back_closed"
    r = api.http.post(f"/games/{game_id}/take-back", headers=api.auth(tokens[0]))
    assert r.status_code == 200, r.get_json()
    back = r.get_json()
    assert back["to_act"] == [0] and back["game"]["hand"] == before["game"]["hand"]
    assert back["legal_actions"] == before["legal_actions"]
    events = api.events(game_id, tokens[2], after=before["version"])["events"]
    assert [e["type"] for e in events] == [events[0]["type"], "move_taken_back"]
    assert events[0]["data"]["undoable"] == 1
