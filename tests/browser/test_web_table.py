"""People play at the web table (`/play/`) in Chromium, by clicking only what the page
offers; the page offers exactly the legal actions of the seat's view, keeps its live
updates through a dropped connection, hides the other seats' loads, and replays and
verifies a finished game."""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.browser.pages import (
    SEATS_KEY,
    assert_offers_exactly_the_legal_actions,
    body_data,
    click_a_move,
    finished_game,
    held_seat,
    hold,
    new_page,
    play_until,
    wait_for,
)
from tests.support.serve import ServeProcess

pytestmark = pytest.mark.timeout(240)


@pytest.fixture
def page(context: Any) -> Iterator[Any]:
    yield new_page(context)


def create_at_the_table(page: Any, server: ServeProcess, game_type: str, name: str,
                        seats: list[str], options: dict[str, str]) -> str:
    page.goto(f"{server.url}/play")
    page.select_option("#game-type", game_type)
    page.fill("#my-name", name)
    page.fill("#seat-count", str(len(seats)))
    page.dispatch_event("#seat-count", "change")
    for i, kind in enumerate(seats):
        page.select_option(f"select[data-seat='{i}']", kind)
    for option, value in options.items():
        page.fill(f"#option-{option}", value)
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url("**/play/#/game/*")
    return page.url.rsplit("/", 1)[1]


def test_a_person_plays_ochs_und_esel_against_two_bots_to_the_end(page, server, http):
    game_id = create_at_the_table(page, server, "ochs-und-esel", "Ann",
                                  ["me", "bot:basic", "bot:random"], {"rounds": "1"})
    page.wait_for_selector("body[data-status='active']")
    assert held_seat(page)["game"] == game_id
    shot: list[bool] = []

    def screenshot_while_playing() -> None:  # once, with cards to click
        if not shot and page.locator("button.pick").count() >= 3:
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=ARTIFACTS / "ochs-und-esel-playing-phone.png")
            page.set_viewport_size({"width": 900, "height": 1100})
            page.screenshot(path=ARTIFACTS / "ochs-und-esel-playing.png")
            page.set_viewport_size({"width": 420, "height": 900})
            shot.append(True)

    clicks = play_until([page], lambda: page.get_attribute("body", "data-status") ==
                        "finished", 180, http, each=screenshot_while_playing)
    view = http.get(f"/games/{game_id}").json()
    assert view["status"] == "finished" and clicks >= 5
    page.wait_for_selector(f"body[data-last-seq='{view['version']}']")
    assert page.locator("#status").inner_text().startswith("Finished.")
    seqs = page.locator("#log li").evaluate_all("els => els.map(e => +e.dataset.seq)")
    assert seqs == list(range(1, view["version"] + 1)), "every move, once, in order"
    assert "its seed is revealed" in page.locator("#log").inner_text()  # the game's own words
    page.screenshot(path=ARTIFACTS / "ochs-und-esel-finished.png", full_page=True)
    # the view offers a rematch: the seat is kept, the bots too
    page.locator("[data-table-action='rematch']").click()
    page.wait_for_url(lambda url: game_id not in url)
    rematch = page.url.rsplit("/", 1)[1]
    assert http.get(f"/games/{game_id}").json()["rematch"] == rematch
    page.wait_for_selector("body[data-status='active']")
    assert held_seat(page)["game"] == rematch
    assert page.errors == []


