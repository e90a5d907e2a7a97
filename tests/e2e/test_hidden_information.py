"""Hidden cards stay hidden: no viewer computes a withheld private part from what it gets.

Each test plays over HTTP on the real store, keeps what a seat and a spectator received
before the end, and runs the brute force of `tests.support.brute_force` on every part
withheld from them. It must find nothing. The same attack, given the same events as a
plain hash of the parts would have shown them (the chain over the parts in clear, or a
commitment that is a plain sha256), finds every one: the attack works, the scheme stops it.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterable, Iterator
from itertools import combinations_with_replacement, product
from typing import Any

from domain.commitments import canonical_part
from domain.events import Event, chain_hash
from domain.games.trick_engine.cards import card_id
from domain.verify import check_log, verify_log
from tests.support.brute_force import Assignment, attack, splits, viewer_keys
from tests.support.games import games_under_test

Candidates = Callable[[dict[str, Any], int, Any], Iterable[Assignment]]


def _log(api, game_id: str, token: str | None = None) -> list[dict[str, Any]]:
    r = api.http.get(f"/games/{game_id}/log", headers=api.auth(token))
    assert r.status_code == 200
    return [json.loads(line) for line in r.data.splitlines()]


def _withheld(ev: dict[str, Any]) -> list[int]:
    return sorted(int(s) for s in ev["commitments"] if s not in ev["private"])


def _as_first_built(ev: dict[str, Any], prev_hash: str, truth: dict[int, Any]
                    ) -> dict[str, Any]:
    """The event as the first chain showed it: no commitments, its hash over the parts."""
    full = Event(type=ev["type"], data=ev["data"], private=truth, actor=ev["actor"],
                 seq=ev["seq"], at=ev["at"])
    return {**ev, "commitments": {}, "hash": chain_hash(prev_hash, full)}


def _with_plain_commitments(ev: dict[str, Any], truth: dict[int, Any]) -> dict[str, Any]:
    """The event as a plain-hash commitment would show it: sha256("seq:seat:" + part)."""
    plain = {str(seat): hashlib.sha256(f"{ev['seq']}:{seat}:".encode()
                                       + canonical_part(part)).hexdigest()
             for seat, part in truth.items()}
    return {**ev, "commitments": plain}


def _run_attacks(received: list[dict[str, Any]], truth: dict[int, dict[int, Any]],
                 token: str | None, candidates: Candidates) -> int:
    """Attack every withheld part of `received`; returns how many events were attacked."""
    keys = viewer_keys(received, token)
    attacked = 0
    for i, ev in enumerate(received):
        hidden = _withheld(ev)
        if not hidden:
            continue
        prev = received[i - 1]["hash"] if i else ""
        real = {seat: truth[ev["seq"]][seat] for seat in hidden}
        pool = list(candidates(ev, hidden[0], real))
        assert real in pool, f"the candidates of event {ev['seq']} miss the real part"
        # What the server gives now: nothing is found.
        assert attack(ev, prev, pool, keys) == [], f"event {ev['seq']} gives its part away"
        # The attack is real: on a plain hash of the parts it finds them.
        first_built = _as_first_built(ev, prev, {**truth[ev["seq"]]})
        assert all(found == real for found in attack(first_built, prev, pool, keys))
        assert attack(first_built, prev, pool, keys)
        plain = _with_plain_commitments(ev, truth[ev["seq"]])
        assert attack(plain, prev, pool, keys) and all(
            found == real for found in attack(plain, prev, pool, keys))
        attacked += 1
    return attacked


def _truth(full_log: list[dict[str, Any]]) -> dict[int, dict[int, Any]]:
    return {ev["seq"]: {int(s): p for s, p in ev["private"].items()} for ev in full_log}


# --- Ochs & Esel: the dealt hands ---------------------------------------------------------
def _hand_candidates(known_but: int, rng: random.Random) -> Candidates:
    """Every way to complete the withheld hands when the attacker is told all but
    `known_but` cards of each (more than any seat knows; it keeps the search short)."""

    def candidates(ev: dict[str, Any], _seat: int, real: dict[int, Any]
                   ) -> Iterator[Assignment]:
        known, pool = {}, []
        for seat, part in real.items():
            hand = list(part["hand"])
            rng.shuffle(hand)
            known[seat], unseen = hand[known_but:], hand[:known_but]
            pool += unseen
        sizes = {seat: known_but for seat in real}
        seen = set()
        for split in splits(pool, sizes):
            assignment = {seat: {"hand": sorted(known[seat] + split[seat], key=card_id)}
                          for seat in real}
            marker = json.dumps(assignment, sort_keys=True)
            if marker not in seen:
                seen.add(marker)
                yield assignment

    return candidates


def test_no_seat_and_no_spectator_finds_the_ochs_und_esel_hands(api):
    game_id, tokens = api.new_game("ochs-und-esel", 3, {"rounds": 1})
    as_seat = _log(api, game_id, tokens[0])
    as_spectator = _log(api, game_id)
    dealt = next(ev for ev in as_seat if ev["type"] == "round_dealt")
    assert set(dealt["private"]) == {"0"} and set(dealt["commitments"]) == {"0", "1", "2"}
    api.play_to_end(game_id, tokens)
    truth = _truth(_log(api, game_id))
    assert _run_attacks(as_seat, truth, tokens[0], _hand_candidates(4, random.Random(1))) == 1
    assert _run_attacks(as_spectator, truth, None, _hand_candidates(3, random.Random(2))) == 1


# --- The Grand Canyon: face-down loads, looks, exchanges, the donkey deck ------------------
def _canyon_candidates(types: list[str]) -> Candidates:
    values = range(1, 11)

    def candidates(ev: dict[str, Any], seat: int, real: dict[int, Any]
                   ) -> Iterable[Assignment]:
        kind = ev["type"]
        if kind == "load_played":
            return ({seat: {"cards": list(c)}}
                    for c in combinations_with_replacement(values, ev["data"]["count"]))
        if kind == "card_looked":
            return ({seat: {"value": v}} for v in values)
        if kind == "load_exchanged":
            return ({seat: {"returned": r, "card": c}} for r, c in product(values, values))
        if kind == "donkey_removed":
            return ({seat: {"donkey": d}} for d in types)
        if kind == "donkeys_drawn":
            # Told all but the last three donkeys of the deck; tries every type for those.
            top = real[seat]["deck"][:-3]
            return ({seat: {"deck": top + list(rest)}} for rest in product(types, repeat=3))
        raise AssertionError(f"no candidates for {kind}")

    return candidates


def test_no_seat_and_no_spectator_finds_canyon_loads_looks_or_the_deck(api):
    composition = {"holed": 6, "normal": 4, "double": 1, "giant": 1}
    game_id, tokens = api.new_game("canyon-donkeys", 3, {"donkey_deck": composition})
    rng = random.Random(7)
    received: dict[int | None, list[dict[str, Any]]] = {0: [], None: []}

    def keep_what_they_saw(_view: dict, _acted: dict) -> None:
        for viewer in received:
            after = received[viewer][-1]["seq"] if received[viewer] else 0
            page = api.events(game_id, tokens[viewer] if viewer is not None else None, after)
            if page["status"] != "finished":  # after the end everyone sees everything
                received[viewer] += page["events"]

    keep_what_they_saw({}, {})
    api.play_to_end(game_id, tokens, pick=lambda v: rng.choice(v["legal_actions"]),
                    on_move=keep_what_they_saw)
    truth = _truth(_log(api, game_id))
    candidates = _canyon_candidates(list(composition))
    kinds = {ev["type"] for ev in received[None] if _withheld(ev)}
    assert {"load_played", "card_looked", "donkeys_drawn"} <= kinds
    assert _run_attacks(received[0], truth, tokens[0], candidates) >= 10
    assert _run_attacks(received[None], truth, None, candidates) >= 10


def test_take_backs_leak_no_canyon_load_and_the_log_still_checks_out(api):
    """A load taken back stays in the log with its private part: still nobody else finds
    it, and the log (both events) still verifies."""
    composition = {"holed": 4, "normal": 6}
    game_id, tokens = api.new_game("canyon-donkeys", 3, {"donkey_deck": composition})
    rng = random.Random(11)
    received: list[dict[str, Any]] = []
    taken = 0

    def take_back_and_keep(_view: dict, acted: dict) -> None:
        nonlocal taken, received
        seat = acted["view"]["you"]
        if rng.random() < 0.4 and "take_back" in [a["name"] for a in
                                                  acted["view"]["table_actions"]]:
            r = api.http.post(f"/games/{game_id}/take-back", headers=api.auth(tokens[seat]))
            assert r.status_code == 200, r.get_json()
            taken += 1
        after = received[-1]["seq"] if received else 0
        page = api.events(game_id, None, after)
        if page["status"] != "finished":
            received += page["events"]

    api.play_to_end(game_id, tokens, pick=lambda v: rng.choice(v["legal_actions"]),
                    on_move=take_back_and_keep)
    full = _log(api, game_id)
    assert taken >= 5 and sum(e["type"] == "move_taken_back" for e in full) == taken
    assert check_log([json.dumps(e).encode() for e in full], games_under_test()).problems == []
    truth = _truth(full)
    assert _run_attacks(received, truth, None, _canyon_candidates(list(composition))) >= 10


# --- Checking a log: before the end over what a viewer sees, after it every part ----------
def test_a_seats_log_checks_out_before_the_end_and_the_full_one_after(api):
    game_id, tokens = api.new_game("ochs-und-esel", 3, {"rounds": 1})
    seat_lines = api.http.get(f"/games/{game_id}/log", headers=api.auth(tokens[1])
                              ).data.splitlines()
    before = check_log(seat_lines, games_under_test())
    assert before.problems == []
    assert any("2 private parts withheld" in line for line in before.checked)
    api.play_to_end(game_id, tokens)
    lines = api.http.get(f"/games/{game_id}/log").data.splitlines()
    after = check_log(lines, games_under_test())
    assert after.problems == []
    assert any("3 private parts against their commitments" in x for x in after.checked)


def test_a_tampered_private_part_is_caught_after_the_end(api):
    game_id, tokens = api.new_game("ochs-und-esel", 3, {"rounds": 1})
    api.play_to_end(game_id, tokens)
    lines = api.http.get(f"/games/{game_id}/log").data.splitlines()
    at = next(i for i, line in enumerate(lines) if b'"round_dealt"' in line)
    dealt = json.loads(lines[at])
    hand = dealt["private"]["2"]["hand"]
    hand[0], hand[-1] = hand[-1], hand[0]  # same cards, another order: still a forgery
    forged = [*lines[:at], json.dumps(dealt).encode(), *lines[at + 1:]]
    problems = verify_log(forged, games_under_test())
    assert problems and "private part of seat 2 does not match its commitment" in problems[0]
    dealt["private"].pop("1")
    missing = [*lines[:at], json.dumps(dealt).encode(), *lines[at + 1:]]
    assert any("seat 1 is missing" in p for p in verify_log(missing, games_under_test()))
