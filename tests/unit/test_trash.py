"""Trash: scripted scenarios for each rule of `rules/trash.md`, then random playouts.

Scenarios start from tables written card by card with `table()`: a layout is one string
per seat, slot 1 first, where `7H` is face down and `7H*` face up; `draws` lists the stock
from its top card down; `discard` lists the pile from the bottom up (top last).
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.bots import observe, trash_basic
from domain.bots.levels import make_bot
from domain.bots.search_terms import Budget
from domain.errors import BadOptions, GameRuleError
from domain.events import Event, decode, encode
from domain.game import resolve_options
from domain.games import common
from domain.games.common import HIDDEN
from domain.games.trash import (
    GAME,
    TrashDiscard,
    TrashDisplace,
    TrashDraw,
    TrashPlaceWild,
    TrashState,
    automatic,
)
from domain.games.trash.cards import CARD, CODES, DECK_SIZE, NO_CARD
from domain.games.trash.state import placeable
from domain.redaction import redact
from tests.gamekit import apply, assert_rejected, bot_playout, random_playout, start
from tests.support.games import installed_games

STOCK = TrashDraw(source="stock")
DISCARD = TrashDraw(source="discard")


def table(*layouts: str, draws: str = "JC JD", discard: str = "", hand: str | None = None,
          turn: int = 0, wild: str = "J", target_slots: int = 0, max_rounds: int | None = None,
          round: int = 1, slots: tuple[int, ...] | None = None, decks: int = 1,
          whole_deck: bool = False) -> TrashState:
    """A table in the middle of a round. The default stock holds two jacks at its top, so
    a scenario's round never stalls unless the scenario says so. With `whole_deck` the
    cards not named lie in the stock below `draws`, as a bot's search expects."""
    rows = [row.split() for row in layouts]
    stock = [CARD[c] for c in reversed(draws.split())]
    if whole_deck:
        named = Counter(CARD[c.rstrip("*")] for row in rows for c in row)
        named.update(CARD[c] for c in [*draws.split(), *discard.split(), *([hand] if hand else [])])
        rest = Counter({card: decks for card in range(DECK_SIZE)}) - named
        stock = sorted(rest.elements()) + stock
    return TrashState(
        players=len(rows), decks=decks, wild=wild, target_slots=target_slots,
        max_rounds=max_rounds, round=round, leader=0, turn=turn,
        slots=slots or tuple(len(row) for row in rows),
        layout=tuple(tuple(CARD[c.rstrip("*")] for c in row) for row in rows),
        face_up=tuple(tuple(c.endswith("*") for c in row) for row in rows),
        hand=NO_CARD if hand is None else CARD[hand],
        stock=tuple(stock),
        discard=tuple(CARD[c] for c in discard.split()))


def play(state: TrashState, seat: int, action: Any,
         seed: int = 0) -> tuple[TrashState, list[Event]]:
    return apply(GAME, state, seat, action, random.Random(seed))


def steps(events: list[Event]) -> list[tuple[Any, ...]]:
    """The events in short: type and the data a rule is about."""
    out: list[tuple[Any, ...]] = []
    for ev in events:
        d = ev.data
        match ev.type:
            case "card_drawn":
                out.append(("drawn", d["source"], d["card"]))
            case "card_placed":
                out.append(("placed", d["slot"], d["card"], d["taken"]))
            case "card_discarded":
                out.append(("discarded", d["card"], d["reason"]))
            case "turn_ended" | "turn_passed":
                out.append((ev.type, d["seat"], d["next"]))
            case "round_won":
                out.append(("round_won", d["seat"], d["slots"]))
            case _:
                out.append((ev.type,))
    return out


def shown(state: TrashState, seat: int) -> str:
    """A seat's layout as `table()` writes it."""
    return " ".join(CODES[c] + ("*" if up else "")
                    for c, up in zip(state.layout[seat], state.face_up[seat], strict=True))


# --- options and the deal ----------------------------------------------------------------
def test_registered() -> None:
    assert installed_games().game("trash") is GAME


