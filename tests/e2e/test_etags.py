"""Conditional reads of the lists and the event pages: each answer carries an `ETag`; sent
back in `If-None-Match` it gets a 304 with no body while the answer would be the same, and
the whole answer again once something changed (a new game, a move, another page)."""

from __future__ import annotations

from typing import Any

from tests.e2e.api_client import ApiClient


def _conditional(api: ApiClient, url: str, headers: dict[str, str] | None = None) -> str:
    """The ETag of `url`, after checking that sending it back is answered 304."""
    first = api.http.get(url, headers=headers or {})
    assert first.status_code == 200, first.get_json()
    etag = first.headers["ETag"]
    again = api.http.get(url, headers={**(headers or {}), "If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == etag  # the 304 confirms the tag it was sent
    other = api.http.get(url, headers={**(headers or {}), "If-None-Match": '"something-else"'})
    assert other.status_code == 200 and other.data == first.data
    return etag


def _play_one(api: ApiClient, game_id: str, tokens: list[str]) -> None:
    seat = api.view(game_id)["to_act"][0]
    action = api.view(game_id, tokens[seat])["legal_actions"][0]
    assert api.act(game_id, tokens[seat], action).status_code == 200


def test_the_game_list_answers_304_until_a_game_changes(api):
    game_id, tokens = api.new_game("high-card", 2)
    etag = _conditional(api, "/games")
    _play_one(api, game_id, tokens)
    assert _conditional(api, "/games") != etag
    other_page = _conditional(api, "/games?page=2&page_size=1")
    assert other_page != _conditional(api, "/games?page=1&page_size=1")


def test_an_event_page_answers_304_until_the_log_grows(api):
    game_id, tokens = api.new_game("high-card", 2)
    url = f"/games/{game_id}/events?after=0"
    etag = _conditional(api, url, api.auth(tokens[0]))
    assert api.http.get(url, headers=api.auth(tokens[0])).headers["Vary"] == "Authorization"
    assert _conditional(api, url) != etag  # a spectator sees no hand: another answer
    _play_one(api, game_id, tokens)
    assert _conditional(api, url, api.auth(tokens[0])) != etag


def _player(api: ApiClient, name: str) -> str:
    r = api.http.post("/players", json={"name": name})
    assert r.status_code == 201, r.get_json()
    return r.get_json()["key"]


def test_the_inbox_answers_304_until_the_players_games_change(api):
    ann, bob = _player(api, "Ann"), _player(api, "Bob")
    seats: list[dict[str, Any]] = [{"kind": "human", "me": True}, {"kind": "human"}]
    created = api.http.post("/games", json={"type": "high-card", "seats": seats,
                                            "deadline_s": None}, headers=api.auth(ann))
    assert created.status_code == 201, created.get_json()
    game_id = created.get_json()["id"]
    joined = api.http.post(f"/games/{game_id}/players", headers=api.auth(bob))
    assert joined.status_code == 201, joined.get_json()
    url = "/players/me/games?status=active"
    etag = _conditional(api, url, api.auth(ann))
    first = api.http.get(url, headers=api.auth(ann))
    assert first.headers["Vary"] == "Authorization"
    # Bob's inbox lists the same game from his seat: not the same answer, not the same tag.
    assert _conditional(api, url, api.auth(bob)) != etag
    _play_one(api, game_id, [ann, bob])
    assert _conditional(api, url, api.auth(ann)) != etag
