"""A whole game played at the table with the keyboard alone (Tab to a card or a move,
Enter to play it; no pointer), and what a screen reader hears meanwhile: the polite live
region says the other seats' moves in the game's sentences, "Your turn.", and the end."""

from __future__ import annotations

import time

import pytest

from tests.browser.pages import body_data, hold, new_page

pytestmark = pytest.mark.timeout(240)
PLAYABLE = "#actions button.action:not([disabled]), .choice button, button.pick, button.skip"


def test_a_game_played_to_the_end_with_the_keyboard_alone(browser, server, http):
    created = http.post("/games", json={
        "type": "ochs-und-esel", "options": {"rounds": 1}, "deadline_s": None,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"},
                  {"kind": "bot", "level": "random"}]}).json()
    game_id = created["id"]
    joined = http.post(f"/games/{game_id}/players", json={"name": "Kay"}).json()
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        hold(ctx, game_id, "ochs-und-esel", joined["seat"], joined["token"])
        page = new_page(ctx)
        page.goto(f"{server.url}/play/#/game/{game_id}")
        page.wait_for_selector("#live.on")
        heard: list[str] = []
        keys = {"Tab": 0, "Enter": 0}
        ends = time.monotonic() + 200
        while body_data(page, "status") != "finished":
            assert time.monotonic() < ends, f"not finished after {keys}"
            said = page.inner_text("#announce")
            if said and (not heard or heard[-1] != said):
                heard.append(said)
            if not page.locator("#actions button.action:not([disabled])").count():
                page.wait_for_timeout(50)  # the others' turn
                continue
            if page.evaluate(f"!!document.activeElement?.matches({PLAYABLE!r})"):
                page.keyboard.press("Enter")
                keys["Enter"] += 1
                page.wait_for_timeout(150)
            else:
                page.keyboard.press("Tab")
                keys["Tab"] += 1
        page.wait_for_selector("#announce:has-text('Finished.')", timeout=10_000)
        heard.append(page.inner_text("#announce"))
        assert keys["Enter"] >= 5, keys
        view = http.get(f"/games/{game_id}").json()
        assert view["status"] == "finished"
        said = " ".join(heard)
        assert "Your turn." in said
        assert any(name in said for name in ("Bot 2 (random)", "Bot 3 (random)")), heard[:5]
        assert "Finished." in heard[-1]
        assert page.errors == []
    finally:
        ctx.close()
