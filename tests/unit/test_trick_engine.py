"""The shared trick engine: every rule of the Ochs & Esel family, checked on scripted deals
(given a deal, when these plays, then these events), plus the invariants random games and
determinized states must keep. Game-specific tests import the helpers from here."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from domain.errors import GameRuleError
from domain.events import Event
from domain.game import resolve_options
from domain.games.crazy_donkey import GAME as CRAZY
from domain.games.ochs_und_esel import GAME as OCHS
from domain.games.trick_engine import (
    CARD_IDS,
    CARD_NAMES,
    DECK_NUMBERS,
    DONKEY,
    JOKER,
    OX,
    TrickEngineState,
    TrickGame,
    TrickPass,
    TrickPlayCard,
    TrickPlayDonkey,
    TrickPlayOx,
    TrickPlaySet,
)
from tests.gamekit import apply, assert_rejected, start

J, D = JOKER, DONKEY
PASS = TrickPass()
DONKEY_LEAD = TrickPlayDonkey()
OX_LEAD = TrickPlayOx()


def S(value: int, numbers: int = 1, jokers: int = 0) -> TrickPlaySet:
    return TrickPlaySet(value=value, numbers=numbers, jokers=jokers)


def C(card: int | str, value: int | None = None) -> TrickPlayCard:
    return TrickPlayCard(card=card, value=value)


# ---------------------------------------------------------------------------------------
# Helpers shared with test_ochs_und_esel.py and test_crazy_donkey.py
# ---------------------------------------------------------------------------------------

def deal(game: TrickGame, hands: list[list[int]], leader: int,
         options: dict[str, Any] | None = None, centre: list[int] | None = None
         ) -> TrickEngineState:
    """Given: round 1 dealt as `hands` (card ids), `leader` to lead."""
    opts = resolve_options(game.options, options, len(hands))
    state = game.new_state(opts, len(hands))
    if centre is None:
        centre = [OX, D] if state.ox_variant else []
    return game.evolve(state, game.dealt(1, hands, leader, centre=centre))


def run(game: TrickGame, state: TrickEngineState, *moves: tuple[int, Any]
        ) -> tuple[TrickEngineState, list[Event]]:
    """When: each (seat, action) in turn. Returns the state and all events."""
    log: list[Event] = []
    for seat, action in moves:
        state, new = apply(game, state, seat, action)
        log += new
    return state, log


def types(events: list[Event]) -> list[str]:
    return [ev.type for ev in events]


def only(events: list[Event], kind: str) -> Event:
    found = [ev for ev in events if ev.type == kind]
    assert len(found) == 1, types(events)
    return found[0]


def multiset(state: TrickEngineState) -> Counter[int]:
    """Every card of the round, wherever it is: hands, table, piles, discards, centre."""
    cards: Counter[int] = Counter()
    for hand in state.hands:
        cards.update(hand)
    for pile in state.piles:
        cards.update(pile)
    for play in state.plays:
        cards.update(play.cards())
    cards.update(state.centre)
    for card, k in enumerate(state.discards):
        cards[card] += k
    return +cards


def invariants(game: TrickGame) -> Any:
    """An `on_step` check for gamekit.random_playout: cards are conserved (the round holds
    exactly the cards dealt), publicly known cards are in their hands, and no seat's view
    shows anything of another hand: a seat's view is the spectator's plus its own hand."""

    def check(state: TrickEngineState, log: list[Event]) -> None:
        deal_ev = next(ev for ev in reversed(log) if ev.type == "round_dealt")
        dealt: Counter[int] = Counter()
        for part in deal_ev.private.values():
            dealt.update(_ids(part["hand"]))
        dealt.update(_ids(deal_ev.data["centre"]))
        assert multiset(state) == dealt, "cards are not conserved"
        deck = Counter(DECK_NUMBERS)
        deck[J] = game.config.jokers
        assert all(dealt[c] <= deck[c] for c in dealt if c not in (OX, D))
        for hand, known in zip(state.hands, state.known, strict=True):
            assert not Counter(known) - Counter(hand), "a known card is not in its hand"
        spectator = game.view(state, None)
        assert "hand" not in spectator and "hands" not in spectator
        for seat in range(state.players):
            view = game.view(state, seat)
            assert view.pop("hand") == _names(state.hands[seat])
            assert view == spectator
        for ev in log[-3:]:
            assert "hand" not in ev.data and "hands" not in ev.data

    return check


def finish(game: TrickGame, state: TrickEngineState, rng: random.Random,
           max_steps: int = 20_000) -> TrickEngineState:
    """Play random legal actions to the end of the game."""
    for _ in range(max_steps):
        if game.outcome(state) is not None:
            return state
        (seat,) = game.to_act(state)
        state, _ = apply(game, state, seat, rng.choice(game.legal_actions(state, seat)), rng)
    raise AssertionError("the game did not end")


def check_determinize(game: TrickGame, state: TrickEngineState, seat: int,
                      rng: random.Random, playout: bool = True) -> TrickEngineState:
    """A determinized state shows `seat` exactly its view, gives it the same legal actions,
    holds the deck's cards only, round-trips as JSON and plays on to the end."""
    view = game.view(state, seat)
    det = game.determinize(msgspec.json.decode(msgspec.json.encode(view)), seat, rng)
    assert game.view(det, seat) == view
    assert game.legal_actions(det, seat) == game.legal_actions(state, seat)
    assert game.to_act(det) == game.to_act(state)
    assert msgspec.json.decode(msgspec.json.encode(det), type=game.state_type) == det
    deck = Counter(DECK_NUMBERS)
    deck[J] = game.config.jokers
    deck[OX] = deck[D] = 1
    assert not multiset(det) - deck, "the determinized state holds cards the deck has not"
    assert [len(h) for h in det.hands] == [len(h) for h in state.hands]
    for hand, known in zip(det.hands, state.known, strict=True):
        assert not Counter(known) - Counter(hand)
    if playout:
        finish(game, det, rng)
    return det