@pytest.mark.parametrize(("players", "decks"), [(2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_decks_default_by_players(players: int, decks: int) -> None:
    opts = resolve_options(GAME.options, {}, players)
    assert opts == {"decks": None, "wild": "J", "target_slots": 0, "max_rounds": None}
    assert GAME.new_state(opts, players).decks == decks
    assert GAME.new_state({"decks": 3}, players).decks == 3


def test_bad_options() -> None:
    for given_, code in [({"decks": 4}, "bad_option"), ({"wild": "Q"}, "bad_option"),
                         ({"target_slots": 10}, "bad_option"), ({"max_rounds": 0}, "bad_option"),
                         ({"max_rounds": 51}, "bad_option"), ({"jokers": True}, "unknown_option")]:
        with pytest.raises(BadOptions) as err:
            resolve_options(GAME.options, given_, 3)
        assert err.value.code == code
    with pytest.raises(BadOptions) as err:
        GAME.new_state({"decks": 1}, 6)  # 60 face-down cards from 52
    assert err.value.code == "not_enough_cards"
    with pytest.raises(BadOptions) as err:
        GAME.new_state({"decks": 1}, 5)  # 50 face-down cards: 2 left for the stock
    assert err.value.code == "not_enough_cards"
    with pytest.raises(BadOptions):
        GAME.new_state({}, 7)


SPEC_DECISIONS = (
    "the discard may be taken only when it is placeable",
    "The first player of a round has no choice (the discard pile is empty).",
    "wilds go on face-down slots only; placing is mandatory while a face-down slot exists; "
    "with none left the wild is discarded.",
    "no one gets a last turn.",
    "leaves the stock empty and the discard is not placeable, the player's turn passes.",
    "the first round's first player is chosen at random (recorded in the log).",
    "places follow the slots left, fewest first; tied players share the place and the "
    "places after them are skipped (competition ranking: 1, 1, 3)",
    "at least one deck per four players, so 5 or 6 players need 2 decks or more",
)


def test_rules_list_every_decision_of_the_spec() -> None:
    # Besides the spec's, the rulings every game states on resigning and aborting.
    table_life = (common.CONCEDED_LAST, common.ABORT_BY_AGREEMENT)
    decisions = [r for r in GAME.rules if r.startswith("Decision:")
                 and not any(t in r for t in table_life)]
    assert len(decisions) == 7  # the first two lines above are one Decision
    for ruling in SPEC_DECISIONS:
        assert any(ruling in r for r in decisions), ruling
    assert all(r.startswith(("Decision:", "Decision (resigning):", "Decision (forced moves):",
                             "Decision (take-back):", "Assumption:"))
               for r in GAME.rules)


def test_deal_hides_every_card_and_records_a_random_leader() -> None:
    leaders = set()
    for seed in range(12):
        state, events = start(GAME, 3, {}, seed)
        (dealt,) = events
        assert dealt.type == "round_dealt"
        assert dealt.data["leader_chosen"] == "random"
        leaders.add(dealt.data["leader"])
        assert state.turn == dealt.data["leader"] and state.round == 1
        # The face-down cards and the stock are in no seat's part and not in public data.
        assert set(dealt.private) == {HIDDEN}
        assert not set(json.dumps(dealt.data).replace('"', " ").split()) & set(CODES)
        for seat in (0, 1, 2, None):
            assert redact(dealt, seat)["private"] == {}
        assert [len(row) for row in state.layout] == [10, 10, 10]
        assert not any(any(row) for row in state.face_up)
        assert len(state.stock) == 2 * DECK_SIZE - 30 and state.discard == ()
    assert len(leaders) == 3


def test_first_player_has_no_choice() -> None:
    state, _ = start(GAME, 2, {}, 1)
    assert GAME.legal_actions(state, state.turn) == [STOCK]
    assert_rejected(GAME, state, state.turn, DISCARD, "discard_empty")


# --- a turn ------------------------------------------------------------------------------
def test_a_chain_card_by_card_until_a_king_ends_the_turn() -> None:
    state = table("2C 3D KH 9S", "5C 6C 7C 8C", draws="AS JC")
    state, events = play(state, 0, STOCK)
    assert steps(events) == [
        ("drawn", "stock", "AS"),
        ("placed", 1, "AS", "2C"), ("placed", 2, "2C", "3D"), ("placed", 3, "3D", "KH"),
        ("discarded", "KH", "not_wild"),  # a queen or king ends the turn
        ("turn_ended", 0, 1),
    ]
    assert shown(state, 0) == "AS* 2C* 3D* 9S"
    assert state.discard == (CARD["KH"],) and state.turn == 1 and state.hand == NO_CARD


def test_a_queen_ends_the_turn_at_once() -> None:
    state = table("2C 3D", "5C 6C", draws="QS JC")
    state, events = play(state, 0, STOCK)
    assert steps(events)[1:] == [("discarded", "QS", "not_wild"), ("turn_ended", 0, 1)]
    assert shown(state, 0) == "2C 3D"


def test_a_wild_goes_on_the_face_down_slot_chosen() -> None:
    state = table("AS* 2C 3D 9S", "5C 6C 7C 8C", draws="JH JC")
    state, events = play(state, 0, STOCK)
    assert steps(events) == [("drawn", "stock", "JH")]
    assert GAME.legal_actions(state, 0) == [TrashPlaceWild(slot=s) for s in (2, 3, 4)]
    assert GAME.view(state, 0)["pending"] == {"choice": "place_wild", "card": "JH",
                                               "slots": [2, 3, 4]}
    assert_rejected(GAME, state, 0, TrashPlaceWild(slot=1), "slot_not_face_down")
    assert_rejected(GAME, state, 0, TrashPlaceWild(slot=5), "no_such_slot")
    assert_rejected(GAME, state, 0, TrashPlaceWild(slot=0), "no_such_slot")
    assert_rejected(GAME, state, 0, STOCK, "must_place_wild")
    state, events = play(state, 0, TrashPlaceWild(slot=4))
    assert steps(events) == [
        ("placed", 4, "JH", "9S"),
        ("discarded", "9S", "above_layout"),  # a number above the layout is unplayable
        ("turn_ended", 0, 1),
    ]
    assert shown(state, 0) == "AS* 2C 3D JH*"


def test_a_wild_with_one_face_down_slot_left_is_placed_there() -> None:
    state = table("AS* 2C* 3D 4S*", "5C 6C 7C 8C", draws="JH 5H")
    state, events = play(state, 0, STOCK)
    assert steps(events)[:3] == [("drawn", "stock", "JH"), ("placed", 3, "JH", "3D"),
                                 ("discarded", "3D", "layout_complete")]


def test_a_number_displaces_a_wild_which_moves_on() -> None:
    state = table("JH* 2C 3D 9S", "5C 6C 7C 8C", draws="AS JC")
    state, events = play(state, 0, STOCK)
    assert steps(events) == [("drawn", "stock", "AS")]
    assert GAME.legal_actions(state, 0) == [TrashDisplace(), TrashDiscard()]
    assert GAME.view(state, 0)["pending"] == {"choice": "displace", "card": "AS", "slot": 1}
    assert_rejected(GAME, state, 0, TrashPlaceWild(slot=2), "must_choose_displace")
    state, events = play(state, 0, TrashDisplace())
    assert steps(events) == [("placed", 1, "AS", "JH")]
    assert events[0].data["over"] == "wild"
    assert GAME.legal_actions(state, 0) == [TrashPlaceWild(slot=s) for s in (2, 3, 4)]
    state, events = play(state, 0, TrashPlaceWild(slot=2))
    assert steps(events) == [("placed", 2, "JH", "2C")]
    # The 2 taken faces the wild just placed on its slot: the wild may move on again.
    assert GAME.legal_actions(state, 0) == [TrashDisplace(), TrashDiscard()]
    state, events = play(state, 0, TrashDisplace())
    assert steps(events) == [("placed", 2, "2C", "JH")]
    state, events = play(state, 0, TrashPlaceWild(slot=4))
    assert steps(events) == [("placed", 4, "JH", "9S"), ("discarded", "9S", "above_layout"),
                             ("turn_ended", 0, 1)]
    assert shown(state, 0) == "AS* 2C* 3D JH*"


def test_a_wild_may_be_left_in_place() -> None:
    state = table("JH* 2C 3D 9S", "5C 6C 7C 8C", draws="AS JC")
    state, _ = play(state, 0, STOCK)
    state, events = play(state, 0, TrashDiscard())
    assert steps(events) == [("discarded", "AS", "kept_wild"), ("turn_ended", 0, 1)]
    assert shown(state, 0) == "JH* 2C 3D 9S"


def test_a_number_whose_slot_already_shows_it_is_discarded() -> None:
    state = table("AS 2C* 3D 9S", "5C 6C 7C 8C", draws="2H JC")
    state, events = play(state, 0, STOCK)
    assert steps(events)[1:] == [("discarded", "2H", "slot_filled"), ("turn_ended", 0, 1)]


def test_a_wild_with_no_face_down_slot_left_is_discarded() -> None:
    # In play a wild never meets a layout without face-down slots: such a layout is
    # complete, and the round was won the moment its last slot turned face up. So the
    # rule is checked on the step itself, with a wild in hand over a full layout.
    state = table("AS* 2C* 3D* 4S*", "5C 6C 7C 8C", hand="JH")
    step = automatic.begin(state)
    automatic.play_on(step, 0, random.Random(0))
    assert steps(step.events)[:3] == [("discarded", "JH", "layout_complete"),
                                      ("round_won", 0, 3), ("round_dealt",)]
    assert not placeable(state, 0, CARD["JS"])  # nor may it be drawn from the discard


def test_a_wild_taken_as_the_last_slot_turns_up_is_discarded_and_the_round_won() -> None:
    # The 3 fills the last face-down slot and uncovers a jack: no face-down slot is left
    # for it, so the wild is discarded and the round is won at once.
    state = table("AS* JD* JS", "5C 6C 7C 8C", draws="3H JC")
    state, events = play(state, 0, STOCK)
    assert steps(events)[:4] == [("drawn", "stock", "3H"), ("placed", 3, "3H", "JS"),
                                 ("discarded", "JS", "layout_complete"), ("round_won", 0, 2)]
    assert state.round == 2 and state.discard == ()


# --- drawing -----------------------------------------------------------------------------
def test_the_discard_is_taken_only_when_placeable() -> None:
    layouts = ("AS 2C 3D* 4S", "5C 6C 7C 8C")
    for top, can in [("5H", False), ("QH", False), ("3H", False),  # above, face, shown
                     ("2H", True), ("JS", True)]:  # face-down slot, a wild
        state = table(*layouts, discard=f"KC {top}")
        assert (DISCARD in GAME.legal_actions(state, 0)) is can
        assert GAME.view(state, 0)["pending"]["discard"] is can
        if not can:
            assert_rejected(GAME, state, 0, DISCARD, "discard_not_placeable")
    # A number facing a face-up wild is placeable: it may displace the wild.
    state = table("AS JD* 3D* 4S", "5C 6C 7C 8C", discard="2H")
    state, events = play(state, 0, DISCARD)
    assert steps(events) == [("drawn", "discard", "2H")]
    assert state.discard == () and GAME.legal_actions(state, 0) == [TrashDisplace(),
                                                                    TrashDiscard()]


def test_an_empty_stock_is_rebuilt_from_the_discard_but_its_top() -> None:
    state = table("AS 2C 3D 4S", "5C 6C 7C 8C", draws="KD", discard="9C 8H QC JD")
    state, events = play(state, 0, STOCK, seed=5)
    assert steps(events) == [("drawn", "stock", "KD"), ("discarded", "KD", "not_wild"),
                             ("turn_ended", 0, 1), ("stock_reshuffled",)]
    shuffled = events[-1]
    assert shuffled.data == {"seat": 1, "size": 4, "top": "KD"}  # the order stays hidden
    order = shuffled.private[HIDDEN]["stock"]
    assert sorted(order) == sorted(["9C", "8H", "QC", "JD"]) and set(shuffled.private) == {HIDDEN}
    assert state.stock == tuple(CARD[c] for c in order) and state.discard == (CARD["KD"],)
    # The stock's contents are public (they were the discard pile), not its order.
    seen = GAME.view(state, 1)["stock"]
    assert seen == {"size": 4, "cards": ["8H", "9C", "JD", "QC"], "order": None}
    assert GAME.view(state, None, reveal_all=True)["stock"]["order"] == order[::-1][::-1]


def test_stock_empty_and_discard_not_placeable_the_turn_passes() -> None:
    # Seat 1 has no slot 5; seat 2 has, face down: it must take the 5 from the discard.
    state = table("AS 2C 3D 4S 5H*", "6C 7C 8C 9C", "5C 6D 7D 8D 9D", draws="5D", discard="")
    state, events = play(state, 0, STOCK)
    assert steps(events) == [("drawn", "stock", "5D"), ("discarded", "5D", "slot_filled"),
                             ("turn_ended", 0, 1), ("turn_passed", 1, 2)]
    assert state.turn == 2 and GAME.legal_actions(state, 2) == [DISCARD]
    assert_rejected(GAME, state, 2, STOCK, "stock_empty")


def test_a_stalled_round_is_void_and_dealt_again() -> None:
    # Only a king lies outside the layouts: nobody can ever place anything.
    state = table("AS 2C 3D 4S", "5C 6C 7C 8C", draws="KH", discard="", turn=1, slots=(8, 9))
    state, events = play(state, 1, STOCK, seed=2)
    assert steps(events)[:4] == [("drawn", "stock", "KH"), ("discarded", "KH", "not_wild"),
                                 ("turn_ended", 1, 0), ("round_void",)]
    dealt = events[4]
    assert dealt.type == "round_dealt" and dealt.data["round"] == 2
    assert dealt.data["leader"] == 0 and dealt.data["leader_chosen"] == "void_round_leader"
    assert state.slots == (8, 9) and [len(row) for row in state.layout] == [8, 9]


# --- rounds and the game -----------------------------------------------------------------
def test_a_round_is_won_at_once_the_layout_shrinks_and_the_winner_leads() -> None:
    state = table("5C 6C 7C 8C", "AS* 2C 3D* JH*", draws="2D JC", turn=1, slots=(4, 4))
    state, events = play(state, 1, STOCK, seed=4)
    assert steps(events)[:5] == [("drawn", "stock", "2D"), ("placed", 2, "2D", "2C"),
                                 ("discarded", "2C", "layout_complete"),
                                 ("round_won", 1, 3), ("round_dealt",)]
    assert len(events) == 5  # no one gets a last turn
    dealt = events[-1]
    assert dealt.data["leader"] == 1 and dealt.data["leader_chosen"] == "round_winner"
    assert dealt.data["slots"] == [4, 3] and dealt.data["round"] == 2
    assert state.turn == 1 and state.slots == (4, 3) and state.round == 2
    assert [len(row) for row in state.layout] == [4, 3]
    assert GAME.view(state, 0)["rounds_won"] == [6, 7]
    assert GAME.outcome(state) is None


def test_the_game_is_won_holding_a_single_slot() -> None:
    for draw in ("AH", "JH"):  # with an Ace or a wild
        state = table("5C 6C 7C 8C", "KS", draws=f"{draw} JC", turn=1)
        state, events = play(state, 1, STOCK)
        assert steps(events)[-2:] == [("round_won", 1, 0), ("game_ended",)]
        assert events[-1].data == {"reason": "one_slot_won", "slots": [4, 0], "places": [2, 1]}
        assert GAME.to_act(state) == frozenset() and GAME.legal_actions(state, 0) == []
        out = GAME.outcome(state)
        assert out is not None and out.places == [2, 1] and out.scores == [4.0, 0.0]
        assert out.score_name == "slots" and out.lower_is_better
        assert_rejected(GAME, state, 0, STOCK, "game_over")


def test_variant_jqk_queens_and_kings_are_wild() -> None:
    for card in ("QS", "KD"):
        state = table("AS 2C 3D 4S", "5C 6C 7C 8C", draws=f"{card} JC", wild="JQK")
        state, _ = play(state, 0, STOCK)
        assert GAME.legal_actions(state, 0) == [TrashPlaceWild(slot=s) for s in (1, 2, 3, 4)]
    # ...and a face-up queen can be displaced.
    state = table("AS 2C QH* 4S", "5C 6C 7C 8C", draws="3C JC", wild="JQK")
    state, _ = play(state, 0, STOCK)
    assert GAME.legal_actions(state, 0) == [TrashDisplace(), TrashDiscard()]


def test_variant_target_slots() -> None:
    state = table("5C 6C 7C 8C", "AS* 2C*", draws="JD JC", turn=1, target_slots=1)
    state, events = play(state, 1, STOCK)
    assert events[-1].type == "game_ended" and events[-1].data["reason"] == "target_slots"
    assert GAME.outcome(state).places == [2, 1]  # type: ignore[union-attr]
    # Shrinking to a size above the target goes on to the next round.
    state = table("5C 6C 7C 8C", "AS* 2C*", draws="JD JC", turn=1, target_slots=0)
    _, events = play(state, 1, STOCK)
    assert events[-1].type == "round_dealt"


def test_variant_max_rounds_fewest_slots_win_and_ties_share() -> None:
    rows = ("AS 2C 3D 4S 5C 6C 7C 8C 9C", "AS* 2C 3D* 4S* 5C* 6C* 7C* 8C* 9C*", "AD 2D")
    state = table(*rows, draws="2D JC", turn=1, max_rounds=3, round=3, slots=(9, 10, 8))
    state, events = play(state, 1, STOCK)
    assert steps(events)[-2:] == [("round_won", 1, 9), ("game_ended",)]
    assert events[-1].data["reason"] == "max_rounds"
    out = GAME.outcome(state)
    assert out is not None and out.places == [2, 2, 1] and out.scores == [9.0, 9.0, 8.0]
    # Before the last round the game goes on.
    state = table(*rows, draws="2D JC", turn=1, max_rounds=3, round=2, slots=(9, 10, 8))
    _, events = play(state, 1, STOCK)
    assert events[-1].type == "round_dealt"


def test_tied_places_are_shared_and_the_next_ones_skipped() -> None:
    rows = ("AS 2C 3D", "AS 2C 3D", "AS* 2C* 3D*", "AS")
    state = table(*rows, max_rounds=1, round=1, slots=(5, 5, 3, 7), turn=2)
    state = msgspec.structs.replace(state, ended="max_rounds")
    out = GAME.outcome(state)
    assert out is not None and out.places == [2, 2, 1, 4]
    # A tie for first: both share the first place, the next player is third.
    state = msgspec.structs.replace(state, slots=(3, 3, 5, 7))
    assert GAME.outcome(state).places == [1, 1, 3, 4]  # type: ignore[union-attr]
    # The game_ended event says the same.
    rows = ("AS 2C 3D", "AS* 2C 3D*", "AS 2C")
    state = table(*rows, draws="2D JC", turn=1, max_rounds=3, round=3, slots=(3, 4, 2))
    _, events = play(state, 1, STOCK)
    assert steps(events)[-2:] == [("round_won", 1, 3), ("game_ended",)]
    assert events[-1].data["places"] == [2, 2, 1]


# --- errors ------------------------------------------------------------------------------
def test_errors_have_stable_codes() -> None:
    state = table("AS 2C 3D 4S", "5C 6C 7C 8C")
    assert_rejected(GAME, state, 1, STOCK, "not_your_turn")
    assert_rejected(GAME, state, 0, TrashDisplace(), "must_draw_first")
    assert_rejected(GAME, state, 0, TrashPlaceWild(slot=1), "must_draw_first")
    assert_rejected(GAME, state, 0, TrashDraw(source="sky"), "bad_action")  # type: ignore[arg-type]
    assert_rejected(GAME, state, 0, "draw", "bad_action")
    fresh = GAME.new_state({}, 2)
    assert_rejected(GAME, fresh, 0, STOCK, "game_not_started")
    assert GAME.to_act(fresh) == frozenset() and GAME.legal_actions(fresh, 0) == []
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"type": "draw", "source": "sky"}, GAME.action_type)
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"type": "place_wild"}, GAME.action_type)


