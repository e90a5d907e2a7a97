"""What the browser tests do at a table: open a tab that fails on a script error, read what
the page holds (its seats, the data attributes it keeps on <body>), click the moves it
offers, and compare them with the view's legal actions."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx

SEATS_KEY = "donkeypost.seats.v1"


def new_page(context: Any) -> Any:
    """A tab whose script errors fail the test."""
    tab = context.new_page()
    tab.set_default_timeout(30_000)  # a busy machine
    errors: list[str] = []
    tab.on("pageerror", lambda err: errors.append(str(err)))
    tab.errors = errors
    return tab


def held_seat(page: Any) -> dict[str, Any]:
    seats = json.loads(page.evaluate(f"localStorage.getItem('{SEATS_KEY}')") or "[]")
    assert seats, "the page keeps the seat it took"
    return seats[0]


def offered(page: Any) -> list[dict[str, Any]]:
    return [json.loads(a) for a in page.locator(".all-actions button.action")
            .evaluate_all("els => els.map(e => e.dataset.action)")]


def assert_offers_exactly_the_legal_actions(page: Any, http: httpx.Client) -> bool:
    """When the page shows the version the API is at: its buttons are the view's
    legal actions, no more, no fewer. False when the page stayed behind (nothing checked)."""
    seat = held_seat(page)
    key = lambda a: json.dumps(a, sort_keys=True)  # noqa: E731
    for _ in range(20):
        view = http.get(f"/games/{seat['game']}",
                        headers={"Authorization": f"Bearer {seat['token']}"}).json()
        if body_data(page, "version") == str(view["version"]):
            buttons = offered(page)
            if body_data(page, "version") == str(view["version"]):
                assert sorted(map(key, buttons)) == sorted(map(key, view["legal_actions"]))
                return True
        page.wait_for_timeout(100)  # the page catches up with the stream
    return False


def body_data(page: Any, name: str) -> str | None:
    return page.get_attribute("body", f"data-{name}")


def wait_for(condition: Any, timeout_s: float, what: str) -> None:
    """Poll from here: the page's content security policy forbids evaluated strings."""
    ends = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < ends, f"waited {timeout_s} s for {what}"
        time.sleep(0.05)


def click_a_move(page: Any) -> bool:
    """If this page may act, click one thing it offers (a card or slot on the table
    first, else a move's button; a choice it opens is answered next time)."""
    from playwright.sync_api import Error

    try:
        if page.locator("#actions button.action:not([disabled])").count() == 0:
            return False
        version = page.get_attribute("body", "data-version")
        choice = page.locator(".choice button.action")
        if choice.count():
            choice.first.click(timeout=3000)
        elif page.locator("button.pick").count():
            page.locator("button.pick").first.click(timeout=3000)
            return True
        else:
            page.locator(".all-actions button.action").first.click(timeout=3000)
        ends = time.monotonic() + 5
        while body_data(page, "version") == version and time.monotonic() < ends:
            page.wait_for_timeout(50)
    except Error:
        pass  # the table changed under the pointer: look again
    return True


def play_until(pages: list[Any], done: Any, timeout_s: float, http: httpx.Client,
               each: Any = None, must_compare: bool = True) -> int:
    """Click moves on the pages until `done()`; returns how many moves were clicked. The
    moves offered are compared with the view's legal actions now and then (at least once
    if `must_compare`)."""
    clicks = checked = 0
    ends = time.monotonic() + timeout_s
    while not done():
        assert time.monotonic() < ends, "the game did not get there in time"
        moved = False
        for page in pages:
            if checked < 5 and page.locator(".all-actions button.action").count():
                checked += assert_offers_exactly_the_legal_actions(page, http)
            if click_a_move(page):
                clicks += 1
                moved = True
            if each is not None:
                each()
        if not moved:
            pages[0].wait_for_timeout(100)
    assert checked or not must_compare, "the offered moves were compared with the view"
    return clicks


def hold(context: Any, game_id: str, game_type: str, seat: int, token: str) -> None:
    """The browser holds this seat, as if it had taken it."""
    held = [{"game": game_id, "type": game_type, "seat": seat, "token": token,
             "name": f"P{seat}", "at": 0}]
    context.add_init_script(f"localStorage.setItem('{SEATS_KEY}', "
                            f"{json.dumps(json.dumps(held))})")