def _ids(cards: list[Any]) -> list[int]:
    return [c if isinstance(c, int) else CARD_IDS[c] for c in cards]


def _names(cards: tuple[int, ...]) -> list[Any]:
    return [c if c <= 13 else CARD_NAMES[c] for c in cards]


# ---------------------------------------------------------------------------------------
# Sets: what the leader may lead and how the others follow
# ---------------------------------------------------------------------------------------

def test_leader_may_lead_every_distinct_set_of_one_value_with_jokers():
    state = deal(OCHS, [[11, 11, J], [D, 1, 2], [3, 4]], leader=0)
    assert OCHS.legal_actions(state, 0) == [
        S(11, 1), S(11, 1, 1), S(11, 2), S(11, 2, 1), S(14, 0, 1)]


def test_jokers_join_a_set_and_take_its_value():
    state = deal(OCHS, [[6, 6, 6, 1], [8, 8, J, 1], [11, 11, 11, 1]], leader=0)
    state, log = run(OCHS, state, (0, S(6, 3)), (1, S(8, 2, 1)))
    assert state.high == 8 and state.count == 3 and state.high_seat == 1
    assert log[-1].data == {"value": 8, "numbers": 2, "jokers": 1}


def test_followers_play_exactly_the_leaders_count_strictly_higher_or_pass():
    state = deal(OCHS, [[6, 6, 6, 1], [8, 8, J, 10, 10, 10, 7], [2]], leader=0)
    state, _ = run(OCHS, state, (0, S(6, 3)))
    assert OCHS.legal_actions(state, 1) == [PASS, S(8, 2, 1), S(10, 2, 1), S(10, 3)]
    assert_rejected(OCHS, state, 1, S(10, 2), "must_follow_count")
    assert_rejected(OCHS, state, 1, S(6, 3), "too_low")
    assert_rejected(OCHS, state, 1, S(12, 3), "not_in_hand")
    assert_rejected(OCHS, state, 1, S(7, 1, 2), "not_in_hand")
    assert_rejected(OCHS, state, 1, C(7), "must_play_set")


def test_only_a_pair_of_jokers_beats_a_pair_of_13s():
    state = deal(OCHS, [[13, 13, 1], [13, J, J, 12, 12], [2]], leader=0)
    state, _ = run(OCHS, state, (0, S(13, 2)))
    assert OCHS.legal_actions(state, 1) == [PASS, S(14, 0, 2)]
    state, _ = run(OCHS, state, (1, S(14, 0, 2)))
    assert state.high == 14
    assert OCHS.legal_actions(state, 2) == [PASS]  # jokers alone cannot be beaten


