"""The table's chat in Chromium: two seats talk, the text of a message is only ever text
(markup and script shown as typed, never run), a blank message is refused with the API's
words, the creator hides a message and every page drops its text."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.browser.pages import body_data, hold, hold_creator, new_page, seated_game, wait_for

pytestmark = pytest.mark.timeout(120)
MARKUP = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script><b>bold</b>'


@pytest.fixture
def pages(browser: Any, server: Any, http: Any) -> Iterator[tuple[str, list[str], Any, Any]]:
    game_id, tokens, creator = seated_game(http, "trash", 2, deadline_s=3600)
    contexts = [browser.new_context(viewport={"width": 900, "height": 900}),
                browser.new_context(viewport={"width": 390, "height": 844})]
    try:
        tabs = []
        for seat, ctx in enumerate(contexts):
            hold(ctx, game_id, "trash", seat, tokens[seat])
            if seat == 0:
                hold_creator(ctx, game_id, creator)
            tab = new_page(ctx)
            tab.goto(f"{server.url}/play/#/game/{game_id}")
            tab.wait_for_selector("#live.on")
            tabs.append(tab)
        yield game_id, tokens, tabs[0], tabs[1]
    finally:
        for ctx in contexts:
            ctx.close()


def say(page: Any, text: str) -> None:
    page.fill("#chat-text", text)
    page.locator("#chat form button[type=submit]").click()


def test_two_seats_talk_and_the_creator_hides_a_message(pages, http):
    game_id, _tokens, ann, bob = pages
    say(ann, "Hello Bob!")
    bob.wait_for_selector("#chat-log li:has-text('Hello Bob!')")
    assert "P0 (seat 1)" in bob.inner_text("#chat-log li[data-n='1']")
    say(bob, MARKUP)
    ann.wait_for_selector("#chat-log li[data-n='2']")
    for page in (ann, bob):
        wait_for(lambda page=page: body_data(page, "chat-last") == "2", 15, "the second message")
        shown = page.locator("#chat-log li[data-n='2'] .text")
        assert shown.inner_text() == MARKUP, "the text as typed, markup and all"
        assert shown.locator("img, script, b").count() == 0
        assert page.evaluate("window.pwned") is None
    # The creator (Ann's browser holds the creator's token) hides Bob's message.
    assert bob.locator("[data-hide]").count() == 0, "only the creator may hide"
    ann.locator("#chat-log li[data-n='2'] [data-hide]").click()
    for page in (ann, bob):
        page.wait_for_selector("#chat-log li[data-n='2'].hidden-message")
        assert MARKUP not in page.inner_text("#chat-log")
    entries = http.get(f"/games/{game_id}/messages").json()["messages"]
    assert entries[1]["hidden"] is True and entries[1]["text"] is None
    bob.screenshot(path=ARTIFACTS / "chat-phone.png", full_page=True)
    assert ann.errors == [] and bob.errors == []


def test_a_blank_message_is_refused_with_the_apis_words(pages, http):
    game_id, _tokens, ann, _bob = pages
    for blank in ("   ", "\u200b\u200b\u200b", "\u3164"):  # spaces, zero-width, a filler
        say(ann, blank)
        ann.wait_for_selector("#chat-error:not(:empty)")
        assert "may not be empty or blank" in ann.inner_text("#chat-error")
        ann.evaluate("document.getElementById('chat-error').textContent = ''")
    assert http.get(f"/games/{game_id}/messages").json()["messages"] == []