def test_actions_on_the_wire() -> None:
    for action, wire in [(STOCK, {"type": "draw", "source": "stock"}),
                         (TrashPlaceWild(slot=3), {"type": "place_wild", "slot": 3}),
                         (TrashDisplace(), {"type": "displace"}),
                         (TrashDiscard(), {"type": "discard"})]:
        assert msgspec.to_builtins(action) == wire
        assert msgspec.convert(wire, GAME.action_type) == action
    assert all(cls.__name__.startswith("Trash") for cls in GAME.action_type.__args__)


# --- the view ----------------------------------------------------------------------------
def test_view_shows_face_up_cards_only() -> None:
    state = table("AS* JD* 3D 4S", "5C 6C 7C 8C", discard="KC 9H", draws="2H 3H")
    seen = GAME.view(state, 1)
    json.dumps(seen)
    assert seen["layouts"][0] == [
        {"slot": 1, "face_up": True, "card": "AS"}, {"slot": 2, "face_up": True, "card": "JD"},
        {"slot": 3, "face_up": False, "card": None}, {"slot": 4, "face_up": False, "card": None}]
    assert seen["discard"] == ["KC", "9H"] and seen["stock"] == {"size": 2, "cards": None,
                                                                 "order": None}
    assert seen["turn"] == 0 and seen["phase"] == "draw" and seen["hand"] is None
    assert seen["slots"] == [4, 4] and seen["rounds_won"] == [6, 6]
    assert seen["pending"] == {"choice": "draw", "stock": True, "discard": False}
    # Its owner sees no more than anyone.
    assert GAME.view(state, 0) == {**seen, "viewer": 0}
    assert GAME.view(state, None) == {**seen, "viewer": None}
    everything = GAME.view(state, None, reveal_all=True)
    assert everything["layouts"][0][2] == {"slot": 3, "face_up": False, "card": "3D"}
    assert everything["stock"]["order"] == ["3H", "2H"]


