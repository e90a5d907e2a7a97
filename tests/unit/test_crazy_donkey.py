"""Crazy Donkey: the same engine as Ochs & Esel with its own deal, five jokers and the
joker's 1-or-14 choice in a donkey trick; the rulebook's worked examples and random games."""

from __future__ import annotations

import random

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.game import resolve_options
from domain.games.crazy_donkey import GAME
from domain.games.trick_engine import DONKEY, JOKER, TrickPlayOx
from tests.gamekit import assert_rejected, random_playout, start
from tests.support.games import installed_games
from tests.unit.test_trick_engine import (
    DONKEY_LEAD,
    OX_LEAD,
    PASS,
    C,
    S,
    deal,
    invariants,
    only,
    run,
    types,
)

J, D = JOKER, DONKEY
ARNO, BARBARA, CHRIS, DANIEL, ERIC = range(5)


# ---------------------------------------------------------------------------------------
# The rulebook's worked examples
# ---------------------------------------------------------------------------------------

def test_example_1_daniel_wins_with_three_10s_and_leads():
    state = deal(GAME, [
        [6, 6, 6, 1, D],  # Arno
        [8, 8, J, 2],  # Barbara
        [9, 3],  # Chris
        [10, 10, 10, 4],  # Daniel
        [12, 5],  # Eric
    ], leader=ARNO)
    state, log = run(GAME, state, (ARNO, S(6, 3)), (BARBARA, S(8, 2, 1)), (CHRIS, PASS),
                     (DANIEL, S(10, 3)), (ERIC, PASS))
    assert log[1].data == {"value": 8, "numbers": 2, "jokers": 1}
    assert log[-1].type == "trick_won" and log[-1].data == {"trick": 1, "seat": DANIEL}
    assert GAME.to_act(state) == {DANIEL}


def test_example_2_daniel_takes_the_donkey_trick_and_waits_two_tricks():
    state = deal(GAME, [
        [D, 3, 4],  # Arno
        [2, 5],  # Barbara
        [1, 6],  # Chris
        [2, 13, 7],  # Daniel
        [1, 8],  # Eric
    ], leader=ARNO)
    state, log = run(GAME, state, (ARNO, DONKEY_LEAD), (BARBARA, C(2)), (CHRIS, C(1)),
                     (DANIEL, C(2)), (ERIC, C(1)))
    taken = only(log, "donkey_trick_taken")
    assert taken.data == {"trick": 1, "seat": DANIEL, "cards": ["donkey", 2, 1, 2, 1]}
    assert state.hands[DANIEL] == (1, 1, 2, 2, 7, 13, D)  # his 13 and 7, and the five
    assert GAME.to_act(state) == {DANIEL}
    assert_rejected(GAME, state, DANIEL, DONKEY_LEAD, "donkey_locked")
    # Trick 2: Daniel leads a 13 and nobody beats it; trick 3: the donkey is free again.
    state, _ = run(GAME, state, (DANIEL, S(13)), (ERIC, PASS), (ARNO, PASS), (BARBARA, PASS),
                   (CHRIS, PASS))
    assert state.trick == 3 and GAME.to_act(state) == {DANIEL}
    assert DONKEY_LEAD in GAME.legal_actions(state, DANIEL)


# ---------------------------------------------------------------------------------------
# The deal
# ---------------------------------------------------------------------------------------

PER_PLAYER = {3: 13, 4: 13, 5: 13, 6: 13, 7: 13, 8: 13, 9: 12, 10: 11, 11: 10, 12: 9}
USED = {3: 39, 4: 52, 5: 65, 6: 78, 7: 91, 8: 104, 9: 108, 10: 110, 11: 110, 12: 108}


@pytest.mark.parametrize("players", range(3, 13))
def test_deal_sizes_for_every_player_count(players):
    state, log = start(GAME, players, seed=players)
    dealt = only(log, "round_dealt")
    k = PER_PLAYER[players]
    assert dealt.data["hand_sizes"] == [k] * players  # the donkey counts among them
    assert players * k == USED[players]
    cards = [c for part in dealt.private.values() for c in part["hand"]]
    assert cards.count("donkey") == 1 and cards.count("joker") <= 5 and "ox" not in cards
    # Whoever is dealt the donkey leads; everyone knows who holds it.
    leader = dealt.data["leader"]
    assert dealt.data["donkey"] == leader and "donkey" in dealt.private[leader]["hand"]
    assert GAME.to_act(state) == {leader} and state.known[leader] == (D,)


def test_the_donkey_goes_among_the_first_39_cards():
    positions = set()
    for seed in range(300):
        players = 3 + seed % 10
        _, log = start(GAME, players, seed=seed)
        data = log[0].data
        assert 0 <= data["donkey_position"] < 39
        assert data["leader"] == (data["first_card_to"] + data["donkey_position"]) % players
        positions.add(data["donkey_position"])
    assert min(positions) == 0 and max(positions) == 38


class RiggedDeck(random.Random):
    """A shuffle that leaves the deck in order, and a fixed place for the donkey."""

    def __init__(self, place: int) -> None:
        super().__init__(0)
        self.place = place

    def shuffle(self, x: list) -> None:  # type: ignore[override]
        pass

    def randrange(self, *args: int, **kwargs: int) -> int:  # type: ignore[override]
        return self.place