def test_the_leader_must_play():
    state = deal(OCHS, [[5, D], [6], [7]], leader=0)
    assert_rejected(OCHS, state, 0, PASS, "cannot_pass")
    assert_rejected(OCHS, state, 0, C(5), "must_play_set")


def test_the_last_set_played_wins_and_its_player_leads_next():
    state = deal(OCHS, [[3, 4, D], [5, 6], [7, 8]], leader=0)
    state, log = run(OCHS, state, (0, S(3)), (1, S(5)), (2, PASS))
    assert types(log)[-1] == "trick_won" and log[-1].data == {"trick": 1, "seat": 1}
    assert OCHS.to_act(state) == {1} and state.trick == 2 and state.leader == 1
    assert state.discards[3] == state.discards[5] == 1  # discarded, out of play


def test_if_everyone_passes_the_leader_wins():
    state = deal(OCHS, [[3, 4, D], [5, 6], [7, 8]], leader=1)
    state, log = run(OCHS, state, (1, S(6)), (2, PASS), (0, PASS))
    assert log[-1].data == {"trick": 1, "seat": 1}


def test_nobody_else_acts_out_of_turn():
    state = deal(OCHS, [[3, 4, D], [5, 6], [7, 8]], leader=0)
    assert OCHS.to_act(state) == frozenset({0})
    assert OCHS.legal_actions(state, 1) == [] and OCHS.legal_actions(state, 2) == []
    assert_rejected(OCHS, state, 1, S(5), "not_your_turn")


# ---------------------------------------------------------------------------------------
# Donkey tricks and the lock
# ---------------------------------------------------------------------------------------

def test_only_the_leader_may_play_the_donkey_alone():
    state = deal(OCHS, [[3, 4], [D, 5, 6], [7, 8]], leader=0)
    state, _ = run(OCHS, state, (0, S(3)))
    assert DONKEY_LEAD not in OCHS.legal_actions(state, 1)
    assert_rejected(OCHS, state, 1, DONKEY_LEAD, "only_leader_plays_donkey")
    assert_rejected(OCHS, state, 2, DONKEY_LEAD, "not_your_turn")
    state = deal(OCHS, [[3, 4], [D, 5, 6], [7, 8]], leader=1)
    assert DONKEY_LEAD in OCHS.legal_actions(state, 1)  # dealt cards are not locked


def test_donkey_trick_one_card_each_no_pass_highest_takes_ties_go_to_the_last():
    state = deal(OCHS, [[D, 2, 3], [5, 9, J], [5, 6], [J, 1]], leader=0)
    state, log = run(OCHS, state, (0, DONKEY_LEAD))
    assert types(log) == ["donkey_led"] and state.kind == 1
    assert OCHS.legal_actions(state, 1) == [C(5), C(9), C("joker")]
    assert_rejected(OCHS, state, 1, PASS, "cannot_pass")
    assert_rejected(OCHS, state, 1, S(5), "must_play_one_card")
    assert_rejected(OCHS, state, 1, C(7), "not_in_hand")
    assert_rejected(OCHS, state, 1, C("joker", 14), "joker_value_fixed")
    state, log = run(OCHS, state, (1, C(5)), (2, C(5)), (3, C("joker")))
    assert [ev.data for ev in log[:3]] == [
        {"card": 5, "value": 5}, {"card": 5, "value": 5}, {"card": "joker", "value": 1}]
    taken = only(log, "donkey_trick_taken")
    assert taken.data == {"trick": 1, "seat": 2, "cards": ["donkey", 5, 5, "joker"]}
    assert state.hands[2] == (5, 5, 6, J, D) and state.leader == 2 and OCHS.to_act(state) == {2}
    assert state.known[2] == (5, 5, J, D)  # everyone saw those cards go into that hand