# --- random playouts ---------------------------------------------------------------------
def full_deck(state: TrashState) -> Counter[int]:
    return Counter({card: state.decks for card in range(DECK_SIZE)})


def cards_in_play(state: TrashState) -> Counter[int]:
    where = Counter(c for row in state.layout for c in row)
    where.update(state.stock)
    where.update(state.discard)
    if state.hand != NO_CARD:
        where[state.hand] += 1
    return where


def hide_again(state: TrashState, rng: random.Random) -> TrashState:
    """The same table with the unseen cards dealt anew: a view must not tell them apart."""
    down = [(s, i) for s, ups in enumerate(state.face_up) for i, up in enumerate(ups) if not up]
    pool = [state.layout[s][i] for s, i in down]
    if not state.stock_known:
        pool += state.stock
    rng.shuffle(pool)
    layout = [list(row) for row in state.layout]
    for s, i in down:
        layout[s][i] = pool.pop()
    stock = list(state.stock)
    if state.stock_known:
        rng.shuffle(stock)
    else:
        stock, pool = pool, []
    return msgspec.structs.replace(state, layout=tuple(map(tuple, layout)), stock=tuple(stock))


EVERY_ACTION: tuple[Any, ...] = (STOCK, DISCARD, TrashDisplace(), TrashDiscard(),
                                 *(TrashPlaceWild(slot=s) for s in range(0, 12)))


