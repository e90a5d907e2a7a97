"""The strong bot reads the current trick (Ochs & Esel family): sampled deals in which the
other seats' plays make sense under the heuristic weigh more than those in which they do
not."""

from __future__ import annotations

import random

import msgspec

from domain.bots import trick_basic
from domain.games.trick_engine import JOKER, TrickPass, TrickPlaySet
from domain.play import advance, begin
from tests.support.games import games_under_test

GAME = games_under_test().game("ochs-und-esel")


def _trick_of(hands: list[tuple[int, ...]]) -> object:
    """Seat 0 leads a pair of 5s, seat 1 passes: seat 2 to act, with these hands."""
    state, _ = begin(GAME, {"rounds": 1, "first_player": 0}, 3, random.Random(0))
    state = msgspec.structs.replace(state, hands=tuple(hands), known=((), (), ()))
    state, _ = advance(GAME, state, 0, TrickPlaySet(value=5, numbers=2), random.Random(0))
    state, _ = advance(GAME, state, 1, TrickPass(), random.Random(0))
    assert state.turn == 2
    return state


def test_a_pass_with_a_pair_to_follow_is_unlikely():
    lead = (1, 2, 5, 5, 9)
    mine = (3, 4, 6, 6, 12)
    could_follow = _trick_of([lead, (2, 3, 7, 7, 11), mine])  # seat 1 held 7s: basic plays
    could_not = _trick_of([lead, (2, 3, 7, 8, 11), mine])  # no pair above 5: a pass is all
    explained = trick_basic.weigh(GAME, could_not, {}, 2)
    odd = trick_basic.weigh(GAME, could_follow, {}, 2)
    assert explained > 5 * odd > 0  # with eps 0.3 and two choices: 0.85 against 0.15
    # A joker to pair a 10 with: the heuristic would have climbed with it.
    joker = _trick_of([lead, (2, 3, 4, 10, JOKER), mine])
    assert trick_basic.weigh(GAME, joker, {}, 2) < explained / 5


def test_my_own_plays_and_an_empty_trick_say_nothing():
    state, _ = begin(GAME, {"rounds": 1, "first_player": 2}, 3, random.Random(0))
    assert trick_basic.weigh(GAME, state, {}, 2) == 1.0  # I lead: nothing played yet
