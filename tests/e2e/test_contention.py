"""A command whose retries all meet another writer answers 409 `contention` with a
`Retry-After` header, in the shared error shape, and writes nothing."""

from __future__ import annotations

import pytest

from domain.errors import VersionConflict


@pytest.fixture
def always_beaten(app, monkeypatch):
    """From now on, another writer appends first every time: a list of the attempts."""
    store = app.extensions["donkeypost"].store
    attempts: list[int] = []

    def beaten(game_id, expected_version, *args, **kwargs):
        attempts.append(expected_version)
        raise VersionConflict(expected_version, expected_version + 1)

    def start() -> list[int]:
        monkeypatch.setattr(store, "append", beaten)
        return attempts

    return start


def _assert_contention(r) -> None:
    body = r.get_json()
    assert r.status_code == 409
    assert body["code"] == "contention" and body["status"] == 409 and body["message"]
    assert r.headers["Retry-After"] == "1"
    assert "expected version -1" not in body["message"]


def test_an_action_that_keeps_meeting_other_writers_is_told_to_retry(api, always_beaten):
    game_id, tokens = api.new_game("high-card", 2)
    view = api.view(game_id, tokens[0])
    attempts = always_beaten()
    r = api.act(game_id, tokens[0], view["legal_actions"][0])
    _assert_contention(r)
    assert attempts == [view["version"]] * 3
    # Like every error about a game: the version and what the caller may post.
    assert r.get_json()["version"] == view["version"]
    assert r.get_json()["legal_actions"] == view["legal_actions"]
    assert api.view(game_id)["version"] == view["version"]  # nothing was written


def test_taking_a_seat_that_keeps_meeting_other_writers_is_told_to_retry(api, always_beaten):
    game = api.create("high-card", 2)
    attempts = always_beaten()
    r = api.http.post(f"/games/{game['id']}/players", json={"name": "ann"})
    _assert_contention(r)
    assert len(attempts) == 5
    assert all(not s["taken"] for s in api.view(game["id"])["seats"])


def test_coming_back_that_keeps_meeting_other_writers_is_told_to_retry(app, api,
                                                                      always_beaten):
    game_id, tokens = api.new_game("high-card", 2)
    service = app.extensions["donkeypost"]
    for seat, by in ((0, "timeout"), (1, "player"), (0, "timeout")):  # seat 0 goes away
        action = api.view(game_id, tokens[seat])["legal_actions"][0]
        service.act(game_id, seat, action, by=by)
    assert api.view(game_id)["seats"][0]["away"]
    attempts = always_beaten()
    r = api.http.post(f"/games/{game_id}/back", headers=api.auth(tokens[0]))
    _assert_contention(r)
    assert len(attempts) == 3
    assert api.view(game_id)["seats"][0]["away"]