def check_actions(state: TrashState, rng: random.Random) -> None:
    """Every legal action is accepted; every other action of any seat is refused with a
    stable code and changes nothing."""
    legal = GAME.legal_actions(state, state.turn)
    for action in legal:
        GAME.decide(state, state.turn, action, rng)
    for action in rng.sample(EVERY_ACTION, 3):
        seat = rng.randrange(state.players)
        if seat == state.turn and action in legal:
            continue
        with pytest.raises(GameRuleError) as err:
            GAME.decide(state, seat, action, rng)
        assert err.value.code != GameRuleError.code  # a specific code, not the catch-all


def check_step(state: TrashState, log: list[Event], rng: random.Random) -> None:
    # Cards are conserved: each card in exactly one place.
    assert cards_in_play(state) == full_deck(state)
    if state.ended:
        return
    check_actions(state, rng)
    # No seat's view (nor a spectator's) tells anything about the unseen cards...
    other = hide_again(state, rng)
    for viewer in [*range(state.players), None]:
        seen = GAME.view(state, viewer)
        assert GAME.view(other, viewer) == seen
        for row in seen["layouts"]:
            assert all(slot["card"] is None for slot in row if not slot["face_up"])
    # ...nor does the log: no seat receives the hidden part, and in a one-deck game no
    # event of this round names a card that is face down now.
    assert all(set(ev.private) <= {HIDDEN} for ev in log)
    if state.decks == 1:
        down = {f'"{CODES[c]}"' for row, ups in zip(state.layout, state.face_up, strict=True)
                for c, up in zip(row, ups, strict=True) if not up}
        since = max(i for i, ev in enumerate(log) if ev.type == "round_dealt")
        for ev in log[since:]:
            text = json.dumps(redact(ev, state.turn))
            assert not any(code in text for code in down)


