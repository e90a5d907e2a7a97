"""The lobby offers every creation option of every game from the type's own description
(the canyon's donkey deck included), and every table gives a link to watch it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.pages import new_page

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def page(context: Any) -> Iterator[Any]:
    yield new_page(context)


def test_every_option_of_every_game_has_an_input(page, server, http):
    page.goto(f"{server.url}/play")
    for game in http.get("/games/types").json():
        page.select_option("#game-type", game["id"])
        for option in game["options"]:
            field = page.locator(f"#option-{option['name']}")
            assert field.count() == 1, (game["id"], option["name"])
            assert option["description"].split(" ")[0] in page.inner_text(".options")
    assert page.errors == []


def test_a_canyon_table_with_a_deck_of_ones_choosing_and_a_spectator_watches(
        page, server, http, browser):
    page.goto(f"{server.url}/play")
    page.select_option("#game-type", "canyon-donkeys")
    page.fill("#my-name", "Ann")
    page.fill("#seat-count", "3")
    page.dispatch_event("#seat-count", "change")
    for i, kind in enumerate(["me", "bot:random", "bot:random"]):
        page.select_option(f"select[data-seat='{i}']", kind)
    deck = {"normal": 6, "giant": 0, "puny": 0, "precision": 0, "holed": 0, "attacked": 0,
            "hurried": 0, "lost": 0, "double": 1, "stubborn": 1, "difficult": 0, "picky": 0}
    for kind, n in deck.items():
        page.fill(f"#option-donkey_deck-{kind}", str(n))
    assert page.inner_text("#option-donkey_deck-total") == "8 in all"
    page.fill("#option-donkey_deck-normal", "1")
    assert "at least 8" in page.inner_text("#option-donkey_deck-total")
    page.fill("#option-donkey_deck-normal", "6")
    page.select_option("#option-first_player", "2")  # the third seat: numbered from 1
    page.select_option("#deadline", "bank:604800:86400")  # a correspondence clock
    assert page.locator("#option-first_player option").count() == 1 + 3
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/play/#/game/*")
    game_id = page.url.rsplit("/", 1)[1]
    view = http.get(f"/games/{game_id}").json()
    assert view["options"]["donkey_deck"] == deck
    assert view["options"]["first_player"] == 2
    assert view["time_control"]["kind"] == "correspondence"
    assert (view["time_control"]["bank_s"], view["time_control"]["increment_s"]) == \
        (604800, 86400)
    page.wait_for_selector("body[data-status='active']")
    link = page.input_value("#watch-link")
    assert link == f"{server.url}/play/#/games/{game_id}"
    # Someone else opens the link: the table as a spectator sees it, no move offered.
    other = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        watcher = new_page(other)
        watcher.goto(link)
        watcher.wait_for_selector("#live.on")
        assert watcher.inner_text(".note") == "You are watching."
        assert watcher.locator("#actions button").count() == 0
        assert watcher.locator("#chat textarea").count() == 0
        assert watcher.errors == []
    finally:
        other.close()
    assert page.errors == []


def test_the_language_is_the_browsers_and_can_be_switched(browser, server):
    ctx = browser.new_context(locale="fr-FR")
    try:
        page = new_page(ctx)
        page.goto(f"{server.url}/play/")
        page.wait_for_selector("#new-h")
        assert page.inner_text("#new-h") == "Nouvelle partie"
        page.select_option("#language", "de")  # kept in this browser, the page read again
        page.wait_for_selector("#new-h:text('Neue Partie')")
        assert page.get_attribute("html", "lang") == "de"
        page.goto(f"{server.url}/play/#/")
        page.wait_for_selector("#new-h:text('Neue Partie')")
        assert page.errors == []
    finally:
        ctx.close()
