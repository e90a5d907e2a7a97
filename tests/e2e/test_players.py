"""Players over HTTP on the real stack: one key across games, the inbox and its order,
invitations only the invitee can take, the lobby, cancelling, a rematch asked for twice at
once giving one game, and the rating change in the inbox."""

from __future__ import annotations

import threading
from typing import Any

import httpx
import pytest

from tests.e2e.api_client import ApiClient
from tests.support.live import serving


def _register(api: ApiClient, name: str) -> dict[str, Any]:
    r = api.http.post("/players", json={"name": name})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def _create(api: ApiClient, key: str | None, seats: list[dict[str, Any]],
            **extra: Any) -> dict[str, Any]:
    r = api.http.post("/games", json={"type": "high-card", "seats": seats, **extra},
                      headers=api.auth(key))
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def _inbox(api: ApiClient, key: str, query: str = "") -> tuple[list[dict[str, Any]], Any]:
    r = api.http.get(f"/players/me/games{query}", headers=api.auth(key))
    assert r.status_code == 200, r.get_json()
    return r.get_json(), r.headers.get("X-Pagination")


def _play(api: ApiClient, game_id: str, key: str) -> dict[str, Any]:
    view = api.view(game_id, key)
    r = api.act(game_id, key, view["legal_actions"][0])
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def _play_to_end(api: ApiClient, game_id: str, keys: dict[int, str]) -> dict[str, Any]:
    return api.play_to_end(game_id, [keys[i] for i in range(len(keys))])


def test_a_player_key_is_shown_once_and_works_on_every_game_of_theirs(api):
    ann = _register(api, "Ann")
    assert ann["key"].startswith("pk.") and ann["name"] == "Ann"
    profile = api.http.get(f"/players/{ann['id']}").get_json()
    assert profile == {"id": ann["id"], "name": "Ann", "created_at": ann["created_at"],
                       "bot": False,
                       "games": []}
    assert "key" not in api.http.get("/players/me", headers=api.auth(ann["key"])).get_json()
    r = api.http.post("/players", json={"name": "ＡＮＮ"})
    assert r.status_code == 409 and r.get_json()["code"] == "name_taken"
    r = api.http.post("/players", json={"name": "Ann\u200b"})
    assert r.status_code == 422 and r.get_json()["code"] == "bad_name"
    games = [_create(api, ann["key"], [{"kind": "human", "me": True}, {"kind": "human"}],
                     deadline_s=None) for _ in range(2)]
    for game in games:
        assert game["you"] == 0 and game["seats"][0]["player"] == ann["id"]
        _seat, token = api.join(game["id"], "anon")  # seat tokens work as before
        assert api.view(game["id"], token)["you"] == 1
        assert api.view(game["id"], ann["key"])["you"] == 0
        assert _play(api, game["id"], ann["key"])["version"] > 0
    # A new key: the old one stops at once, everywhere.
    r = api.http.post("/players/me/keys", headers=api.auth(ann["key"]))
    assert r.status_code == 201
    new_key = r.get_json()["key"]
    assert new_key != ann["key"]
    r = api.http.get(f"/games/{games[0]['id']}", headers=api.auth(ann["key"]))
    assert r.status_code == 401 and r.get_json()["code"] == "invalid_player_key"
    assert api.view(games[0]["id"], new_key)["you"] == 0
    # A player without a seat here spectates, and may not act.
    bob = _register(api, "Bob")
    assert api.view(games[0]["id"], bob["key"])["you"] is None
    r = api.act(games[0]["id"], bob["key"], {"type": "play", "card": 1})
    assert r.status_code == 403 and r.get_json()["code"] == "not_seated"
    assert api.http.get("/players/me/games").status_code == 401
    assert api.http.get("/players/nobody").status_code == 404