def check_determinize(state: TrashState, rng: random.Random) -> None:
    seat = state.turn
    seen = GAME.view(state, seat)
    sample = GAME.determinize(seen, seat, rng)
    assert GAME.view(sample, seat) == seen
    assert cards_in_play(sample) == full_deck(sample)
    assert GAME.legal_actions(sample, seat) == GAME.legal_actions(state, seat)
    # The sample plays on legally to the end.
    for _ in range(5000):
        if GAME.outcome(sample) is not None:
            return
        (actor,) = GAME.to_act(sample)
        action = rng.choice(GAME.legal_actions(sample, actor))
        sample, _ = apply(GAME, sample, actor, action, rng)
    raise AssertionError("the determinized game did not end")


options_strategy = st.fixed_dictionaries({}, optional={
    "wild": st.sampled_from(["J", "JQK"]),
    "target_slots": st.integers(0, 9),
    "max_rounds": st.one_of(st.none(), st.integers(1, 4)),
    "decks": st.one_of(st.none(), st.integers(1, 3)),
})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), options=options_strategy)
def test_random_playouts(seed: int, players: int, options: dict[str, Any]) -> None:
    if options.get("decks") == 1 and players >= 5:
        options = {**options, "decks": 2}  # one deck serves four players at most
    if not options.get("max_rounds") and options.get("target_slots", 0) in (0, 1, 2):
        options = {**options, "max_rounds": 3}  # keep each example short
    rng = random.Random(seed)
    state, log = random_playout(GAME, players, options, seed=seed, check_every=25,
                                on_step=lambda s, log: check_step(s, log, rng))
    out = GAME.outcome(state)
    assert out is not None and out.scores == [float(n) for n in state.slots]
    # The stored log (JSON) replays to the same state.
    replayed = GAME.new_state(options, players)
    for ev in log:
        replayed = GAME.evolve(replayed, decode(encode(ev)))
    assert replayed == state