def test_lock_a_donkey_taken_in_trick_t_may_be_led_again_from_trick_t_plus_2():
    state = deal(OCHS, [[D, 2, 3], [5, 9, 10], [6, 7, 13]], leader=0)
    state, _ = run(OCHS, state, (0, DONKEY_LEAD), (1, C(9)), (2, C(6)))
    assert state.leader == 1 and state.trick == 2 and D in state.hands[1]
    assert DONKEY_LEAD not in OCHS.legal_actions(state, 1)
    assert_rejected(OCHS, state, 1, DONKEY_LEAD, "donkey_locked")
    assert OCHS.view(state, 1)["specials"]["donkey"] == {
        "where": "hand", "seat": 1, "playable_from_trick": 3, "locked": True}
    state, _ = run(OCHS, state, (1, S(10)), (2, PASS), (0, PASS))  # seat 1 leads trick 3
    assert DONKEY_LEAD in OCHS.legal_actions(state, 1)
    state, log = run(OCHS, state, (1, DONKEY_LEAD))
    assert types(log) == ["donkey_led"]


def test_decision_lock_waived_when_the_leader_holds_only_locked_specials():
    state = deal(OCHS, [[D, 2, 3], [5, 9, 10], [6, 7, 13]], leader=0)
    state, _ = run(OCHS, state, (0, DONKEY_LEAD), (1, C(9)), (2, C(6)))
    assert state.donkey_from == 3 and state.trick == 2
    only_donkey = replace(state, hands=(state.hands[0], (D,), state.hands[2]))
    assert OCHS.legal_actions(only_donkey, 1) == [DONKEY_LEAD]
    _, log = run(OCHS, only_donkey, (1, DONKEY_LEAD))
    assert types(log) == ["donkey_led"]
    # Both specials locked (ox variant): either may be led.
    ox = deal(OCHS, [[2, 3], [OX, 4, 5], [6, 7]], 0, {"ox_variant": True})
    both = replace(ox, hands=(ox.hands[0], (OX, D), ox.hands[2]), leader=1, turn=1, trick=2,
                   donkey_from=3, ox_from=3, centre=())
    assert OCHS.legal_actions(both, 1) == [DONKEY_LEAD, OX_LEAD]
    # One of them free: only that one.
    assert OCHS.legal_actions(replace(both, ox_from=2), 1) == [OX_LEAD]


def test_skip_empty_hands():
    """A player with an empty hand is skipped. (In play a trick starts with every hand
    non-empty, so this guards the rule on a hand-made state.)"""
    state = deal(OCHS, [[3, 4, D], [5], [7, 8], [9, 10]], leader=0)
    state = replace(state, hands=(state.hands[0], (), state.hands[2], state.hands[3]))
    state, _ = run(OCHS, state, (0, S(3)))
    assert OCHS.to_act(state) == {2}
    state, log = run(OCHS, state, (2, PASS), (3, PASS))
    assert types(log)[-3:] == ["trick_won", "round_scored", "round_dealt"]


# ---------------------------------------------------------------------------------------
# End of a round, scoring, next round, end of the game
# ---------------------------------------------------------------------------------------

def test_round_ends_when_a_hand_is_empty_and_scores_cards_left():
    state = deal(OCHS, [[7], [3, 10, J], [D, 2, 4]], leader=0, options={"rounds": 1})
    state, log = run(OCHS, state, (0, S(7)), (1, PASS), (2, PASS))
    assert types(log) == ["set_played", "passed", "passed", "trick_won", "round_scored",
                          "game_ended"]
    scored = only(log, "round_scored").data
    # 3 + 10 + joker = 27; donkey 20 + 2 + 4 = 26.
    assert scored["penalties"] == [0, 27, 26] and scored["out"] == [0]
    assert only(log, "game_ended").data == {"totals": [0, 27, 26], "places": [1, 3, 2]}
    outcome = OCHS.outcome(state)
    assert outcome is not None and outcome.places == [1, 3, 2]
    assert outcome.scores == [0, 27, 26] and outcome.lower_is_better
    assert outcome.score_name == "penalty"
    assert OCHS.to_act(state) == frozenset() and OCHS.legal_actions(state, 1) == []
    assert_rejected(OCHS, state, 1, PASS, "game_over")


def test_last_card_in_a_donkey_trick_but_taking_the_cards_is_not_out():
    state = deal(OCHS, [[D, 5], [7], [3, 4]], leader=0)
    state, log = run(OCHS, state, (0, DONKEY_LEAD), (1, C(7)), (2, C(3)))
    assert types(log)[-1] == "donkey_trick_taken" and only(log, "donkey_trick_taken").data[
        "seat"] == 1
    assert state.hands == ((5,), (3, 7, D), (4,)) and OCHS.to_act(state) == {1}


