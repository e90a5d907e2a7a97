"""A table is drawn one round trip after the page has loaded: every request it waits for
(the view, the log, the game types, the chat, the page's catalog) is sent before the first
answer to any of them is back, so none waits for another. (Measured in the page: each
`fetch` call and the moment its answer arrived, against the mark of the first drawing.)"""

from __future__ import annotations

import pytest

from tests.browser.pages import hold, new_page, play_a_few_moves, seated_game

pytestmark = pytest.mark.timeout(120)
# Before the page's own script: each fetch is timed (called, answered) in performance.now().
TIMED_FETCH = """
window.__fetches = [];
const sent = window.fetch;
window.fetch = function (input, init) {
  const call = {url: String(input && input.url ? input.url : input), called: performance.now(),
                answered: null};
  window.__fetches.push(call);
  return sent.call(this, input, init).then((r) => { call.answered = performance.now(); return r; });
};
"""


@pytest.mark.parametrize("locale", ["en-GB", "de-DE"])
def test_the_first_drawing_of_a_table_waits_for_one_round_trip(browser, server, http, locale):
    game_id, tokens, _creator = seated_game(http, "trash", 2, deadline_s=3600)
    seat = play_a_few_moves(http, game_id, tokens, 3)
    ctx = browser.new_context(locale=locale)
    try:
        hold(ctx, game_id, "trash", seat, tokens[seat])
        ctx.add_init_script(TIMED_FETCH)
        page = new_page(ctx)
        page.goto(f"{server.url}/play/#/game/{game_id}")
        page.wait_for_selector("body[data-version]")
        drawn = page.evaluate("performance.getEntriesByName('table-drawn')[0].startTime")
        before = [f for f in page.evaluate("window.__fetches") if f["called"] < drawn]
        paths = sorted(f["url"].split("?")[0].removeprefix(server.url) for f in before)
        assert f"/games/{game_id}" in paths and "/games/types" in paths, paths
        assert f"/games/{game_id}/events" in paths and f"/games/{game_id}/messages" in paths
        if locale.startswith("de"):
            assert "locales/de.json" in paths  # (relative to the page)
        first_answer = min(f["answered"] for f in before)
        assert all(f["called"] < first_answer for f in before), before
        assert page.errors == []
    finally:
        ctx.close()