def named_cards(data: Any) -> list[str]:
    """Every card code an event's public data names, wherever it sits."""
    if isinstance(data, str):
        return [data] if data in CARD else []
    if isinstance(data, dict):
        return [code for value in data.values() for code in named_cards(value)]
    if isinstance(data, list):
        return [code for value in data for code in named_cards(value)]
    return []


def public_cards(state: TrashState) -> Counter[str]:
    """The cards anyone may see: face-up slots, the discard pile, the card in hand."""
    seen = Counter(CODES[c] for row, ups in zip(state.layout, state.face_up, strict=True)
                   for c, up in zip(row, ups, strict=True) if up)
    seen.update(codes_of(state.discard))
    if state.hand != NO_CARD:
        seen[CODES[state.hand]] += 1
    return seen


def codes_of(cards: tuple[int, ...]) -> list[str]:
    return [CODES[c] for c in cards]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), wild=st.sampled_from(["J", "JQK"]))
def test_no_event_shows_a_card_before_it_is_turned_up(seed: int, players: int,
                                                       wild: str) -> None:
    options = {"max_rounds": 2, "wild": wild}
    _, log = random_playout(GAME, players, options, seed=seed, check_every=10**9)
    replayed = GAME.new_state(options, players)
    viewers = [*range(players), None]
    for ev in log:
        replayed = GAME.evolve(replayed, ev)
        # A card an event names in public is face up, in hand or discarded once it applies:
        # the stock's cards and the face-down ones are never named before they turn up.
        for code in named_cards(ev.data):
            assert public_cards(replayed)[code] > 0, (ev.type, code)
        # No seat receives a private part, the owner of the layout included: the deal
        # and the stock orders sit in the part kept for the end.
        assert set(ev.private) <= {HIDDEN}
        for viewer in viewers:
            assert redact(ev, viewer)["private"] == {}
            assert redact(ev, viewer)["data"] == ev.data
    # After the end the log may reveal everything: every deal is shown.
    deals = [ev for ev in log if ev.type == "round_dealt"]
    for viewer in viewers:
        for ev in deals:
            shown_all = redact(ev, viewer, reveal_all=True)["private"]
            assert shown_all[str(HIDDEN)]["layouts"] == ev.private[HIDDEN]["layouts"]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6))
def test_determinized_states_play_on(seed: int, players: int) -> None:
    rng = random.Random(seed)
    samples: list[TrashState] = []

    def keep(state: TrashState, log: list[Event]) -> None:
        if not state.ended and rng.random() < 0.05:
            samples.append(state)

    random_playout(GAME, players, {"max_rounds": 2}, seed=seed, check_every=10**9, on_step=keep)
    for state in samples[:4]:
        check_determinize(state, rng)


def test_determinize_after_a_reshuffle_keeps_the_stock_apart() -> None:
    # One deck for four players: the stock runs out early in a round.
    rng = random.Random(7)
    state, log = start(GAME, 4, {"decks": 1}, seed=7)
    while log[-1].type != "stock_reshuffled":
        (seat,) = GAME.to_act(state)
        state, new = apply(GAME, state, seat, rng.choice(GAME.legal_actions(state, seat)), rng)
        log.extend(new)
    seen = GAME.view(state, state.turn)
    assert sorted(seen["stock"]["cards"]) == sorted(CODES[c] for c in state.stock)
    for seed in range(10):
        sample = GAME.determinize(seen, state.turn, random.Random(seed))
        assert sorted(sample.stock) == sorted(state.stock) and sample.stock_known
        assert GAME.view(sample, state.turn) == seen
    check_determinize(state, rng)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_standard_games_end(players: int) -> None:
    began = time.perf_counter()
    state, _ = random_playout(GAME, players, {}, seed=players, check_every=500)
    assert GAME.outcome(state) is not None and state.ended == "one_slot_won"
    assert min(state.slots) == 0 and time.perf_counter() - began < 10