@pytest.mark.parametrize("players,place", [(4, 5), (10, 38), (12, 0)])
def test_cards_are_dealt_one_at_a_time(players, place):
    deck: list = [v for v in range(1, 14) for _ in range(8)] + ["joker"] * 5
    deck.insert(place, "donkey")
    expected: list[list] = [[] for _ in range(players)]
    for i in range(players * PER_PLAYER[players]):
        expected[i % players].append(deck[i])  # deal 1 starts with seat 0
    state = GAME.new_state(resolve_options(GAME.options, {}, players), players)
    (dealt,) = GAME.setup(state, RiggedDeck(place))
    assert dealt.data["leader"] == place % players
    for seat in range(players):
        assert sorted(dealt.private[seat]["hand"], key=str) == sorted(expected[seat], key=str)


def test_every_deal_is_a_fresh_deal_led_by_whoever_gets_the_donkey():
    state, log = random_playout(GAME, 5, {"deals": 3}, seed=11, check_every=100)
    deals = [ev for ev in log if ev.type == "round_dealt"]
    assert [d.data["round"] for d in deals] == [1, 2, 3]
    for d in deals:
        holder = next(s for s, part in d.private.items() if "donkey" in part["hand"])
        assert d.data["leader"] == holder == d.data["donkey"]
        assert d.data["first_card_to"] == d.data["round"] - 1
        assert d.data["hand_sizes"] == [13] * 5
    assert len(state.scores) == 3


# ---------------------------------------------------------------------------------------
# The joker in a donkey trick: 1 or 14
# ---------------------------------------------------------------------------------------

def test_a_joker_in_a_donkey_trick_is_declared_1_or_14():
    state = deal(GAME, [[D, 2, 3], [13, J], [J, 4], [12, 5]], leader=0)
    state, _ = run(GAME, state, (0, DONKEY_LEAD))
    assert GAME.legal_actions(state, 1) == [C(13), C("joker", 1), C("joker", 14)]
    assert_rejected(GAME, state, 1, C("joker", 5), "bad_action")
    state, log = run(GAME, state, (1, C(13)), (2, C("joker", 14)), (3, C(12)))
    assert log[1].data == {"card": "joker", "value": 14}
    assert only(log, "donkey_trick_taken").data["seat"] == 2  # 14 beats 13


def test_a_joker_declared_1_ties_a_1_and_defaults_to_1():
    state = deal(GAME, [[D, 2, 3], [1, 5], [J, 4], [1, 6]], leader=0)
    state, log = run(GAME, state, (0, DONKEY_LEAD), (1, C(1)), (2, C("joker")), (3, C(1)))
    assert log[2].data == {"card": "joker", "value": 1}
    assert only(log, "donkey_trick_taken").data["seat"] == 3  # the last of the tied
    assert msgspec.convert({"type": "play_card", "card": "joker", "value": 14},
                           GAME.action_type) == C("joker", 14)


def test_scoring_joker_14_donkey_20():
    state = deal(GAME, [[7], [3, 10, J], [D, 2]], leader=0, options={"deals": 1})
    state, log = run(GAME, state, (0, S(7)), (1, PASS), (2, PASS))
    assert only(log, "round_scored").data["penalties"] == [0, 27, 22]
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.places == [1, 3, 2]


def test_a_tie_for_first_shares_the_first_place_and_skips_the_second():
    state = deal(GAME, [[7], [8], [D, 2]], leader=0, options={"deals": 1})
    state, log = run(GAME, state, (0, S(7)), (1, S(8)), (2, PASS))
    assert only(log, "game_ended").data == {"totals": [0, 0, 22], "places": [1, 1, 3]}
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.places == [1, 1, 3]
    assert any("competition ranking: 1, 1, 3" in rule for rule in GAME.rules)


# ---------------------------------------------------------------------------------------
# No ox; options; one engine
# ---------------------------------------------------------------------------------------

def test_there_is_no_ox():
    state = deal(GAME, [[D, 2], [3], [4]], leader=0)
    assert_rejected(GAME, state, 0, OX_LEAD, "bad_action")
    assert TrickPlayOx not in GAME.action_type.__args__
    assert "ox" not in GAME.view(state, 0)["specials"]


def test_options_and_rules():
    assert resolve_options(GAME.options, {}, 7) == {"deals": 5}
    assert [o.name for o in GAME.options] == ["deals"]
    assert (GAME.id, GAME.min_players, GAME.max_players) == ("crazy-donkey", 3, 12)
    assert any("the donkey is led alone" in r for r in GAME.rules)
    assert installed_games().game("crazy-donkey") is GAME


# ---------------------------------------------------------------------------------------
# Random games
# ---------------------------------------------------------------------------------------

@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 12))
def test_random_games_keep_every_invariant(seed, players):
    state, log = random_playout(GAME, players, {"deals": 2}, seed=seed, check_every=40,
                                on_step=invariants(GAME))
    assert GAME.outcome(state) is not None
    assert types(log).count("round_dealt") == 2
