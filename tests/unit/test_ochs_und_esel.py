"""Ochs & Esel: the rulebook's worked examples, the deal, the options, and random games."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.errors import BadOptions
from domain.game import resolve_options
from domain.games.ochs_und_esel import GAME
from domain.games.trick_engine import DONKEY, JOKER, OX
from domain.redaction import redact
from tests.gamekit import assert_rejected, random_playout, start
from tests.support.games import installed_games
from tests.unit.test_trick_engine import (
    DONKEY_LEAD,
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
ANDRE, BRIGITTE, CHARLES, DOROTHEE, ERNEST = range(5)


# ---------------------------------------------------------------------------------------
# The rulebook's worked examples
# ---------------------------------------------------------------------------------------

def test_example_1_dorothee_wins_the_trick_with_three_11s_and_leads():
    state = deal(GAME, [
        [6, 6, 6, 2, D],  # André, the first player
        [8, 8, 8, 3],  # Brigitte
        [9, 9, 4],  # Charles
        [11, 11, 11, 5],  # Dorothée
        [12, 7],  # Ernest
    ], leader=ANDRE)
    state, log = run(GAME, state, (ANDRE, S(6, 3)), (BRIGITTE, S(8, 3)), (CHARLES, PASS),
                     (DOROTHEE, S(11, 3)), (ERNEST, PASS))
    assert types(log) == ["set_played", "set_played", "passed", "set_played", "passed",
                          "trick_won"]
    assert log[-1].data == {"trick": 1, "seat": DOROTHEE}
    assert GAME.to_act(state) == {DOROTHEE} and state.trick == 2
    assert [len(h) for h in state.hands] == [2, 1, 3, 1, 2]


def test_example_2_andre_takes_the_donkey_trick_and_may_not_lead_the_donkey():
    state = deal(GAME, [
        [2, 5, 7],  # André
        [J, 9],  # Brigitte
        [D, 3, 4],  # Charles, the first player, holds the donkey
        [2, 10],  # Dorothée
        [1, 11],  # Ernest
    ], leader=CHARLES)
    state, log = run(GAME, state, (CHARLES, DONKEY_LEAD), (DOROTHEE, C(2)), (ERNEST, C(1)),
                     (ANDRE, C(2)), (BRIGITTE, C("joker")))
    assert log[4].data == {"card": "joker", "value": 1}  # a joker is worth 1
    taken = only(log, "donkey_trick_taken")
    assert taken.data == {"trick": 1, "seat": ANDRE, "cards": ["donkey", 2, 1, 2, "joker"]}
    assert state.hands[ANDRE] == (1, 2, 2, 5, 7, J, D)  # all five cards into his hand
    assert GAME.to_act(state) == {ANDRE}
    assert DONKEY_LEAD not in GAME.legal_actions(state, ANDRE)
    assert_rejected(GAME, state, ANDRE, DONKEY_LEAD, "donkey_locked")


# ---------------------------------------------------------------------------------------
# The deal
# ---------------------------------------------------------------------------------------

UNUSED = {3: 69, 4: 56, 5: 43, 6: 30, 7: 17, 8: 4, 9: 0, 10: 8, 11: 9, 12: 0}
PER_PLAYER = {3: 13, 4: 13, 5: 13, 6: 13, 7: 13, 8: 13, 9: 12, 10: 10, 11: 9, 12: 9}


@pytest.mark.parametrize("players", range(3, 13))
def test_deal_sizes_for_every_player_count(players):
    state, log = start(GAME, players, {"first_player": 1}, seed=players)
    dealt = only(log, "round_dealt")
    k = PER_PLAYER[players]
    # The first player holds the donkey on top of the deal.
    assert dealt.data["hand_sizes"] == [k + (s == 1) for s in range(players)]
    assert 108 - players * k == UNUSED[players]
    assert dealt.data["donkey"] == 1 and dealt.data["leader"] == 1
    cards = [c for part in dealt.private.values() for c in part["hand"]]
    assert cards.count("donkey") == 1 and cards.count("joker") <= 4 and "ox" not in cards
    assert all(cards.count(v) <= 8 for v in range(1, 14))
    # Ox variant: nobody gets the donkey; ox and donkey lie in the centre.
    state, log = start(GAME, players, {"first_player": 1, "ox_variant": True}, seed=players)
    dealt = only(log, "round_dealt")
    assert dealt.data["hand_sizes"] == [k] * players and dealt.data["donkey"] is None
    assert dealt.data["centre"] == ["ox", "donkey"] and state.centre == (OX, D)


def test_dealt_hands_are_private_and_sorted():
    state, log = start(GAME, 4, seed=3)
    dealt = only(log, "round_dealt")
    assert set(dealt.private) == {0, 1, 2, 3}
    assert "hand" not in dealt.data and "hands" not in dealt.data
    for seat in range(4):
        seen = redact(dealt, seat)
        assert set(seen["private"]) == {str(seat)}
        assert redact(dealt, None)["private"] == {}
    assert GAME.view(state, 2)["hand"] == dealt.private[2]["hand"]  # sorted, named


def test_first_player_chosen_by_option_or_drawn_and_recorded():
    _, log = start(GAME, 4, {"first_player": 2}, seed=0)
    assert log[0].type == "first_player_chosen" and log[0].data == {"seat": 2, "random": False}
    drawn = set()
    for seed in range(40):
        state, log = start(GAME, 4, seed=seed)
        first = log[0].data
        assert first["random"] is True and log[1].data["leader"] == first["seat"]
        assert GAME.to_act(state) == {first["seat"]} and D in state.hands[first["seat"]]
        drawn.add(first["seat"])
    assert drawn == {0, 1, 2, 3}


def test_options_and_rules():
    assert resolve_options(GAME.options, {}, 5) == {
        "rounds": 5, "ox_variant": False, "first_player": "random"}
    for bad in ({"rounds": 21}, {"rounds": 0}, {"first_player": 5}, {"ox_variant": "yes"},
                {"players": 4}):
        with pytest.raises(BadOptions):
            resolve_options(GAME.options, bad, 5)
    with pytest.raises(BadOptions):
        GAME.new_state(resolve_options(GAME.options, {}, 2), 2)
    assert (GAME.id, GAME.min_players, GAME.max_players) == ("ochs-und-esel", 3, 12)
    rules = " ".join(GAME.rules)
    assert "only locked special cards may lead one of them anyway" in rules
    assert "If the donkey was never taken, the winner of the last trick leads" in rules
    assert "share the place" in rules
    assert installed_games().game("ochs-und-esel") is GAME


def test_a_game_lasts_the_chosen_number_of_rounds():
    state, log = random_playout(GAME, 4, {"rounds": 3}, seed=5, check_every=50)
    assert types(log).count("round_dealt") == 3 and types(log).count("round_scored") == 3
    assert len(state.scores) == 3 and log[-1].type == "game_ended"
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.scores == [sum(r[s] for r in state.scores) for s in range(4)]
    assert log[-1].data["totals"] == outcome.scores
    assert_rejected(GAME, state, 0, PASS, "game_over")


# ---------------------------------------------------------------------------------------
# Random games
# ---------------------------------------------------------------------------------------

@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 12), ox=st.booleans())
def test_random_games_keep_every_invariant(seed, players, ox):
    state, _ = random_playout(GAME, players, {"rounds": 2, "ox_variant": ox}, seed=seed,
                                check_every=40, on_step=invariants(GAME))
    outcome = GAME.outcome(state)
    assert outcome is not None and min(outcome.places) == 1
    assert GAME.view(state, None)["over"] is True


@pytest.mark.parametrize("players,ox", [(3, False), (12, True)])
def test_full_default_games(players, ox):
    state, _ = random_playout(GAME, players, {"ox_variant": ox}, seed=players,
                                check_every=500)
    assert len(state.scores) == 5
