"""A game installed from its own distribution is played to the end at the web table, which
knows nothing of it: the generic board draws its layout, the moves are its labelled legal
actions, the log is its sentences. Every installed game that is not the project's (the
suite's own extra games, `tests/game_plugins/`) is played here by two people, each in a
browser of their own."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.browser.pages import body_data, hold, new_page, play_until, seated_game
from tests.support.games import installed_games, project_games

EXTRA = sorted(set(installed_games()) - set(project_games()))


@pytest.mark.parametrize("game_type", EXTRA)
def test_an_installed_game_is_played_to_the_end_at_the_table(browser, server, http,
                                                             game_type):
    game = installed_games()[game_type]
    game_id, tokens, _creator = seated_game(http, game_type, game.min_players)
    contexts = [browser.new_context(viewport={"width": 420, "height": 900})
                for _ in tokens]
    try:
        pages: list[Any] = []
        for seat, (ctx, token) in enumerate(zip(contexts, tokens, strict=True)):
            hold(ctx, game_id, game_type, seat, token)
            page = new_page(ctx)
            page.goto(f"{server.url}/play/#/game/{game_id}")
            page.wait_for_selector("body[data-status='active']")
            pages.append(page)
        first = pages[0]
        # The board is drawn from the layout the API gives (`words=true`).
        first.wait_for_selector("#board .generic-board [data-zone='hand']")
        words = http.get(f"/games/{game_id}?words=true",
                         headers={"Authorization": f"Bearer {tokens[0]}"}).json()
        for zone in words["layout"]["zones"]:
            assert first.locator(f"[data-zone='{zone['id']}']").count() >= 1, zone["id"]

        clicks = play_until(pages, lambda: body_data(first, "status") == "finished", 300,
                            http)
        view = http.get(f"/games/{game_id}").json()
        assert view["status"] == "finished" and clicks >= 2
        for page in pages:
            page.wait_for_selector(f"body[data-last-seq='{view['version']}']")
        # The log is the game's own sentences, every event once, in order.
        told = http.get(f"/games/{game_id}/events?words=true").json()["events"]
        items = first.locator("#log li")
        assert items.evaluate_all("els => els.map(e => +e.dataset.seq)") == \
            list(range(1, view["version"] + 1))
        assert told[-2]["sentence"]["text"] in first.locator("#log").inner_text()
        first.screenshot(path=ARTIFACTS / f"{game_type}-finished.png", full_page=True)
        for page in pages:
            assert page.errors == []
    finally:
        for ctx in contexts:
            ctx.close()