def test_two_players_inboxes_list_their_turns_soonest_deadline_first(api):
    ann, bob = _register(api, "Ann"), _register(api, "Bob")
    both = [{"kind": "human", "me": True}, {"kind": "human", "invite": "Bob"}]
    ids = []
    for deadline in (3000, 1000, 2000, None):
        game = _create(api, ann["key"], both, deadline_s=deadline)
        r = api.http.post(f"/games/{game['id']}/players", headers=api.auth(bob["key"]))
        assert r.status_code == 201 and r.get_json()["token"] is None
        ids.append(game["id"])
    # Bob also has a game of his own, with a bot: his turn first.
    own = _create(api, bob["key"], [{"kind": "human", "me": True}, {"kind": "bot"}],
                  deadline_s=500)
    mine, pages = _inbox(api, ann["key"], "?my_turn=true")
    assert [e["id"] for e in mine] == [ids[1], ids[2], ids[0], ids[3]]
    assert mine[0]["my_turn"] and mine[0]["seat"] == 0 and mine[0]["type"] == "high-card"
    assert [s["name"] for s in mine[0]["seats"]] == ["Ann", "Bob"]
    assert mine[0]["deadline"] < mine[1]["deadline"] < mine[2]["deadline"]
    assert mine[3]["deadline"] is None
    assert '"total": 4' in pages
    assert [e["id"] for e in _inbox(api, bob["key"], "?my_turn=true")[0]] == [own["id"]]
    assert [e["id"] for e in _inbox(api, bob["key"], "?my_turn=false")[0]] == ids
    # Ann plays in the soonest: it becomes Bob's turn there.
    after = _play(api, ids[1], ann["key"])
    mine, _ = _inbox(api, ann["key"], "?status=active&my_turn=true")
    assert [e["id"] for e in mine] == [ids[2], ids[0], ids[3]]
    bobs, _ = _inbox(api, bob["key"], "?status=active&my_turn=true")
    assert [e["id"] for e in bobs] == [own["id"], ids[1]]  # 500 s before 1000 s
    assert bobs[1]["version"] == after["version"] and bobs[1]["my_turn"]
    # Paginated like /games.
    page, pages = _inbox(api, ann["key"], "?my_turn=true&page=2&page_size=2")
    assert [e["id"] for e in page] == [ids[3]] and '"total": 3' in pages


def test_an_invitation_only_the_invitee_can_take(api):
    ann, bob, cid = _register(api, "Ann"), _register(api, "Bob"), _register(api, "Cid")
    game = _create(api, ann["key"], [{"kind": "human", "me": True},
                                     {"kind": "human", "invite": "bob"}])
    assert game["seats"][1]["invited"] == bob["id"] and game["seats"][1]["name"] == "Bob"
    invitations, _ = _inbox(api, bob["key"], "?status=open")
    assert [(e["id"], e["invited"], e["seat"]) for e in invitations] == [(game["id"], True, 1)]
    for credential in ({}, api.auth(cid["key"])):
        r = api.http.post(f"/games/{game['id']}/players", json={"name": "eve"},
                          headers=credential)
        assert r.status_code == 409 and r.get_json()["code"] == "no_free_seat"
    # Not in the lobby: no seat there is open to anyone.
    lobby = api.http.get("/games?status=open&type=high-card&has_free_seat=true").get_json()
    assert lobby == []
    r = api.http.post(f"/games/{game['id']}/players", headers=api.auth(bob["key"]))
    assert r.status_code == 201 and r.get_json()["seat"] == 1
    assert r.get_json()["game"]["status"] == "active"
    r = api.http.post(f"/games/{game['id']}/players", headers=api.auth(bob["key"]))
    assert r.status_code == 409
    r = api.http.post("/games", json={"type": "high-card", "seats": [
        {"kind": "human", "invite": "nobody here"}, {"kind": "human"}]},
        headers=api.auth(ann["key"]))
    assert r.status_code == 404 and r.get_json()["code"] == "unknown_player"


def test_the_lobby_lists_open_seats_and_the_creator_may_cancel(api):
    ann, bob = _register(api, "Ann"), _register(api, "Bob")
    open_game = _create(api, ann["key"], [{"kind": "human", "me": True}, {"kind": "human"}])
    anonymous = _create(api, None, [{"kind": "human"}, {"kind": "human"}])
    lobby = api.http.get("/games?status=open&type=high-card&has_free_seat=true")
    assert [g["id"] for g in lobby.get_json()] == [anonymous["id"], open_game["id"]]
    assert api.http.get("/games?has_free_seat=false").status_code == 422
    r = api.http.post(f"/games/{open_game['id']}/cancel", headers=api.auth(bob["key"]))
    assert r.status_code == 403
    assert api.view(open_game["id"], ann["key"])["table_actions"] == [
        {"name": "cancel", "method": "POST", "href": f"/games/{open_game['id']}/cancel"}]
    r = api.http.post(f"/games/{open_game['id']}/cancel", headers=api.auth(ann["key"]))
    assert r.status_code == 200 and r.get_json()["status"] == "cancelled"
    r = api.http.post(f"/games/{anonymous['id']}/cancel",
                      headers=api.auth(anonymous["creator_token"]))
    assert r.status_code == 200
    lobby = api.http.get("/games?status=open&has_free_seat=true").get_json()
    assert lobby == []
    r = api.http.post(f"/games/{open_game['id']}/players", headers=api.auth(bob["key"]))
    assert r.status_code == 409 and r.get_json()["code"] == "game_cancelled"
    started = _create(api, ann["key"], [{"kind": "human", "me": True}, {"kind": "bot"}])
    r = api.http.post(f"/games/{started['id']}/cancel", headers=api.auth(ann["key"]))
    assert r.status_code == 409 and r.get_json()["code"] == "game_started"