@pytest.mark.parametrize(("players", "decks"), [(4, 1), (5, 2), (6, 2)])
def test_with_the_fewest_decks_allowed_rounds_are_not_void(players: int, decks: int) -> None:
    # One deck for five players left 2 cards outside the layouts: rounds ended void again
    # and again (about 140 times a game). One deck per four players is the least allowed.
    assert GAME.new_state({"decks": decks}, players).decks == decks
    for seed in range(3):
        state, log = random_playout(GAME, players, {"decks": decks}, seed=seed,
                                    check_every=10**9, max_steps=3000)
        assert state.ended == "one_slot_won"
        assert not [ev for ev in log if ev.type == "round_void"]


# --- bots ----------------------------------------------------------------------------------
def basic_choice(state: TrashState) -> Any:
    return trash_basic.basic(GAME, observe(GAME, state, state.turn), random.Random(0))


def test_basic_takes_the_discard_when_it_may() -> None:
    state = table("AS 2C 3D 4S", "5C 6C 7C 8C", discard="KC 2H")
    assert GAME.legal_actions(state, 0) == [STOCK, DISCARD]
    assert basic_choice(state) == DISCARD
    # A number facing a face-up wild may be taken too, and the wild displaced.
    state = table("AS JD* 3D 4S", "5C 6C 7C 8C", discard="2H")
    assert basic_choice(state) == DISCARD
    state, _ = play(state, 0, DISCARD)
    assert basic_choice(state) == TrashDisplace()


def test_basic_puts_a_wild_where_its_number_is_least_likely_to_come() -> None:
    # Three 3s are gone (face up, discarded): slot 3 is the one to cover.
    state = table("AS 2C 3D 4S", "5C 6C 3C* 8C", discard="3H 3S", draws="JH KD")
    state, _ = play(state, 0, STOCK)
    assert basic_choice(state) == TrashPlaceWild(slot=3)
    # With nothing gone every slot is as good; the choice is fixed: the highest.
    state = table("AS 2C 3D 4S", "5C 6C 7C 8C", draws="JH KD")
    state, _ = play(state, 0, STOCK)
    assert basic_choice(state) == TrashPlaceWild(slot=4)


def test_the_rollout_policy_reads_what_the_seat_sees_and_agrees_with_basic() -> None:
    rng = random.Random(3)
    checked = 0

    def check(state: TrashState, log: list[Event]) -> None:
        nonlocal checked
        if state.ended or len(GAME.legal_actions(state, state.turn)) < 2:
            return
        seat, legal = state.turn, GAME.legal_actions(state, state.turn)
        chosen = trash_basic.policy(GAME, state, seat, legal, rng)
        # The same table with other face-down cards and stock: the same choice.
        assert trash_basic.policy(GAME, hide_again(state, rng), seat, legal, rng) == chosen
        assert basic_choice(state) == chosen
        checked += 1

    for seed in range(4):
        random_playout(GAME, 3, {"max_rounds": 2, "decks": 1}, seed=seed,
                       check_every=10**9, on_step=check)
    assert checked > 50


def test_the_search_horizon_is_the_end_of_the_seat_s_turn() -> None:
    root = table("AS 3C 2D 4S 5S", "5C 6C 7C 8C 9C", draws="2H KD")
    assert not trash_basic.horizon(root, root)
    after, _ = play(root, 0, STOCK)  # 2H on slot 2, 3C on slot 3, 2D is discarded
    assert shown(after, 0) == "AS 2H* 3C* 4S 5S" and after.turn == 1
    assert trash_basic.horizon(root, after)
    # Cut short: half the share of face-down slots turned up; a round won counts 1.
    assert trash_basic.evaluate(GAME, root, after, 0) == 0.5 * 2 / 5
    root = table("AS* 2C* 3D", "5C 6C 7C", draws="JH KD")
    won, _ = play(root, 0, STOCK)
    assert won.round == 2 and trash_basic.horizon(root, won)
    assert trash_basic.evaluate(GAME, root, won, 0) == 1.0
    assert trash_basic.evaluate(GAME, root, won, 1) == 0.0


def test_strong_takes_the_sure_card_and_displaces() -> None:
    budget = Budget(seconds=None, iterations=300)
    strong = make_bot("strong", budget)
    state = table("AS 2C 3D 4S 5H 6H", "5C 6C 7C 8C 9C 10C", discard="KC 2H",
                  draws="KS KH QS", whole_deck=True)
    assert strong(GAME, observe(GAME, state, 0), random.Random(1)) == DISCARD
    state = table("AS JD* 3D 4S 5H 6H", "5C 6C 7C 8C 9C 10C", draws="2H KH QS",
                  whole_deck=True)
    state, _ = play(state, 0, STOCK)
    assert strong(GAME, observe(GAME, state, 0), random.Random(1)) == TrashDisplace()


@pytest.mark.parametrize("levels", [("strong", "basic", "random"), ("basic", "random")])
def test_every_level_plays_whole_games(levels: tuple[str, ...]) -> None:
    for number in range(2):
        state, moves = bot_playout(GAME, levels, {"target_slots": 9}, seed=5 + number,
                                   budget=Budget(seconds=None, iterations=40))
        assert sorted(GAME.outcome(state).places)[0] == 1 and moves > 0