def test_round_end_is_checked_after_the_donkey_trick_is_taken():
    state = deal(OCHS, [[D, 5], [7], [3]], leader=0)
    state, log = run(OCHS, state, (0, DONKEY_LEAD), (1, C(7)), (2, C(3)))
    assert types(log)[-3:] == ["donkey_trick_taken", "round_scored", "round_dealt"]
    scored = only(log, "round_scored").data
    assert scored["out"] == [2] and scored["penalties"] == [5, 3 + 7 + 20, 0]


def test_several_players_may_go_out_in_the_same_trick_and_share_the_place():
    state = deal(OCHS, [[2], [5], [D, 3], [9, 1]], leader=0, options={"rounds": 1})
    state, log = run(OCHS, state, (0, S(2)), (1, S(5)), (2, PASS), (3, S(9)))
    scored = only(log, "round_scored").data
    assert scored["out"] == [0, 1] and scored["penalties"] == [0, 0, 23, 1]
    assert only(log, "game_ended").data["places"] == [1, 1, 4, 3]


def test_the_donkeys_holder_keeps_it_and_leads_the_next_round():
    state = deal(OCHS, [[7], [3, 10], [D, 2]], leader=0, options={"rounds": 2})
    state, log = run(OCHS, state, (0, S(7)), (1, PASS), (2, PASS))
    dealt = only(log, "round_dealt")
    assert dealt.data["round"] == 2 and dealt.data["leader"] == 2 and dealt.data["donkey"] == 2
    assert dealt.data["hand_sizes"] == [13, 13, 14]
    assert "donkey" in dealt.private[2]["hand"]
    assert state.round == 2 and state.trick == 1 and OCHS.to_act(state) == {2}
    assert DONKEY_LEAD in OCHS.legal_actions(state, 2)  # a dealt donkey is not locked
    assert state.scores == ((0, 13, 22),)


# ---------------------------------------------------------------------------------------
# Ox variant
# ---------------------------------------------------------------------------------------

OX_HANDS = [[1, 2, 3, J], [5, 6, 12, 13], [4, 9, 10, 11]]


def test_ox_variant_a_whole_round():
    state = deal(OCHS, OX_HANDS, leader=0, options={"ox_variant": True, "rounds": 2})
    assert state.centre == (OX, D) and OCHS.legal_actions(state, 0)[-1] == S(14, 0, 1)
    # Trick 1: its winner takes the ox, locked in trick 2.
    state, log = run(OCHS, state, (0, S(1)), (1, S(5)), (2, PASS))
    assert only(log, "ox_taken").data == {"trick": 1, "seat": 1}
    assert state.centre == (D,) and OX in state.hands[1] and state.known[1] == (OX,)
    assert_rejected(OCHS, state, 1, OX_LEAD, "ox_locked")
    # Trick 2: its winner takes the donkey.
    state, log = run(OCHS, state, (1, S(6)), (2, S(9)), (0, PASS))
    assert only(log, "donkey_taken").data == {"trick": 2, "seat": 2}
    assert state.centre == () and state.known[2] == (D,)
    assert_rejected(OCHS, state, 2, DONKEY_LEAD, "donkey_locked")
    state, _ = run(OCHS, state, (2, S(10)), (0, PASS), (1, S(12)))
    # Trick 4: an ox trick; the taker puts the cards face down as a penalty pile.
    state, log = run(OCHS, state, (1, OX_LEAD), (2, C(4)), (0, C("joker")))
    assert types(log) == ["ox_led", "card_played", "card_played", "ox_trick_taken"]
    assert log[-1].data == {"trick": 4, "seat": 2, "count": 3}
    assert state.piles[2] == (4, J, OX) and state.hands[2] == (11, D)
    view = OCHS.view(state, 0)
    assert view["penalty_piles"][2] == {"count": 3}  # face down
    assert OCHS.view(state, 0, reveal_all=True)["penalty_piles"][2] == {
        "count": 3, "cards": [4, "joker", "ox"]}
    assert view["specials"]["ox"]["where"] == "pile"
    # Trick 5: a donkey trick, cards go into the taker's hand as usual.
    state, log = run(OCHS, state, (2, DONKEY_LEAD), (0, C(3)), (1, C(13)))
    assert state.hands[1] == (3, 13, D) and state.donkey_from == 7
    # Trick 6: seat 2 goes out.
    state, log = run(OCHS, state, (1, S(3)), (2, S(11)), (0, PASS))
    scored = only(log, "round_scored").data
    # Pile: number = value, joker 1, ox 0 -> 4 + 1 + 0; hands: 2; 13 + donkey 20.
    assert scored["hand_penalties"] == [2, 33, 0] and scored["pile_penalties"] == [0, 0, 5]
    assert scored["penalties"] == [2, 33, 5]
    # Decision: the donkey's holder leads the next round; the donkey goes back to the centre.
    dealt = only(log, "round_dealt")
    assert dealt.data["leader"] == 1 and dealt.data["centre"] == ["ox", "donkey"]
    assert dealt.data["donkey"] is None and dealt.data["hand_sizes"] == [13, 13, 13]
    assert state.centre == (OX, D) and OCHS.to_act(state) == {1}