def test_a_player_plays_with_their_key_and_finds_the_game_in_the_lobby(page, server, http):
    page.goto(f"{server.url}/play")
    page.locator("details.player summary").click()
    name = f"Dee{int(time.time() * 1000) % 100000}"
    page.fill("#player-name", name)
    page.get_by_role("button", name="Become a player").click()
    page.wait_for_selector(f".player strong:text('{name}')")
    game_id = create_at_the_table(page, server, "crazy-donkey", name,
                                  ["me", "bot:basic", "bot:basic"], {"deals": "1"})
    page.wait_for_selector("body[data-status='active']")
    key = json.loads(page.evaluate("localStorage.getItem('donkeypost.player.v1')"))["key"]
    assert json.loads(page.evaluate(f"localStorage.getItem('{SEATS_KEY}')") or "[]") == [], \
        "a player's seat needs no token of its own"
    mine = http.get(f"/games/{game_id}", headers={"Authorization": f"Bearer {key}"}).json()
    assert mine["you"] == 0 and mine["seats"][0]["name"] == name
    wait_for(lambda: click_a_move(page), 60, "the player's turn")
    page.goto(f"{server.url}/play/#/")
    page.wait_for_selector(f"a[href='#/game/{game_id}']")
    assert page.errors == []


def test_two_people_play_a_canyon_round_and_each_sees_only_their_own_load(
        browser, server, http):
    ann_ctx = browser.new_context(viewport={"width": 420, "height": 900})
    bob_ctx = browser.new_context(viewport={"width": 1000, "height": 900})
    try:
        ann, bob = new_page(ann_ctx), new_page(bob_ctx)
        # Set up over the API: the deck leaves out the difficult donkey, which has the
        # loads played face up (the lobby offers each game's default deck).
        created = http.post("/games", json={
            "type": "canyon-donkeys", "deadline_s": None,
            "options": {"donkey_deck": {"normal": 4, "giant": 2, "puny": 2, "precision": 2,
                                        "holed": 2, "attacked": 2, "hurried": 1, "lost": 1,
                                        "double": 1, "stubborn": 1, "picky": 1}},
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "basic"}]})
        assert created.status_code == 201, created.text
        game_id = created.json()["id"]
        link = f"{server.url}/play/#/join/{game_id}"
        for person, name in ((ann, "Ann"), (bob, "Bob")):
            person.goto(link)  # the invitation link
            person.fill("#join-name", name)
            person.get_by_role("button", name="Sit down").click()
            person.wait_for_url(f"**/play/#/game/{game_id}")
            if person is ann:  # the table waiting for Bob shows the link to send him
                ann.wait_for_selector("body[data-status='open']")
                assert ann.input_value("#invite-link") == link
        for p in (ann, bob):
            p.wait_for_selector("body[data-status='active']")
        seats = {held_seat(ann)["seat"]: ann, held_seat(bob)["seat"]: bob}
        assert len(seats) == 2

        def spectator() -> dict:
            return http.get(f"/games/{game_id}").json()

        def loads_are_own(exact: bool = False) -> None:
            """Each page shows the other seat's load cards face down exactly where its own
            view (at the version it shows) has them hidden, and its own load face up."""
            for seat, p in seats.items():
                other = next(s for s in seats if s != seat)
                version = body_data(p, "version")
                own = p.locator(f"[data-load-seat='{seat}'] .card.own").count()
                backs = p.locator(f"[data-load-seat='{other}'] .card").evaluate_all(
                    "els => els.map(e => e.classList.contains('back'))")
                if body_data(p, "version") != version:
                    continue  # redrawn meanwhile
                then = http.get(f"/games/{game_id}/states/{version}", headers={
                    "Authorization": f"Bearer {held_seat(p)['token']}"}).json()["game"]
                hidden = [card is None for card in then["seats"][other]["load"]]
                assert backs == hidden, "the page shows the other's load as its view has it"
                assert not exact or (own >= 1 and any(hidden)), (own, hidden)

        # The loads are played at once, face down: both pages load, then each is looked at.
        ends = time.monotonic() + 60
        while not all(spectator()["game"]["seats"][s]["loaded"] for s in seats):
            assert time.monotonic() < ends, "the loads were not played"
            for seat, p in seats.items():
                if not spectator()["game"]["seats"][seat]["loaded"]:
                    click_a_move(p)
        version = spectator()["version"]
        for p in seats.values():
            wait_for(lambda p=p: int(body_data(p, "version")) >= version, 15, "the loads")
        loads_are_own(exact=True)

        def round_over() -> bool:
            view = spectator()
            return view["status"] == "finished" or view["game"]["round"] >= 2

        # (a short round may never wait for a page: its table test compares the moves)
        play_until([ann, bob], round_over, 180, http, each=loads_are_own, must_compare=False)
        for name, p in (("ann", ann), ("bob", bob)):
            p.screenshot(path=ARTIFACTS / f"canyon-{name}.png", full_page=True)
            assert p.errors == []
    finally:
        ann_ctx.close()
        bob_ctx.close()


