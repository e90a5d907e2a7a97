"""The domain's play loop: where it stops, who moves in a simultaneous phase, what it
shows of each move."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import pytest

from domain.errors import BadOptions
from domain.events import Event, event
from domain.play import CLOCK_EVERY, advance, begin, play_on
from tests.support.games import games_under_test


class Count:
    """A counting game: the seats to act add 1 or 2 (their choice) until the total reaches
    `goal`. `acting(total)` says which seats act at each total (several: a simultaneous
    phase; none: a broken game)."""

    def __init__(self, goal: int, acting: Callable[[int], frozenset[int]],
                 legal: tuple[int, ...] = (1, 2)) -> None:
        self.goal, self.acting, self.legal = goal, acting, legal

    def outcome(self, state: int) -> Any:
        return "over" if state >= self.goal else None

    def to_act(self, state: int) -> frozenset[int]:
        return self.acting(state)

    def legal_actions(self, state: int, seat: int) -> list[int]:
        return list(self.legal) if seat in self.acting(state) else []

    def decide(self, state: int, seat: int, action: int, rng: random.Random) -> list[Event]:
        return [event("added", actor=seat, k=action)]

    def evolve(self, state: int, ev: Event) -> int:
        return state + ev.data["k"]


def in_turn(total: int) -> frozenset[int]:
    return frozenset({total % 3})


def ones(state: int, seat: int, legal: Any) -> int:
    return 1


def test_it_plays_to_the_end_and_says_so() -> None:
    state, moves, end = play_on(Count(10, in_turn), 0, ones, random.Random(0))
    assert (state, moves, end) == (10, 10, "over")


def test_a_finished_game_makes_no_move() -> None:
    assert play_on(Count(3, in_turn), 5, ones, random.Random(0)) == (5, 0, "over")


def test_stop_ends_the_play_before_the_move_it_refuses() -> None:
    played = play_on(Count(10, in_turn), 0, ones, random.Random(0), stop=lambda s: s >= 4)
    assert played == (4, 4, "stopped")


def test_the_move_bound() -> None:
    assert play_on(Count(100, in_turn), 0, ones, random.Random(0), max_moves=7) == (7, 7, "bound")


def test_a_deadline_passed_is_noticed_at_the_clocks_look() -> None:
    played = play_on(Count(1000, in_turn), 0, ones, random.Random(0),
                     deadline=time.perf_counter() - 1.0)
    assert played == (CLOCK_EVERY - 1, CLOCK_EVERY - 1, "late")
    # A deadline still ahead lets the game end.
    played = play_on(Count(1000, in_turn), 0, ones, random.Random(0),
                     deadline=time.perf_counter() + 60.0)
    assert played[2] == "over"


def test_a_broken_game_is_stuck_not_played_on() -> None:
    nobody = Count(10, lambda total: frozenset() if total == 3 else frozenset({0}))
    assert play_on(nobody, 0, ones, random.Random(0)) == (3, 3, "stuck")
    no_action = Count(10, in_turn, legal=())
    assert play_on(no_action, 0, ones, random.Random(0)) == (0, 0, "stuck")


def test_the_chooser_gets_the_movers_legal_actions() -> None:
    seen: list[tuple[int, int, list[int]]] = []

    def twos(state: int, seat: int, legal: Any) -> int:
        seen.append((state, seat, list(legal)))
        return 2

    assert play_on(Count(6, in_turn), 0, twos, random.Random(0)) == (6, 3, "over")
    assert seen == [(0, 0, [1, 2]), (2, 2, [1, 2]), (4, 1, [1, 2])]


def test_pick_chooses_among_several_seats_only() -> None:
    asked: list[list[int]] = []

    def last(acting: list[int]) -> int:
        asked.append(acting)
        return acting[-1]

    movers: list[int] = []
    both_then_one = Count(4, lambda total: frozenset({0, 2}) if total < 2 else frozenset({1}))
    play_on(both_then_one, 0, ones, random.Random(0), pick=last,
            watch=lambda state, seat, action, events: movers.append(seat))
    assert asked == [[0, 2], [0, 2]]  # in seat order; never for one seat alone
    assert movers == [2, 2, 1, 1]


def test_without_pick_simultaneous_moves_are_drawn_from_the_rng() -> None:
    def movers(seed: int) -> list[int]:
        out: list[int] = []
        play_on(Count(40, lambda total: frozenset({0, 1, 2})), 0, ones, random.Random(seed),
                watch=lambda state, seat, action, events: out.append(seat))
        return out

    assert movers(1) == movers(1)
    assert set(movers(1)) == {0, 1, 2}


def test_watch_sees_every_move_with_its_events() -> None:
    log: list[Any] = []
    play_on(Count(4, in_turn), 0, ones, random.Random(0),
            watch=lambda state, seat, action, events: log.append(
                (state, seat, action, [ev.data for ev in events])))
    assert log == [(1, 0, 1, [{"k": 1}]), (2, 1, 1, [{"k": 1}]), (3, 2, 1, [{"k": 1}]),
                   (4, 0, 1, [{"k": 1}])]


def test_begin_deals_with_the_options_checked_and_advance_applies_one_action() -> None:
    game = games_under_test().game("ochs-und-esel")
    state, events = begin(game, {"rounds": 1}, 3, random.Random(4))
    assert events and state == begin(game, {"rounds": 1}, 3, random.Random(4))[0]
    seat = min(game.to_act(state))
    action = game.legal_actions(state, seat)[0]
    after, new = advance(game, state, seat, action, random.Random(0))
    assert new == game.decide(state, seat, action, random.Random(0))
    assert after != state
    with pytest.raises(BadOptions):
        begin(game, {"rounds": "many"}, 3, random.Random(0))
