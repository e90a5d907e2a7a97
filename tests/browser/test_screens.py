"""Every game's table on two phones and a desktop, in each language: nothing scrolls
sideways, everything to press is at least 44 px, screenshots of each; and axe-core finds no
serious or critical accessibility violation on the lobby, each game's table (its chat
included) and the replay. The counts per page are written to artifacts/axe.json."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.browser.pages import (
    BAD_IMPACTS,
    axe_violations,
    finished_game,
    hold,
    impact_counts,
    new_page,
    play_a_few_moves,
    scrolls_sideways,
    seated_game,
    too_small_targets,
)

pytestmark = pytest.mark.timeout(240)
SIZES = {"phone": (390, 844), "small-phone": (360, 740), "desktop": (1280, 900)}
LANGUAGES = {"en": "en-GB", "fr": "fr-FR", "de": "de-DE"}
YOUR_TURN = {"en": "Your turn.", "fr": "À vous de jouer.", "de": "Du bist am Zug."}
SAT_DOWN = {"en": "P0 sat down.", "fr": "P0 s'est assis.", "de": "P0 hat Platz genommen."}
TABLES = {
    "ochs-und-esel": ("ochs-und-esel", {"rounds": 1}, 3),
    "ox-variant": ("ochs-und-esel", {"rounds": 1, "ox_variant": True}, 3),
    "crazy-donkey": ("crazy-donkey", {"deals": 1}, 3),
    "trash": ("trash", {}, 2),
    "canyon-donkeys": ("canyon-donkeys", {}, 3),
}
# DONKEYPOST_DOCS_SCREENSHOTS=1 also writes the README's set (English, phone and desktop).
DOCS = Path(__file__).parents[2] / "docs" / "screenshots"
AXE_COUNTS: dict[str, dict[str, Any]] = {}


def axe_check(page: Any, name: str) -> None:
    violations = axe_violations(page)
    AXE_COUNTS[name] = {**impact_counts(violations),
                        "rules": sorted(f"{v['id']} ({v['impact']})" for v in violations)}
    (ARTIFACTS / "axe.json").write_text(json.dumps(AXE_COUNTS, indent=1, sort_keys=True))
    bad = [v for v in violations if v["impact"] in BAD_IMPACTS]
    assert not bad, json.dumps(bad, indent=1)


def shoot(page: Any, name: str, size: str, lang: str) -> None:
    page.screenshot(path=ARTIFACTS / f"{name}-{size}-{lang}.png", full_page=True)
    if lang == "en" and size != "small-phone" and os.environ.get("DONKEYPOST_DOCS_SCREENSHOTS"):
        DOCS.mkdir(exist_ok=True)
        page.screenshot(path=DOCS / f"{name}-{size}.jpg", type="jpeg", quality=70)


@pytest.mark.parametrize("name", list(TABLES))
def test_each_table_on_phones_and_desktop_in_each_language(browser, server, http, name):
    game_type, options, players = TABLES[name]
    game_id, tokens, _creator = seated_game(http, game_type, players, options, deadline_s=3600)
    seat = play_a_few_moves(http, game_id, tokens, 4)
    said = http.post(f"/games/{game_id}/messages", json={"text": "Bonne chance ! Viel Glück!"},
                     headers={"Authorization": f"Bearer {tokens[seat]}"})
    assert said.status_code == 201, said.text
    for lang, locale in LANGUAGES.items():
        ctx = browser.new_context(viewport=dict(zip(("width", "height"), SIZES["phone"],
                                                    strict=True)), locale=locale)
        try:
            hold(ctx, game_id, game_type, seat, tokens[seat])
            page = new_page(ctx)
            page.goto(f"{server.url}/play/#/game/{game_id}")
            page.wait_for_selector("#live.on")
            page.wait_for_selector("#chat-log li")
            # the browser's language, for the page and for what the server says
            assert page.get_attribute("html", "lang") == lang
            assert page.inner_text("#status") == YOUR_TURN[lang]
            assert SAT_DOWN[lang] in page.inner_text("#log"), "the game's sentences, in it"
            for size, (width, height) in SIZES.items():
                page.set_viewport_size({"width": width, "height": height})
                assert not scrolls_sideways(page), f"{name} scrolls sideways at {width} px"
                if size != "desktop":
                    assert too_small_targets(page) == [], f"{name} at {width} px"
                shoot(page, name, size, lang)
            if lang == "en":
                axe_check(page, f"table {name}")
            assert page.errors == []
        finally:
            ctx.close()


def test_the_lobby_and_the_replay_have_no_serious_violation(context, server, http):
    page = new_page(context)
    page.goto(f"{server.url}/play/")
    page.wait_for_selector("#game-type")
    page.wait_for_selector("#open-h ~ *")
    axe_check(page, "lobby")
    assert not scrolls_sideways(page)
    shoot(page, "lobby", "phone", "en")
    game_id, tokens = finished_game(http)
    hold(context, game_id, "ochs-und-esel", 0, tokens[0])
    page.goto(f"{server.url}/play/#/replay/{game_id}")
    page.wait_for_selector("#verified[data-verified]")
    axe_check(page, "replay")
    assert not scrolls_sideways(page)
    assert too_small_targets(page) == []
    shoot(page, "replay", "phone", "en")
    assert page.errors == []
