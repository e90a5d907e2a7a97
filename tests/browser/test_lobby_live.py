"""The lobby follows the player's own event stream: the "your turn" badge changes when
another player moves, and an invitation shows up as it arrives, with no reload and no
polling (one stream for all the player's games)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.pages import new_page

pytestmark = pytest.mark.timeout(120)
PLAYER_KEY = "donkeypost.player.v1"


@pytest.fixture
def page(context: Any) -> Iterator[Any]:
    yield new_page(context)


def _register(http: Any, name: str) -> dict[str, Any]:
    r = http.post("/players", json={"name": name})
    assert r.status_code == 201, r.text
    return r.json()


def test_the_lobby_badge_changes_when_another_player_moves(page, server, http):
    ann, bob = _register(http, "Ann Live"), _register(http, "Bob Live")
    auth = {"Authorization": f"Bearer {bob['key']}"}
    r = http.post("/games", headers=auth, json={
        "type": "ochs-und-esel", "options": {"rounds": 1, "first_player": 0},
        "deadline_s": None, "seats": [{"kind": "human", "me": True},
                                      {"kind": "human", "invite": "Ann Live"},
                                      {"kind": "bot", "level": "basic"}]})
    assert r.status_code == 201, r.text
    game = r.json()["id"]
    page.goto(f"{server.url}/play")
    page.evaluate(f"localStorage.setItem('{PLAYER_KEY}', {json.dumps(json.dumps(ann))})")
    page.reload()
    page.wait_for_selector("body[data-player-stream='live']")
    page.wait_for_selector(".player-games .badge[data-invited='1'][data-my-turn='0']")
    # Ann takes her seat elsewhere (her phone): the lobby hears the game start.
    assert http.post(f"/games/{game}/players",
                     headers={"Authorization": f"Bearer {ann['key']}"}).status_code == 201
    page.wait_for_selector(".player-games .badge[data-invited='0'][data-my-turn='0']")
    # Bob moves: it is Ann's turn, and her lobby says so at once.
    view = http.get(f"/games/{game}", headers=auth).json()
    assert http.post(f"/games/{game}/actions", headers=auth,
                     json=view["legal_actions"][0]).status_code == 200
    page.wait_for_selector(".player-games .badge[data-my-turn='1']")
    assert f"#/game/{game}" in page.inner_html(".player-games")
    page.screenshot(path="tests/browser/artifacts/lobby-your-turn.png")
    assert page.errors == []