def test_ox_variant_if_the_donkey_was_never_taken_the_last_tricks_winner_leads():
    state = deal(OCHS, [[5], [1, 2], [7, 8]], leader=0, options={"ox_variant": True})
    state, log = run(OCHS, state, (0, S(5)), (1, PASS), (2, S(7)))
    assert types(log)[-4:] == ["trick_won", "ox_taken", "round_scored", "round_dealt"]
    assert only(log, "round_scored").data["penalties"] == [0, 3, 8 + 15]  # ox in hand: 15
    assert only(log, "round_dealt").data["leader"] == 2


def test_in_an_ox_or_donkey_trick_a_hand_of_only_specials_must_pass():
    state = deal(OCHS, [[OX, 3, 4], [D], [5, 6]], 0, {"ox_variant": True}, centre=[])
    state, _ = run(OCHS, state, (0, OX_LEAD))
    assert OCHS.legal_actions(state, 1) == [PASS]
    assert_rejected(OCHS, state, 1, DONKEY_LEAD, "must_pass")
    assert_rejected(OCHS, state, 1, C(3), "must_pass")
    state, log = run(OCHS, state, (1, PASS), (2, C(6)))
    assert log[0].data == {"forced": True}
    assert only(log, "ox_trick_taken").data["seat"] == 2 and state.piles[2] == (6, OX)


def test_the_ox_is_only_led_alone_by_the_leader():
    state = deal(OCHS, [[2, 3], [OX, 4, 5], [6, 7]], 0, {"ox_variant": True}, centre=[D])
    state, _ = run(OCHS, state, (0, S(2)))
    assert_rejected(OCHS, state, 1, OX_LEAD, "only_leader_plays_ox")
    assert_rejected(OCHS, deal(OCHS, [[2], [3], [4]], 0), 0, OX_LEAD, "not_in_hand")


# ---------------------------------------------------------------------------------------
# Actions on the wire and malformed actions
# ---------------------------------------------------------------------------------------

def test_actions_wire_format():
    wire = [
        {"type": "play_set", "value": 11, "numbers": 2, "jokers": 1},
        {"type": "play_set", "value": 14, "jokers": 2},
        {"type": "pass"},
        {"type": "play_donkey"},
        {"type": "play_ox"},
        {"type": "play_card", "card": 7},
        {"type": "play_card", "card": "joker"},
    ]
    actions = [msgspec.convert(w, OCHS.action_type) for w in wire]
    assert actions == [S(11, 2, 1), S(14, 0, 2), PASS, DONKEY_LEAD, OX_LEAD, C(7), C("joker")]
    assert [msgspec.to_builtins(a) for a in actions] == wire
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"type": "play_ox"}, CRAZY.action_type)


@pytest.mark.parametrize("action", [
    S(11, 0, 0), S(14, 1, 0), S(11, 0, 2), S(15, 1), S(0, 1), S(5, -1, 2),
    C(0), C(14), C("ox"), C(7, 8), C("joker", 5), {"type": "pass"}, "pass", None,
])
def test_malformed_actions_are_bad_actions(action):
    state = deal(OCHS, [[3, 4, D], [5, 6], [7, 8]], leader=0)
    assert_rejected(OCHS, state, 0, action, "bad_action")


