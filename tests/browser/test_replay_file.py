"""An exported log replayed from a file at /play/#/replay: chosen or dropped, stepped with
the same slider and log as a game of the server, verified in the browser (hash chain,
seed, every private part) with no request to the server but for the page's own files; a
log altered by one character is caught."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.browser.pages import finished_game, new_page

pytestmark = pytest.mark.timeout(180)


def test_a_log_file_is_replayed_and_verified_without_the_server(browser, server, http):
    game_id, _tokens = finished_game(http)
    log = http.get(f"/games/{game_id}/log").text
    last = len(log.splitlines())
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = new_page(ctx)
        page.goto(f"{server.url}/play/#/replay")
        page.wait_for_selector("#log-file")
        asked: list[str] = []
        page.on("request", lambda r: asked.append(urlsplit(r.url).path))
        page.set_input_files("#log-file", files=[{
            "name": "game.ndjson", "mimeType": "application/x-ndjson", "buffer": log.encode()}])
        page.wait_for_selector("#verified[data-verified]")
        verified = page.inner_text("#verified")
        assert page.get_attribute("#verified", "data-verified") == "true", verified
        assert f"the hash chain over {last} events" in verified
        assert "3 private parts against their commitments" in verified
        assert page.locator("#log li").count() == last
        page.wait_for_selector(f"body[data-replay-seq='{last}']")
        page.keyboard.press("Home")
        page.wait_for_selector("body[data-replay-seq='1']")
        assert "Event 1 of" in page.inner_text("#replay-at")
        page.keyboard.press("ArrowRight")
        page.wait_for_selector("body[data-replay-seq='2']")
        assert page.get_attribute("#log li[data-seq='2']", "aria-current") == "step"
        page.locator("#log li[data-seq='7'] button").click()  # a step of the log
        page.wait_for_selector("body[data-replay-seq='7']")
        assert "Seen by P0 only" in page.inner_text("#replay-board"), "the dealt hands, revealed"
        page.screenshot(path=ARTIFACTS / "replay-file-phone.png", full_page=True)
        assert all(path.startswith("/play/") for path in asked), asked

        # Another file, dropped on the same page: one number changed in the middle of the
        # log, and the chain breaks there.
        lines = log.splitlines()
        ev = json.loads(lines[9])
        ev["at"] = ev["at"] + 1
        lines[9] = json.dumps(ev, separators=(",", ":"))
        drop(page, "#drop-zone", "altered.ndjson", "\n".join(lines) + "\n")
        page.wait_for_selector("#verified[data-verified='false']")
        assert "the hash chain breaks at event 10" in page.inner_text("#verified")
        assert all(path.startswith("/play/") for path in asked), asked
        assert page.errors == []
    finally:
        ctx.close()


def drop(page: Any, selector: str, name: str, text: str) -> None:
    """A file dropped on the element, as a person drags one from their desktop."""
    page.locator(selector).evaluate("""(zone, [name, text]) => {
        const data = new DataTransfer();
        data.items.add(new File([text], name, {type: 'application/x-ndjson'}));
        zone.dispatchEvent(new DragEvent('drop', {dataTransfer: data, bubbles: true,
                                                  cancelable: true}));
    }""", [name, text])
