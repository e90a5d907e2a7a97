"""Crazy Eights' rules, one scenario each (the rest — random playouts, blindness, replay,
JSON, the API, the bots — the server's contract tests run on every installed game)."""

from __future__ import annotations

import random

import pytest
from crazy_eights import GAME
from crazy_eights.cards import cards
from crazy_eights.game import DrawCard, EightsState, LayCard, PassTurn

from domain.errors import GameRuleError
from domain.game import resolve_options
from domain.games.common import HIDDEN
from domain.redaction import redact


def table(hands: list[str], top: str, stock: str = "", turn: int = 0,
          suit: str | None = None) -> EightsState:
    """Hands and the stock as codes separated by spaces (the stock's top card last)."""
    follow = suit if suit is not None else top[-1]
    return EightsState(players=len(hands), hand_size=7,
                       hands=tuple(tuple(sorted(cards(h.split()))) for h in hands),
                       stock=cards(stock.split()), discard=cards([top]),
                       suit="CDHS".index(follow), turn=turn)


def play(state: EightsState, seat: int, action: object) -> tuple[EightsState, list]:
    events = GAME.decide(state, seat, action, random.Random(0))
    for ev in events:
        state = GAME.evolve(state, ev)
    return state, events


def refused(state: EightsState, seat: int, action: object) -> str:
    with pytest.raises(GameRuleError) as err:
        GAME.decide(state, seat, action, random.Random(0))
    return err.value.code


def test_the_deal_gives_each_seat_its_hand_privately_and_turns_up_a_card():
    state = GAME.new_state(resolve_options(GAME.options, {}, 3), 3)
    (dealt,) = GAME.setup(state, random.Random(4))
    assert dealt.data["hand_sizes"] == [7, 7, 7] and dealt.data["stock"] == 52 - 21 - 1
    assert dealt.data["first"] in range(3)  # drawn at random, recorded
    assert set(dealt.private) == {0, 1, 2, HIDDEN}
    assert set(redact(dealt, 1)["private"]) == {"1"}  # a seat sees its own hand only
    state = GAME.evolve(state, dealt)
    assert GAME.to_act(state) == {dealt.data["first"]}


def test_a_card_follows_the_suit_or_the_rank():
    state = table(["5H KS 2C", "3D"], top="5S")
    assert GAME.legal_actions(state, 0) == [LayCard(card="5H"), LayCard(card="KS")]
    assert refused(state, 0, LayCard(card="2C")) == "does_not_match"
    assert refused(state, 0, LayCard(card="9H")) == "not_in_hand"
    assert refused(state, 1, LayCard(card="3D")) == "not_your_turn"
    after, events = play(state, 0, LayCard(card="5H"))
    assert [e.type for e in events] == ["card_laid"] and events[0].data["suit"] == "H"
    assert after.turn == 1 and after.discard[-1] == cards(["5H"])[0]


def test_an_eight_goes_on_anything_and_names_the_suit_to_follow():
    state = table(["8C 2D", "3S"], top="KH")
    assert [a for a in GAME.legal_actions(state, 0)] == [
        LayCard(card="8C", suit=s) for s in "CDHS"]
    assert refused(state, 0, LayCard(card="8C")) == "name_a_suit"
    after, _ = play(state, 0, LayCard(card="8C", suit="S"))
    assert GAME.legal_actions(after, 1) == [LayCard(card="3S")]  # spades now


def test_a_player_draws_only_when_nothing_can_be_laid_then_passes_on_an_empty_stock():
    state = table(["2D 9C", "3S"], top="KH", stock="4C 7H")
    assert GAME.legal_actions(state, 0) == [DrawCard()]
    assert refused(state, 0, PassTurn()) == "must_draw"
    after, events = play(state, 0, DrawCard())  # the 7 of hearts: it can be laid now
    assert events[0].private == {0: {"card": "7H"}} and redact(events[0], 1)["private"] == {}
    assert after.turn == 0 and GAME.legal_actions(after, 0) == [LayCard(card="7H")]
    assert refused(after, 0, DrawCard()) == "must_lay"
    empty = table(["2D", "3S"], top="KH")
    assert GAME.legal_actions(empty, 0) == [PassTurn()]
    assert refused(empty, 0, DrawCard()) == "stock_empty"


def test_the_first_to_lay_their_last_card_wins_and_the_others_count_what_they_hold():
    state = table(["QH", "8S KD AC", "2C 3C"], top="5H")
    after, events = play(state, 0, LayCard(card="QH"))
    assert events[-1].type == "hand_ended" and events[-1].data == {
        "winner": 0, "penalties": [0, 50 + 10 + 1, 2 + 3], "places": [1, 3, 2]}
    assert GAME.outcome(after).places == [1, 3, 2] and GAME.to_act(after) == frozenset()


def test_when_every_player_passed_in_a_row_the_hand_ends_where_it_is():
    state = table(["2D 3D", "4C", "KS"], top="9H")  # nobody can lay, the stock is empty
    for seat in range(2):
        state, events = play(state, seat, PassTurn())
        assert [e.type for e in events] == ["player_passed"]
    state, events = play(state, 2, PassTurn())
    assert events[-1].type == "hand_ended" and events[-1].data["winner"] is None
    assert events[-1].data["penalties"] == [5, 4, 10]
    assert events[-1].data["places"] == [2, 1, 3]  # fewest points first


def test_ties_share_their_place():
    state = table(["5D", "2C 3C", "4S AS"], top="9H")
    for seat in range(3):
        state, events = play(state, seat, PassTurn())
    assert events[-1].data["penalties"] == [5, 5, 5] and events[-1].data["places"] == [1, 1, 1]