def test_errors_are_rule_errors_with_messages():
    state = deal(OCHS, [[3, 4, D], [5, 6], [7, 8]], leader=0)
    with pytest.raises(GameRuleError) as err:
        OCHS.decide(state, 0, PASS, random.Random(0))
    assert err.value.code == "cannot_pass" and err.value.message
    not_started = OCHS.new_state(resolve_options(OCHS.options, {}, 3), 3)
    assert_rejected(OCHS, not_started, 0, PASS, "game_not_started")
    assert OCHS.to_act(not_started) == frozenset()


# ---------------------------------------------------------------------------------------
# State, view, determinize
# ---------------------------------------------------------------------------------------

def test_evolve_returns_a_new_state_and_the_state_round_trips():
    state = deal(OCHS, [[D, 2, 3], [5, 9, J], [5, 6]], leader=0)
    before = msgspec.json.encode(state)
    after, _ = run(OCHS, state, (0, DONKEY_LEAD), (1, C("joker")))
    assert msgspec.json.encode(state) == before and after is not state
    raw = msgspec.json.encode(after)
    assert msgspec.json.decode(raw, type=OCHS.state_type) == after


def test_view_shows_the_table_and_own_hand_only():
    state = deal(OCHS, [[D, 2, 3], [5, 9, J], [5, 6]], leader=0, options={"rounds": 3})
    state, _ = run(OCHS, state, (0, DONKEY_LEAD), (1, C(9)))
    view = OCHS.view(state, 2)
    assert view["hand"] == [5, 6] and "hands" not in view
    assert view["to_act"] == 2 and view["round"] == 1 and view["rounds"] == 3
    assert view["trick"] == {
        "number": 1, "leader": 0, "kind": "donkey", "count": 1, "high": 9, "high_seat": 1,
        "plays": [{"seat": 0, "action": "lead", "card": "donkey"},
                  {"seat": 1, "action": "play", "value": 9, "numbers": 1, "jokers": 0,
                   "cards": [9]}]}
    assert view["hand_sizes"] == [2, 2, 2]
    assert view["known_cards"] == [[], [], []]  # the donkey left seat 0's hand
    assert view["specials"] == {"donkey": {
        "where": "table", "seat": None, "playable_from_trick": 1, "locked": False}}
    assert view["scores"] == [] and view["totals"] == [0, 0, 0]
    assert OCHS.view(state, 2, reveal_all=True)["hands"] == [[2, 3], [5, "joker"], [5, 6]]
    msgspec.json.encode(view)


def test_determinize_keeps_what_the_seat_knows():
    state = deal(OCHS, [[D, 2, 3], [5, 9, J], [5, 6, 7]], leader=0)
    state, _ = run(OCHS, state, (0, DONKEY_LEAD), (1, C(9)), (2, C(5)))
    # Seat 1 took the donkey trick: everyone knows it holds 2 of 9, donkey and 5.
    for seat in range(3):
        det = check_determinize(OCHS, state, seat, random.Random(seat), playout=False)
        assert Counter((5, 9, D)) <= Counter(det.hands[1])
        assert det.hands[seat] == state.hands[seat]


@pytest.mark.parametrize("game,options", [
    (OCHS, {"rounds": 2}), (OCHS, {"rounds": 2, "ox_variant": True}), (CRAZY, {"deals": 2})])
def test_determinized_states_play_on_like_the_true_one(game, options):
    rng = random.Random(7)
    for players in (3, 6, 10):
        state, _ = start(game, players, options, seed=players)
        steps = 0
        while game.outcome(state) is None:
            (seat,) = game.to_act(state)
            if steps % 5 == 0:
                check_determinize(game, state, seat, rng)
                check_determinize(game, state, (seat + 1) % players, rng, playout=False)
            state, _ = apply(game, state, seat, rng.choice(game.legal_actions(state, seat)), rng)
            steps += 1


def test_both_games_are_one_engine():
    assert type(OCHS) is type(CRAZY) is TrickGame
    assert OCHS.state_type is CRAZY.state_type is TrickEngineState