def test_a_rematch_asked_for_twice_at_once_gives_one_game(app, api):
    ann, bob = _register(api, "Ann"), _register(api, "Bob")
    game = _create(api, ann["key"], [{"kind": "human", "me": True},
                                     {"kind": "human", "invite": "Bob"}, {"kind": "human"}],
                   deadline_s=None)
    api.http.post(f"/games/{game['id']}/players", headers=api.auth(bob["key"]))
    _seat, anon_token = api.join(game["id"], "anon")
    keys = {0: ann["key"], 1: bob["key"], 2: anon_token}
    _play_to_end(api, game["id"], keys)
    assert {"name": "rematch", "method": "POST", "href": f"/games/{game['id']}/rematch"} in \
        api.view(game["id"], bob["key"])["table_actions"]
    answers: list[httpx.Response] = []
    with serving(app) as base:
        barrier = threading.Barrier(4)

        def ask(key: str) -> None:
            barrier.wait()
            answers.append(httpx.post(f"{base}/games/{game['id']}/rematch",
                                      headers={"Authorization": f"Bearer {key}"}, timeout=30))

        askers = [threading.Thread(target=ask, args=(k,))
                  for k in (ann["key"], bob["key"], ann["key"], bob["key"])]
        for t in askers:
            t.start()
        for t in askers:
            t.join()
    assert sorted(r.status_code for r in answers) == [200, 200, 200, 201]
    rematch_ids = {r.json()["game"]["id"] for r in answers}
    assert len(rematch_ids) == 1
    rematch_id = rematch_ids.pop()
    assert api.view(game["id"])["rematch"] == rematch_id
    rematch = api.view(rematch_id, ann["key"])
    assert rematch["rematch_of"] == game["id"] and rematch["you"] == 2
    assert [(s["player"], s["rematch_seat"]) for s in rematch["seats"]] == [
        (bob["id"], None), (None, 2), (ann["id"], None)]
    # The anonymous seat's holder takes the kept seat by asking too; once.
    r = api.http.post(f"/games/{game['id']}/rematch", headers=api.auth(anon_token))
    assert r.status_code == 200 and r.get_json()["seat"] == 1
    new_token = r.get_json()["token"]
    assert api.view(rematch_id, new_token)["you"] == 1
    assert api.view(rematch_id)["status"] == "active"
    r = api.http.post(f"/games/{game['id']}/rematch", headers=api.auth(anon_token))
    assert r.get_json()["token"] is None
    r = api.http.post(f"/games/{rematch_id}/rematch", headers=api.auth(ann["key"]))
    assert r.status_code == 409 and r.get_json()["code"] == "game_not_finished"
    assert api.http.post(f"/games/{game['id']}/rematch").status_code == 401


def test_the_inbox_shows_what_a_finished_game_did_to_the_rating(app, api):
    ann, bob = _register(api, "Ann"), _register(api, "Bob")
    game = _create(api, ann["key"], [{"kind": "human", "me": True},
                                     {"kind": "human", "invite": "Bob"},
                                     {"kind": "bot", "level": "random"}], deadline_s=None)
    api.http.post(f"/games/{game['id']}/players", headers=api.auth(bob["key"]))
    service = app.extensions["donkeypost"]
    while (view := api.view(game["id"]))["status"] != "finished":
        seat = view["to_act"][0]
        if seat == 2:  # the bot's seat: played here, as no worker runs in these tests
            table, _ = service.load(game["id"])
            service.act(game["id"], 2, {"type": "play", "card": table.game.hands[2][0]},
                        by="bot")
        else:
            _play(api, game["id"], (ann, bob)[seat]["key"])
    finished, _ = _inbox(api, ann["key"], "?status=finished")
    assert finished[0]["rating"] is None and finished[0]["place"] is not None
    assert service.rate_game(game["id"]) == "rated"
    finished, _ = _inbox(api, ann["key"], "?status=finished")
    change = finished[0]["rating"]
    assert change["before"] == 1500.0
    assert change["after"] == pytest.approx(change["before"] + change["delta"])
    profile = api.http.get(f"/players/{ann['id']}").get_json()
    assert profile["games"][0]["rating"] == pytest.approx(change["after"])
    assert profile["games"][0]["played"] == 1
    board = api.http.get("/ratings/high-card")
    assert board.status_code == 200 and '"total": 3' in board.headers["X-Pagination"]
    assert {e["kind"] for e in board.get_json()} == {"player", "bot"}
    assert api.http.get("/ratings/no-such-game").status_code == 404