def test_a_dropped_stream_resumes_without_losing_a_move(page, server, http):
    game_id = create_at_the_table(page, server, "ochs-und-esel", "Cy",
                                  ["me", "bot:basic", "bot:basic"], {"rounds": "1"})
    page.wait_for_selector("#live.on")
    before = int(page.get_attribute("body", "data-stream-connections"))
    workers = server.web_workers()
    assert workers
    for pid in workers:  # the web worker dies: every stream drops
        os.kill(pid, signal.SIGKILL)
    # (a new web worker starts first: slow on a busy machine)
    wait_for(lambda: int(body_data(page, "stream-connections")) > before, 90,
             "the stream to be opened again")
    page.wait_for_selector("#live.on", timeout=60_000)
    moves = 0
    ends = time.monotonic() + 90
    while moves < 4 and page.get_attribute("body", "data-status") != "finished":
        assert time.monotonic() < ends, f"{moves} moves clicked"
        if click_a_move(page):
            moves += 1
        else:
            page.wait_for_timeout(100)
    # (the bots may still be moving: compare once the page has what the log has)
    def caught_up() -> bool:
        return body_data(page, "last-seq") == str(http.get(f"/games/{game_id}").json()["version"])

    wait_for(caught_up, 30, f"the page's log (at {body_data(page, 'last-seq')}) to catch up")
    last = int(body_data(page, "last-seq"))
    seqs = page.locator("#log li").evaluate_all("els => els.map(e => +e.dataset.seq)")
    assert len(seqs) >= last and seqs == list(range(1, len(seqs) + 1)), \
        "every move once, in order"
    assert page.errors == []


def test_the_replay_steps_verifies_the_log_and_shows_the_analysis(
        context, server, http):
    game_id, tokens = finished_game(http)
    last = http.get(f"/games/{game_id}").json()["version"]
    hold(context, game_id, "ochs-und-esel", 0, tokens[0])
    page = new_page(context)
    page.goto(f"{server.url}/play/#/replay/{game_id}")
    page.wait_for_selector(f"body[data-replay-seq='{last}']")
    page.locator("#analyse").click()  # a worker weighs the decisions meanwhile
    page.wait_for_selector("#verified[data-verified]", timeout=30_000)
    verified = page.inner_text("#verified")
    assert page.get_attribute("#verified", "data-verified") == "true", verified
    assert f"the hash chain over {last} events" in verified
    assert "3 private parts against their commitments" in verified  # the three hands
    page.keyboard.press("Home")
    page.wait_for_selector("body[data-replay-seq='1']")
    assert page.input_value("#replay-slider") == "1"
    assert "Event 1 of" in page.inner_text("#replay-at")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("body[data-replay-seq='2']")
    page.keyboard.press("End")
    page.wait_for_selector(f"body[data-replay-seq='{last}']")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f"body[data-replay-seq='{last - 1}']")
    assert page.input_value("#replay-slider") == str(last - 1)
    # the analysis: the costliest decisions, each marked on the log where it was made
    page.wait_for_selector("body[data-analysis='shown']", timeout=120_000)
    moments = page.locator("#moments li")
    if moments.count():
        assert "was better by about" in moments.first.inner_text()
        assert page.locator("#log .moment").count() >= 1
        moments.first.locator("button").click()
        page.wait_for_selector(f"body:not([data-replay-seq='{last - 1}'])")
    page.screenshot(path=ARTIFACTS / "replay.png", full_page=True)
    assert page.errors == []