def seated_game(http: httpx.Client, game_type: str, players: int,
                options: dict[str, Any] | None = None,
                deadline_s: int | None = None) -> tuple[str, list[str], str]:
    """A game set up over the API with every seat taken by a person (P0, P1, …): its id,
    the seats' tokens by seat, and the creator's token."""
    created = http.post("/games", json={"type": game_type, "options": options or {},
                                        "deadline_s": deadline_s,
                                        "seats": [{"kind": "human"}] * players})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    tokens = [""] * players
    for i in range(players):
        joined = http.post(f"/games/{game_id}/players", json={"name": f"P{i}"}).json()
        tokens[joined["seat"]] = joined["token"]
    return game_id, tokens, created.json()["creator_token"]


def hold_creator(context: Any, game_id: str, token: str) -> None:
    """The browser holds the creator's token of this game, as if it had made it."""
    created = json.dumps({game_id: token})
    context.add_init_script(f"localStorage.setItem('donkeypost.created.v1', "
                            f"{json.dumps(created)})")


AXE = Path(__file__).parents[2] / "web" / "node_modules" / "axe-core" / "axe.min.js"
BAD_IMPACTS = ("serious", "critical")


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is (its script evaluated in the page, which
    the content security policy does not govern), each with its rule, impact and nodes."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text())
    found = page.evaluate("axe.run(document, {resultTypes: ['violations']})"
                          ".then(r => r.violations.map(v => ({id: v.id, impact: v.impact, "
                          "help: v.help, nodes: v.nodes.map(n => n.target.join(' '))})))")
    return list(found)


def impact_counts(violations: list[dict[str, Any]]) -> dict[str, int]:
    counts = dict.fromkeys(("minor", "moderate", "serious", "critical"), 0)
    for v in violations:
        counts[v["impact"]] = counts.get(v["impact"], 0) + len(v["nodes"])
    return counts


def too_small_targets(page: Any, least_px: int = 44) -> list[str]:
    """The things to press (buttons, fields, links standing alone) smaller than 44 px
    either way, as `tag#id.class (w×h)`; links inside running text are exempt."""
    return page.evaluate("""least => [...document.querySelectorAll(
        'button, input:not([type=hidden]), select, textarea, summary, a.button, .links a, .top a')]
      .filter(e => e.offsetParent !== null)
      .map(e => [e, e.getBoundingClientRect()])
      .filter(([e, r]) => r.width < least - 0.5 || r.height < least - 0.5)
      .map(([e, r]) => `${e.tagName.toLowerCase()}#${e.id}.${[...e.classList].join('.')} `
                       + `(${Math.round(r.width)}×${Math.round(r.height)}) `
                       + e.textContent.trim().slice(0, 30))""",
                         least_px)


def scrolls_sideways(page: Any) -> bool:
    return bool(page.evaluate("document.scrollingElement.scrollWidth > window.innerWidth"))


def finished_game(http: httpx.Client) -> tuple[str, list[str]]:
    """An Ochs & Esel round played to the end over the API by three people."""
    game_id, tokens, _creator = seated_game(http, "ochs-und-esel", 3, {"rounds": 1})
    for _ in range(500):
        spectator = http.get(f"/games/{game_id}").json()
        if spectator["status"] == "finished":
            return game_id, tokens
        seat = spectator["to_act"][0]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        action = http.get(f"/games/{game_id}", headers=auth).json()["legal_actions"][0]
        assert http.post(f"/games/{game_id}/actions", json=action,
                         headers=auth).status_code == 200
    raise AssertionError("the game did not end")


def play_a_few_moves(http: httpx.Client, game_id: str, tokens: list[str], moves: int) -> int:
    """Each seat to act plays its last legal action, `moves` times; the seat to act then."""
    for _ in range(moves):
        seat = http.get(f"/games/{game_id}").json()["to_act"][0]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        action = http.get(f"/games/{game_id}", headers=auth).json()["legal_actions"][-1]
        assert http.post(f"/games/{game_id}/actions", json=action, headers=auth).is_success
    return int(http.get(f"/games/{game_id}").json()["to_act"][0])
