"""The generic board — what draws a game the page has no board of its own for — draws each
of the project's games from the layout its views describe, when a person asks for the plain
board: every zone, the cards the legal actions use made clickable by their label's `uses`,
the moves labelled in the game's words. A whole game of Ochs & Esel is played on it by
clicking only what it offers."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.browser.pages import (
    BAD_IMPACTS,
    assert_offers_exactly_the_legal_actions,
    axe_violations,
    hold,
    new_page,
    play_a_few_moves,
    play_until,
    scrolls_sideways,
    seated_game,
)

pytestmark = pytest.mark.timeout(240)
PLAIN = "localStorage.setItem('donkeypost.plain.v1', '1')"
TABLES = {"ochs-und-esel": ({"rounds": 1}, 3), "crazy-donkey": ({"deals": 1}, 3),
          "trash": ({}, 2), "canyon-donkeys": ({}, 3)}


def uses(http: Any, game_id: str, token: str) -> set[str]:
    view = http.get(f"/games/{game_id}?words=true",
                    headers={"Authorization": f"Bearer {token}"}).json()
    return {key for label in view["action_labels"] for key in label["uses"]}


@pytest.mark.parametrize("game_type", list(TABLES))
def test_each_game_on_the_generic_board(browser, server, http, game_type):
    options, players = TABLES[game_type]
    game_id, tokens, _creator = seated_game(http, game_type, players, options, deadline_s=3600)
    seat = play_a_few_moves(http, game_id, tokens, 3)
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        hold(ctx, game_id, game_type, seat, tokens[seat])
        ctx.add_init_script(PLAIN)
        page = new_page(ctx)
        page.goto(f"{server.url}/play/#/game/{game_id}")
        page.wait_for_selector("#live.on")
        page.wait_for_selector(".generic-board [data-zone]")
        assert page.locator(".trick-board, .trash-board, .canyon-board").count() == 0
        assert assert_offers_exactly_the_legal_actions(page, http)
        clickable = set(page.locator(".generic-board button.pick").evaluate_all(
            "els => els.map(e => e.dataset.key)"))
        # Only cards a legal action uses are clickable, and some are whenever one does
        # (a canyon seat may be deciding a contract or the limit: no card is used then).
        used = uses(http, game_id, tokens[seat])
        assert clickable <= used and (clickable or not used), (clickable, used)
        assert not scrolls_sideways(page)
        bad = [v for v in axe_violations(page) if v["impact"] in BAD_IMPACTS]
        assert not bad, bad
        page.screenshot(path=ARTIFACTS / f"generic-{game_type}-phone.png", full_page=True)
        assert page.errors == []
    finally:
        ctx.close()


def test_a_whole_game_played_on_the_generic_board(browser, server, http):
    created = http.post("/games", json={
        "type": "ochs-und-esel", "options": {"rounds": 1}, "deadline_s": None,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"},
                  {"kind": "bot", "level": "random"}]}).json()
    joined = http.post(f"/games/{created['id']}/players", json={"name": "Gen"}).json()
    ctx = browser.new_context()
    try:
        hold(ctx, created["id"], "ochs-und-esel", joined["seat"], joined["token"])
        ctx.add_init_script(PLAIN)
        page = new_page(ctx)
        page.goto(f"{server.url}/play/#/game/{created['id']}")
        page.wait_for_selector(".generic-board")
        clicks = play_until([page], lambda: page.get_attribute("body", "data-status") ==
                            "finished", 180, http)
        assert clicks >= 5
        assert http.get(f"/games/{created['id']}").json()["status"] == "finished"
        assert page.errors == []
    finally:
        ctx.close()