TABLES = [
    ("ochs-und-esel", {"rounds": 1}, 3, ".trick-board"),
    ("ochs-und-esel", {"rounds": 1, "ox_variant": True}, 3, ".trick-board"),
    ("crazy-donkey", {"deals": 1}, 3, ".trick-board"),
    ("trash", {}, 2, ".trash-board"),
    ("canyon-donkeys", {}, 3, ".canyon-board"),
]


@pytest.mark.parametrize(("game_type", "options", "players", "board"), TABLES,
                         ids=["ochs-und-esel", "ox-variant", "crazy-donkey", "trash",
                              "canyon-donkeys"])
def test_each_games_table_offers_the_views_legal_actions(browser, server, http, game_type,
                                                         options, players, board):
    created = http.post("/games", json={"type": game_type, "options": options,
                                        "deadline_s": 3600,
                                        "seats": [{"kind": "human"}] * players}).json()
    game_id = created["id"]
    tokens = [""] * players
    for i in range(players):
        joined = http.post(f"/games/{game_id}/players", json={"name": f"P{i}"}).json()
        tokens[joined["seat"]] = joined["token"]
    for _ in range(4):  # a few moves: something on the table
        seat = http.get(f"/games/{game_id}").json()["to_act"][0]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        action = http.get(f"/games/{game_id}", headers=auth).json()["legal_actions"][-1]
        assert http.post(f"/games/{game_id}/actions", json=action, headers=auth).is_success
    seat = http.get(f"/games/{game_id}").json()["to_act"][0]
    ctx = browser.new_context(viewport={"width": 900, "height": 1000})
    try:
        hold(ctx, game_id, game_type, seat, tokens[seat])
        page = new_page(ctx)
        page.goto(f"{server.url}/play/#/game/{game_id}")
        page.wait_for_selector(f"{board}")
        page.wait_for_selector("#live.on")
        assert page.locator("#status").inner_text() == "Your turn."
        assert assert_offers_exactly_the_legal_actions(page, http)
        name = game_type + ("-ox" if options.get("ox_variant") else "")
        page.screenshot(path=ARTIFACTS / f"table-{name}.png", full_page=True)
        assert page.errors == []
    finally:
        ctx.close()


def test_a_refused_move_shows_the_error_bodys_message(browser, server, http):
    created = http.post("/games", json={"type": "trash", "deadline_s": None,
                                        "seats": [{"kind": "human"}] * 2}).json()
    game_id = created["id"]
    tokens = [""] * 2
    for i in range(2):
        joined = http.post(f"/games/{game_id}/players", json={"name": f"P{i}"}).json()
        tokens[joined["seat"]] = joined["token"]
    seat = http.get(f"/games/{game_id}").json()["to_act"][0]
    auth = {"Authorization": f"Bearer {tokens[seat]}"}
    ctx = browser.new_context()
    try:
        hold(ctx, game_id, "trash", seat, tokens[seat])
        page = new_page(ctx)
        # The page hears nothing: its view goes stale while the seat moves elsewhere.
        page.route("**/events/stream?**", lambda route: route.abort())
        page.goto(f"{server.url}/play/#/game/{game_id}")
        page.wait_for_selector(".all-actions button.action")
        before = http.get(f"/games/{game_id}", headers=auth).json()
        assert body_data(page, "version") == str(before["version"])
        moved = http.post(f"/games/{game_id}/actions", headers=auth,
                          json=before["legal_actions"][0])
        assert moved.status_code == 200
        page.locator(".all-actions button.action").first.click()
        page.wait_for_selector("#error:not(:empty)")
        # The API's own words: the page's If-Match is stale, refused with 412.
        assert page.inner_text("#error") == \
            f"the game is at version {moved.json()['version']}, not {before['version']}"
        # and the page reads the view again: it offers the moves of now
        page.wait_for_selector(f"body[data-version='{moved.json()['version']}']")
        assert page.errors == []
    finally:
        ctx.close()
