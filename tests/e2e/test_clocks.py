"""Time controls over HTTP: chosen at creation, shown in the view and in the lobby, and
refused in one JSON shape when they do not hold together."""

from __future__ import annotations

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
