"""A player's own event stream over HTTP: every game of theirs in one place (`my_turn`,
`invited`, `game_started`, `game_finished` with the rating, `message`, `seat_taken_over`),
paged with `?after=` and pushed as Server-Sent Events, resumable, from a browser with a
single-use ticket; nobody reads another player's."""

from __future__ import annotations

import json
import threading
from typing import Any

import httpx
import pytest

from tests.e2e.api_client import ApiClient
from tests.support.live import serving, sse_messages


def register(api: ApiClient, name: str) -> dict[str, Any]:
    r = api.http.post("/players", json={"name": name})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def events(api: ApiClient, key: str, after: str = "0-0") -> dict[str, Any]:
    r = api.http.get(f"/players/me/events?after={after}", headers=api.auth(key))
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def kinds(page: dict[str, Any]) -> list[tuple[str, str]]:
    return [(e["type"], e["game"]) for e in page["events"]]


def test_a_players_stream_tells_each_change_of_each_of_their_games(api, app):
    ann, bob = register(api, "Ann"), register(api, "Bob")
    games = []
    for _ in range(2):
        r = api.http.post("/games", headers=api.auth(ann["key"]), json={
            "type": "high-card", "deadline_s": 3600,
            "seats": [{"kind": "human", "me": True}, {"kind": "human", "invite": "Bob"}]})
        assert r.status_code == 201
        games.append(r.get_json()["id"])
    bob_page = events(api, bob["key"])
    assert kinds(bob_page) == [("invited", games[0]), ("invited", games[1])]
    assert bob_page["events"][0]["data"]["by"] == ann["id"]
    assert kinds(events(api, ann["key"])) == []  # her own games: nothing to tell her
    # Bob takes both seats: both start; each is somebody's turn.
    for game in games:
        assert api.http.post(f"/games/{game}/players",
                             headers=api.auth(bob["key"])).status_code == 201
    ann_page = events(api, ann["key"])
    started = [e for e in ann_page["events"] if e["type"] == "game_started"]
    assert [e["game"] for e in started] == games
    turns = {e["game"]: e for e in ann_page["events"] + events(api, bob["key"])["events"]
             if e["type"] == "my_turn"}
    assert set(turns) == set(games)
    turn = turns[games[0]]
    assert turn["game_type"] == "high-card" and turn["data"]["deadline"] is not None
    # Paging: after an id, only what follows; `last` says where to go on.
    first = ann_page["events"][0]["id"]
    assert events(api, ann["key"], first)["events"] == ann_page["events"][1:]
    assert events(api, ann["key"], ann_page["last"]) == {"events": [],
                                                          "last": ann_page["last"]}
    # Chat: the others hear of it, without its text; the writer does not.
    before = events(api, bob["key"])["last"]
    r = api.http.post(f"/games/{games[0]}/messages", headers=api.auth(ann["key"]),
                      json={"text": "good luck"})
    assert r.status_code == 201
    told = events(api, bob["key"], before)["events"]
    assert [(e["type"], e["data"]["n"], e["data"]["name"]) for e in told] == \
        [("message", 1, "Ann")]
    assert "good luck" not in json.dumps(told)
    assert [e for e in events(api, ann["key"])["events"] if e["type"] == "message"] == []
    # Nobody reads another's stream; a seat token is not a player key.
    r = api.http.get("/players/me/events")
    assert r.status_code == 401 and r.get_json()["code"] == "missing_player_key"
    r = api.http.get("/players/me/events?after=nope", headers=api.auth(ann["key"]))
    assert r.status_code == 422


def test_a_finished_game_is_told_with_place_score_and_rating_once_rated(api, app):
    ann, bob = register(api, "Ann"), register(api, "Bob")
    r = api.http.post("/games", headers=api.auth(ann["key"]), json={
        "type": "high-card", "deadline_s": None,
        "seats": [{"kind": "human", "me": True}, {"kind": "human", "invite": "Bob"}]})
    game = r.get_json()["id"]
    api.http.post(f"/games/{game}/players", headers=api.auth(bob["key"]))
    keys = {0: ann["key"], 1: bob["key"]}
    api.play_to_end(game, [keys[0], keys[1]])
    service = app.extensions["donkeypost"]
    assert service.rate_game(game) == "rated"
    assert service.rate_game(game) == "already"  # told once, however often rated
    for player, seat in ((ann, 0), (bob, 1)):
        done = [e for e in events(api, player["key"])["events"]
                if e["type"] == "game_finished"]
        assert len(done) == 1
        data = done[0]["data"]
        assert data["seat"] == seat and data["place"] in (1, 2)
        assert data["score"] is not None
        assert data["rating"]["after"] - data["rating"]["before"] == \
            pytest.approx(data["rating"]["delta"])


def test_the_stream_pushes_resumes_and_takes_a_single_use_ticket(api, app):
    ann, bob = register(api, "Ann"), register(api, "Bob")
    with serving(app) as base:
        got: list[Any] = []
        opened = threading.Event()

        def follow(params: dict[str, str], headers: dict[str, str], until: int) -> None:
            with httpx.stream("GET", f"{base}/players/me/events/stream", params=params,
                              headers=headers, timeout=10) as r:
                assert r.status_code == 200
                opened.set()
                for m in sse_messages(r.iter_lines()):
                    if not isinstance(m, str):
                        got.append(m)
                        if len(got) >= until:
                            return

        ticket = api.http.post("/players/me/events/stream/tickets",
                               headers=api.auth(bob["key"])).get_json()["ticket"]
        reader = threading.Thread(target=follow, args=({"ticket": ticket}, {}, 1))
        reader.start()
        assert opened.wait(5)
        r = api.http.post("/games", headers=api.auth(ann["key"]), json={
            "type": "high-card", "deadline_s": None,
            "seats": [{"kind": "human", "me": True}, {"kind": "human", "invite": "Bob"}]})
        game = r.get_json()["id"]
        reader.join(10)
        assert [(m.event, json.loads(m.data)["game"]) for m in got] == [("invited", game)]
        invited_id = got[0].id
        assert invited_id == events(api, bob["key"])["events"][0]["id"]
        # The ticket is spent; the key resumes after the last id held.
        r = httpx.get(f"{base}/players/me/events/stream", params={"ticket": ticket})
        assert r.status_code == 401 and r.json()["code"] == "invalid_ticket"
        api.http.post(f"/games/{game}/players", headers=api.auth(bob["key"]))
        got.clear()
        follow({}, {"Authorization": f"Bearer {bob['key']}", "Last-Event-ID": invited_id}, 1)
        assert [m.event for m in got] == ["game_started"]
        assert got[0].id == events(api, bob["key"], invited_id)["events"][0]["id"]
        r = httpx.get(f"{base}/players/me/events/stream",
                      headers={"Authorization": f"Bearer {bob['key']}",
                               "Last-Event-ID": "x"})
        assert r.status_code == 400 and r.json()["code"] == "bad_last_event_id"
