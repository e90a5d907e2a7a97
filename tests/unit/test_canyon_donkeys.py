"""The Grand Canyon donkey-loading game: one scripted round for each rule of
`rules/canyon-donkeys.md` (every donkey type, every favour, the end), the hidden
information, then random games checked as properties.

Scenarios start from an explicit donkey deck (`deck()`: the donkeys given first, normal
donkeys after) with seat 0 holding the first-player card, so with three players a normal
donkey carries 15. `load(state, 3, 4, 5)` loads card 3 for seat 0, 4 for seat 1, ...
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.bots import canyon_basic, observe
from domain.bots.search_terms import Budget
from domain.errors import BadOptions
from domain.events import Event
from domain.game import resolve_options
from domain.games.canyon_donkeys import GAME, CanyonState
from domain.games.canyon_donkeys import donkeys as dk
from domain.games.canyon_donkeys import favours as fv
from domain.games.canyon_donkeys.actions import (
    CanyonAdjust,
    CanyonContract,
    CanyonExchange,
    CanyonFavour,
    CanyonKeep,
    CanyonLoad,
    CanyonLook,
    CanyonNoFavour,
    CanyonStopLooking,
    CanyonSwap,
    CanyonTake,
)
from domain.games.canyon_donkeys.state import CARD_VALUES
from domain.games.common import HIDDEN
from domain.redaction import redact
from tests.gamekit import apply, assert_rejected, bot_playout, random_playout, start
from tests.support.games import installed_games

ACCEPT, REFUSE = True, False
KEEP = CanyonKeep()
NO_FAVOUR = CanyonNoFavour()


def deck(*donkeys: str) -> list[str]:
    """An explicit donkey deck: `donkeys` on top, normal donkeys after, 8 in all."""
    return [*donkeys, *[dk.NORMAL] * (dk.DECK_SIZE - len(donkeys))]


def begin(*donkeys: str, players: int = 3, first: int = 0,
          full_deck: list[str] | None = None) -> tuple[CanyonState, list[Event]]:
    return start(GAME, players, {"donkey_deck": full_deck or deck(*donkeys),
                                 "first_player": first})


def play(state: CanyonState, seat: int, action: Any,
         seed: int = 0) -> tuple[CanyonState, list[Event]]:
    return apply(GAME, state, seat, action, random.Random(seed))


def load(state: CanyonState, *cards: int | tuple[int, ...],
         seed: int = 0) -> tuple[CanyonState, list[Event]]:
    """Every seat loads: `cards[seat]` is its card (or cards); seats act when asked."""
    log: list[Event] = []
    round_ = state.round
    while state.phase == "load" and state.round == round_:
        seat = min(GAME.to_act(state))
        mine = cards[seat]
        state, new = play(state, seat, CanyonLoad(cards=mine if isinstance(mine, tuple)
                                                  else (mine,)), seed)
        log += new
    return state, log


def favours(state: CanyonState, called: dict[int, int] | None = None,
            seed: int = 0) -> tuple[CanyonState, list[Event]]:
    """The favour step: the seats in `called` call that favour, the others call none."""
    called = called or {}
    log: list[Event] = []
    while state.phase == "favours":
        (seat,) = GAME.to_act(state)
        action = CanyonFavour(card=called[seat]) if seat in called else NO_FAVOUR
        state, new = play(state, seat, action, seed)
        log += new
    return state, log


def contracts(state: CanyonState, *accepts: bool,
              seed: int = 0) -> tuple[CanyonState, list[Event]]:
    """The contract step: seat i accepts when `accepts[i]`; returns who decided in order."""
    log: list[Event] = []
    while state.phase == "contract":
        (seat,) = GAME.to_act(state)
        state, new = play(state, seat, CanyonContract(accept=accepts[seat]), seed)
        log += new
    return state, log


def round_of(state: CanyonState, cards: tuple[Any, ...], accepts: tuple[bool, ...],
             called: dict[int, int] | None = None,
             seed: int = 0) -> tuple[CanyonState, list[Event]]:
    """A whole round without looks or late favours."""
    state, a = load(state, *cards, seed=seed)
    state, b = favours(state, called, seed=seed)
    state, c = contracts(state, *accepts, seed=seed)
    return state, a + b + c


def quiet_round(state: CanyonState) -> CanyonState:
    """A round of a normal donkey where nobody scores: everyone loads their highest card,
    calls no favour, and everyone is wrong (accepts an overloaded donkey, or refuses)."""
    cards = tuple(max(hand) for hand in state.hands)
    overloaded = sum(cards) > state.limit
    state, _ = round_of(state, cards, (overloaded,) * state.players)
    return state


def only(events: list[Event], kind: str) -> Event:
    (found,) = [ev for ev in events if ev.type == kind]
    return found


def kinds(events: list[Event]) -> list[str]:
    return [ev.type for ev in events]


def won(state: CanyonState) -> list[list[tuple[int, int]]]:
    return [sorted(pile) for pile in state.won]


def visible_to(ev: Event, viewer: int | None) -> str:
    return json.dumps(redact(ev, viewer))


# ---------------------------------------------------------------------------------------
# Options, setup and the rules list
# ---------------------------------------------------------------------------------------

def test_registered_for_three_to_seven_players() -> None:
    assert installed_games().game("canyon-donkeys") is GAME
    assert (GAME.min_players, GAME.max_players) == (3, 7)


def test_the_default_donkey_deck_is_the_specs_composition_of_twenty() -> None:
    opts = resolve_options(GAME.options, {}, 4)
    assert opts["donkey_deck"] == {
        "normal": 4, "giant": 2, "puny": 2, "precision": 2, "holed": 2, "attacked": 2,
        "hurried": 1, "lost": 1, "double": 1, "stubborn": 1, "difficult": 1, "picky": 1}
    assert sum(opts["donkey_deck"].values()) == 20
    # Eight of the twenty are drawn; the draw varies with the game's seed.
    decks = set()
    for seed in range(10):
        _, events = start(GAME, 4, {}, seed)
        drawn = only(events, "donkeys_drawn").private[HIDDEN]["deck"]
        assert len(drawn) == 8
        assert not Counter(drawn) - Counter(dk.composition_deck(dk.DEFAULT_COMPOSITION))
        decks.add(tuple(drawn))
    assert len(decks) == 10


def test_an_explicit_deck_is_played_in_order_and_a_composition_is_drawn_from() -> None:
    order = ["giant", "puny", "precision", "hurried", "holed", "attacked", "picky", "normal"]
    state, events = start(GAME, 3, {"donkey_deck": order, "first_player": 0})
    assert only(events, "donkey_revealed").data["donkey"] == "giant"
    assert state.deck == tuple(order[1:])
    state, _ = start(GAME, 3, {"donkey_deck": {"picky": 8}}, seed=3)
    assert state.donkey == "picky" and set(state.deck) == {"picky"}


@pytest.mark.parametrize("bad", [
    ["normal"] * 7, ["normal"] * 7 + ["unicorn"], {"normal": 7}, {"unicorn": 9},
    {"normal": -1, "giant": 9}, {"normal": True, "giant": 8}, "normal", 8,
])
def test_bad_donkey_decks_are_refused(bad: Any) -> None:
    with pytest.raises(BadOptions) as err:
        GAME.new_state(resolve_options(GAME.options, {"donkey_deck": bad}, 3), 3)
    assert err.value.code == "bad_donkey_deck"


def test_the_first_player_is_random_and_recorded() -> None:
    firsts = set()
    for seed in range(20):
        state, events = start(GAME, 4, {}, seed)
        drawn = only(events, "donkeys_drawn")
        assert drawn.data["first_player"] == state.first
        firsts.add(state.first)
    assert firsts == {0, 1, 2, 3}


def test_the_rules_carry_the_specs_decision_and_assumption_lines() -> None:
    rules = " ".join(GAME.rules)
    for line in (
        "the 10 load cards of a colour are valued 1–10 (70 cards / 7 colours; favours sit "
        "on 2, 4, 6, 8, 10; capacity is 5 × players)",
        "normal ×4, giant ×2, puny ×2, precision ×2, holed ×2, attacked ×2, and one each of "
        "hurried, lost, double, stubborn, difficult, picky",
        "at most one favour per player per round",
        "are removed before the total is computed and are not in the refusers' pile",
    ):
        assert line in rules
    assert all(r.startswith(("Decision", "Assumption")) for r in GAME.rules)


def test_each_player_starts_with_ten_load_cards_valued_one_to_ten() -> None:
    state, _ = begin(players=5)
    assert state.hands == (CARD_VALUES,) * 5
    assert state.phase == "load" and GAME.to_act(state) == {0, 1, 2, 3, 4}


# ---------------------------------------------------------------------------------------
# A normal round: load, favours, contract, reveal, score, the first-player card
# ---------------------------------------------------------------------------------------

def test_not_overloaded_every_accepter_wins_their_own_card() -> None:
    state, events = begin()
    revealed = only(events, "donkey_revealed")
    assert revealed.data == {"round": 1, "donkey": "normal", "effect": "normal", "left": 7,
                             "capacity": 15}
    state, _ = load(state, 3, 4, 5)
    assert state.phase == "favours" and GAME.to_act(state) == {0}
    state, log = round_of(state, (), (ACCEPT, ACCEPT, REFUSE))
    assert only(log, "loads_revealed").data["total"] == 12
    assert only(log, "loads_revealed").data["overloaded"] is False
    assert only(log, "round_scored").data["won"] == [[0, [0, 3]], [1, [1, 4]]]
    assert won(state) == [[(0, 3)], [(1, 4)], []]
    assert state.discard == ((2, 5),)
    # 5. The first-player card passes clockwise; the next donkey comes up.
    assert only(log, "round_ended").data["first_player"] == 1
    assert state.first == 1 and state.round == 2 and state.phase == "load"


def test_a_total_equal_to_the_capacity_is_not_overloaded() -> None:
    state, _ = begin()
    state, log = round_of(state, (5, 5, 5), (ACCEPT, ACCEPT, ACCEPT))
    assert only(log, "loads_revealed").data["overloaded"] is False
    assert won(state) == [[(0, 5)], [(1, 5)], [(2, 5)]]


def test_overloaded_each_refuser_clockwise_wins_one_card_at_random() -> None:
    drawn = set()
    for seed in range(12):
        state, _ = begin(first=1)
        state, log = round_of(state, (9, 8, 7), (REFUSE, ACCEPT, REFUSE), seed=seed)
        assert only(log, "loads_revealed").data["overloaded"] is True
        scored = only(log, "round_scored").data
        # Clockwise from the first player (seat 1): seat 2 draws, then seat 0.
        assert [seat for seat, _ in scored["won"]] == [2, 0]
        pile = {(0, 9), (1, 8), (2, 7)}
        taken = {tuple(card) for _, card in scored["won"]}
        assert taken < pile and state.won[1] == ()
        assert set(state.discard) == pile - taken
        drawn.add(tuple(scored["won"][0][1]))
    assert len(drawn) == 3  # the draw is random


def test_refusers_win_nothing_when_the_donkey_is_not_overloaded() -> None:
    state, _ = begin()
    state, _ = round_of(state, (1, 2, 3), (REFUSE, REFUSE, REFUSE))
    assert won(state) == [[], [], []]
    assert sorted(state.discard) == [(0, 1), (1, 2), (2, 3)]


def test_a_card_is_loaded_from_the_hand_once() -> None:
    state, _ = begin()
    assert_rejected(GAME, state, 0, CanyonLoad(cards=(11,)), "not_in_hand")
    assert_rejected(GAME, state, 0, CanyonLoad(cards=(3, 4)), "wrong_count")
    assert_rejected(GAME, state, 0, CanyonContract(accept=True), "wrong_phase")
    state, _ = play(state, 0, CanyonLoad(cards=(3,)))
    assert 3 not in state.hands[0]
    assert_rejected(GAME, state, 0, CanyonLoad(cards=(4,)), "not_your_turn")


# ---------------------------------------------------------------------------------------
# The twelve donkeys
# ---------------------------------------------------------------------------------------

def test_giant_carries_six_times_the_players() -> None:
    state, events = begin("giant")
    assert only(events, "donkey_revealed").data["capacity"] == 18
    state, log = round_of(state, (7, 6, 5), (ACCEPT, ACCEPT, ACCEPT))
    assert only(log, "loads_revealed").data["overloaded"] is False
    assert won(state) == [[(0, 7)], [(1, 6)], [(2, 5)]]


def test_puny_carries_four_times_the_players() -> None:
    state, events = begin("puny")
    assert only(events, "donkey_revealed").data["capacity"] == 12
    state, log = round_of(state, (5, 4, 4), (ACCEPT, ACCEPT, REFUSE))
    assert only(log, "loads_revealed").data["overloaded"] is True
    assert len(state.won[2]) == 1 and state.won[0] == state.won[1] == ()


@pytest.mark.parametrize(("cards", "overloaded"), [((1, 7, 4), True), ((2, 7, 5), False),
                                                    ((10, 9, 10), False)])
def test_precision_is_overloaded_when_highest_minus_lowest_exceeds_five(
        cards: tuple[int, ...], overloaded: bool) -> None:
    state, events = begin("precision")
    assert only(events, "donkey_revealed").data == {
        "round": 1, "donkey": "precision", "effect": "precision", "left": 7, "gap": 5}
    state, log = round_of(state, cards, (ACCEPT, ACCEPT, REFUSE))
    assert only(log, "loads_revealed").data["overloaded"] is overloaded


def test_hurried_allows_no_favours() -> None:
    state, _ = begin("hurried")
    state, _ = load(state, 2, 4, 6)
    assert state.phase == "contract" and GAME.to_act(state) == {0}
    assert not any(isinstance(a, CanyonFavour | CanyonNoFavour)
                   for a in GAME.legal_actions(state, 0))
    assert_rejected(GAME, state, 0, CanyonFavour(card=4), "no_favours_this_round")
    # The next donkey allows favours again.
    state, _ = contracts(state, ACCEPT, ACCEPT, ACCEPT)
    state, _ = load(state, 1, 1, 1)
    assert state.phase == "favours"


def test_holed_lets_each_player_look_at_one_other_players_card_alone() -> None:
    state, _ = begin("holed")
    state, _ = load(state, 3, 8, 6)
    state, _ = favours(state)
    assert state.phase == "looks" and GAME.to_act(state) == {0, 1, 2}
    assert GAME.legal_actions(state, 0) == [CanyonLook(seat=1), CanyonLook(seat=2),
                                            CanyonStopLooking()]
    assert_rejected(GAME, state, 0, CanyonLook(seat=0), "bad_look")
    state, log = play(state, 0, CanyonLook(seat=1))
    looked = only(log, "card_looked")
    assert looked.data == {"seat": 0, "target": 1, "slot": 0}
    assert looked.private == {0: {"value": 8}}
    for other in (1, 2, None):
        assert redact(looked, other)["private"] == {}
    assert GAME.view(state, 0)["you"]["looks"] == [[1, 0, 8]]
    assert GAME.view(state, 2)["seats"][1]["load"] == [None]
    assert GAME.view(state, 2)["seats"][0]["looked"] == [[1, 0]]
    assert GAME.to_act(state) == {1, 2}  # one look each
    state, _ = play(state, 2, CanyonLook(seat=0))
    state, _ = play(state, 1, CanyonLook(seat=2))
    assert state.phase == "contract" and GAME.to_act(state) == {0}


def test_a_look_is_optional() -> None:
    # "each player may look": whoever stops looking sees nothing and the round goes on.
    state, _ = begin("holed")
    state, _ = load(state, 3, 8, 6)
    state, _ = favours(state)
    state, log = play(state, 0, CanyonStopLooking())
    declined = only(log, "looks_declined")
    assert declined.data == {"seat": 0} and declined.private == {}
    assert GAME.to_act(state) == {1, 2} and GAME.legal_actions(state, 0) == []
    assert GAME.view(state, 0)["you"]["looks"] == []
    state, _ = play(state, 1, CanyonStopLooking())
    state, _ = play(state, 2, CanyonLook(seat=1))
    assert state.phase == "contract"
    assert GAME.view(state, 2)["you"]["looks"] == [[1, 0, 8]]


def test_attacked_removes_the_highest_cards_and_their_players_score_nothing() -> None:
    state, _ = begin("attacked")
    state, log = round_of(state, (9, 9, 3), (ACCEPT, REFUSE, ACCEPT))
    revealed = only(log, "loads_revealed").data
    assert revealed["removed"] == [[0, 9], [1, 9]] and revealed["excluded"] == [0, 1]
    assert revealed["total"] == 3 and revealed["overloaded"] is False
    assert won(state) == [[], [], [(2, 3)]]


def test_attacked_overloaded_the_highest_card_is_not_in_the_refusers_pile() -> None:
    for seed in range(8):
        state, _ = begin("attacked", players=4)  # capacity 20
        state, log = round_of(state, (10, 8, 7, 6), (REFUSE, REFUSE, ACCEPT, ACCEPT),
                              seed=seed)
        revealed = only(log, "loads_revealed").data
        assert revealed["total"] == 21 and revealed["overloaded"] is True
        # Seat 0 played the 10: removed before the total, and seat 0 scores nothing.
        assert state.won[0] == () and len(state.won[1]) == 1
        assert state.won[1][0] in {(1, 8), (2, 7), (3, 6)}


def test_picky_removes_every_card_whose_value_appears_more_than_once() -> None:
    state, _ = begin("picky")
    state, log = round_of(state, (5, 5, 3), (ACCEPT, ACCEPT, ACCEPT))
    revealed = only(log, "loads_revealed").data
    assert revealed["removed"] == [[0, 5], [1, 5]] and revealed["total"] == 3
    assert won(state) == [[], [], [(2, 3)]]


def test_picky_a_refuser_whose_card_was_removed_still_draws() -> None:
    for seed in range(8):
        state, _ = begin("picky", players=5)  # capacity 25
        state, log = round_of(state, (10, 9, 8, 2, 2), (REFUSE, ACCEPT, ACCEPT, REFUSE, ACCEPT),
                              seed=seed)
        revealed = only(log, "loads_revealed").data
        assert revealed["removed"] == [[3, 2], [4, 2]] and revealed["overloaded"] is True
        pile = {(0, 10), (1, 9), (2, 8)}
        assert len(state.won[0]) == 1 and len(state.won[3]) == 1
        assert {state.won[0][0], state.won[3][0]} < pile


def test_lost_sets_the_loads_aside_and_resumes_them_after_every_other_donkey() -> None:
    state, _ = begin("lost")
    state, log = load(state, 7, 2, 9)
    # The loads go under the lost donkey, face down; the card passes; the next donkey.
    assert kinds(log)[3:] == ["loads_set_aside", "round_ended", "donkey_revealed"]
    for ev in log[3:]:
        assert "7" not in json.dumps(ev.data) and "9" not in json.dumps(ev.data)
    assert state.first == 1 and state.round == 2 and state.donkey == "normal"
    assert state.set_aside == ((((0, 7),), ((1, 2),), ((2, 9),)),)
    assert GAME.view(state, 1)["set_aside"] == [[1, 1, 1]]
    assert GAME.view(state, 1)["you"]["set_aside"] == [[2]]
    for _ in range(7):
        state = quiet_round(state)
    # After the eighth donkey, the lost round resumes from step 2 at capacity 5 × players,
    # led by whoever holds the first-player card then (it passed 8 times: seat 2).
    assert state.round == 9 and state.donkey == "lost" and state.effect == "normal"
    assert state.limit == 15 and state.first == 2 and state.phase == "favours"
    assert state.loads == (((0, 7),), ((1, 2),), ((2, 9),)) and state.set_aside == ()
    assert GAME.view(state, None)["donkey"]["resumed"] is True
    state, log = favours(state)
    state, log = contracts(state, ACCEPT, ACCEPT, REFUSE)
    assert only(log, "loads_revealed").data["total"] == 18
    assert only(log, "loads_revealed").data["overloaded"] is True
    assert kinds(log)[-1] == "game_ended" and GAME.outcome(state) is not None
    assert len(state.won[2]) == 1


def test_lost_as_the_last_donkey_is_resumed_at_once() -> None:
    state, _ = begin(full_deck=[*["normal"] * 7, "lost"])
    for _ in range(7):
        state = quiet_round(state)
    state, log = load(state, 1, 2, 3)
    assert kinds(log)[3:] == ["loads_set_aside", "round_ended", "lost_resumed"]
    assert state.phase == "favours" and state.loads == (((0, 1),), ((1, 2),), ((2, 3),))


def test_double_counts_as_two_and_removes_the_last_donkey_unseen() -> None:
    state, events = begin(full_deck=["double", *["normal"] * 6, "puny"])
    revealed, removed = only(events, "donkey_revealed"), only(events, "donkey_removed")
    assert revealed.data["capacity"] == 30 and revealed.data["effect"] == "double"
    # The removed donkey is in no seat's part and not in the public data.
    assert removed.data == {"left": 6} and removed.private == {HIDDEN: {"donkey": "puny"}}
    for viewer in (0, 1, 2, None):
        assert "puny" not in visible_to(removed, viewer)
        view = GAME.view(state, viewer)
        assert view["donkeys_removed"] == 1 and "all" not in view
    assert state.deck == ("normal",) * 6
    # Everyone loads two cards.
    assert_rejected(GAME, state, 0, CanyonLoad(cards=(1,)), "wrong_count")
    assert_rejected(GAME, state, 0, CanyonLoad(cards=(1, 1)), "duplicate_card")
    state, log = round_of(state, ((1, 2), (3, 4), (5, 6)), (ACCEPT, ACCEPT, REFUSE))
    assert only(log, "loads_revealed").data["total"] == 21
    assert won(state) == [[(0, 1), (0, 2)], [(1, 3), (1, 4)], []]
    for _ in range(6):
        state = quiet_round(state)
    # Seven rounds: the puny donkey never came up; it is shown after the end.
    assert state.phase == "over" and "puny" not in state.seen
    assert GAME.view(state, 0, reveal_all=True)["all"]["removed_donkeys"] == ["puny"]


def test_double_overloaded_each_refuser_draws_one_card() -> None:
    state, _ = begin("double")
    state, log = round_of(state, ((10, 9), (8, 7), (6, 5)), (REFUSE, REFUSE, ACCEPT))
    assert only(log, "loads_revealed").data["overloaded"] is True  # 45 > 30
    assert [len(p) for p in state.won] == [1, 1, 0]
    assert len(state.discard) == 4


def test_double_removing_the_last_donkey_ends_the_game_after_it() -> None:
    state, _ = begin(full_deck=[*["normal"] * 6, "double", "lost"])
    for _ in range(6):
        state = quiet_round(state)
    assert state.donkey == "double" and state.effect == "double" and state.deck == ()
    assert state.removed_donkeys == ("lost",)
    state, log = round_of(state, ((1, 2), (1, 2), (1, 2)), (ACCEPT,) * 3)
    # The lost donkey was removed unseen: nothing is resumed, the game is over.
    assert "lost_resumed" not in kinds(log) and kinds(log)[-1] == "game_ended"
    assert state.round == 7


def test_double_as_the_last_donkey_is_a_normal_donkey() -> None:
    state, _ = begin(full_deck=[*["normal"] * 7, "double"])
    for _ in range(7):
        state = quiet_round(state)
    assert state.donkey == "double" and state.effect == "normal" and state.limit == 15
    assert GAME.view(state, 0)["donkey"]["loads_each"] == 1
    state, log = round_of(state, (1, 2, 3), (ACCEPT,) * 3)
    assert "donkey_removed" not in kinds(log) and kinds(log)[-1] == "game_ended"
    assert won(state) == [[(0, 1)], [(1, 2)], [(2, 3)]]


def test_stubborn_more_than_half_refused_no_reveal_and_every_load_removed() -> None:
    state, _ = begin("stubborn")
    state, log = round_of(state, (7, 2, 9), (REFUSE, ACCEPT, REFUSE))
    assert "loads_revealed" not in kinds(log) and "round_scored" not in kinds(log)
    buried = only(log, "loads_buried")
    assert buried.data == {"refused": 2} and buried.private == {}
    assert won(state) == [[], [], []] and state.discard == ()
    assert state.buried == ((7,), (2,), (9,))
    # The removed loads stay face down: a player knows only their own.
    assert GAME.view(state, 1)["you"]["buried"] == [2]
    assert GAME.view(state, 1)["seats"][0]["buried"] == 1
    assert 7 in GAME.view(state, 1)["unseen"][0]


@pytest.mark.parametrize(("players", "refusing"), [(3, 1), (4, 2)])
def test_stubborn_half_or_fewer_refusing_is_an_ordinary_round(players: int,
                                                               refusing: int) -> None:
    state, _ = begin("stubborn", players=players)
    accepts = tuple(seat >= refusing for seat in range(players))
    state, log = round_of(state, (1,) * players, accepts)
    assert "loads_buried" not in kinds(log)
    assert only(log, "loads_revealed").data["overloaded"] is False
    assert [len(p) for p in state.won] == [int(a) for a in accepts]


def test_difficult_loads_one_by_one_the_first_and_last_face_up() -> None:
    state, _ = begin("difficult", first=1)
    assert GAME.to_act(state) == {1}
    assert_rejected(GAME, state, 0, CanyonLoad(cards=(5,)), "not_your_turn")
    state, log = play(state, 1, CanyonLoad(cards=(3,)))
    assert log[0].data == {"seat": 1, "count": 1, "face_up": [3]}
    assert GAME.to_act(state) == {2}
    state, log = play(state, 2, CanyonLoad(cards=(8,)))
    assert log[0].data == {"seat": 2, "count": 1, "face_up": []}
    for viewer in (0, 1, None):
        assert "8" not in visible_to(log[0], viewer)
    state, log = play(state, 0, CanyonLoad(cards=(6,)))
    assert log[0].data["face_up"] == [6]
    view = GAME.view(state, 1)
    assert [s["load"] for s in view["seats"]] == [[[0, 6]], [[1, 3]], [None]]
    assert state.phase == "favours"


# ---------------------------------------------------------------------------------------
# The five favours
# ---------------------------------------------------------------------------------------

def test_a_favour_discards_its_card_face_up_and_does_not_count_as_load() -> None:
    state, _ = begin()
    state, _ = load(state, 5, 5, 5)
    assert_rejected(GAME, state, 0, CanyonFavour(card=3), "bad_favour_card")
    state, log = play(state, 0, CanyonFavour(card=10))
    assert log[0].type == "favour_called" and log[0].data == {"seat": 0, "card": 10}
    assert 10 not in state.hands[0] and state.favour_cards == ((0, 10),)
    assert state.favours_used == (1, 0, 0)
    state, _ = play(state, 1, NO_FAVOUR)
    state, _ = play(state, 2, NO_FAVOUR)
    state, _ = play(state, 0, CanyonLook(seat=1))
    state, log = contracts(state, ACCEPT, ACCEPT, ACCEPT)
    assert only(log, "loads_revealed").data["total"] == 15
    assert (0, 10) not in state.won[0] and state.favour_cards == ((0, 10),)


def test_one_favour_a_round_and_two_a_game() -> None:
    state, _ = begin()
    assert_rejected(GAME, state, 0, CanyonFavour(card=2), "wrong_phase")
    state, _ = load(state, 5, 5, 5)
    state, _ = play(state, 0, CanyonFavour(card=2))
    assert GAME.to_act(state) == {1}  # each player is asked once a round
    state, _ = favours(state)
    assert GAME.to_act(state) == {1}  # favour 2: seat 0 decides last
    state, _ = contracts(state, ACCEPT, ACCEPT, ACCEPT)
    state, _ = load(state, 1, 1, 1)
    state, _ = favours(state, {0: 6})
    state, _ = contracts(state, ACCEPT, ACCEPT, ACCEPT)
    state, _ = play(state, 0, CanyonAdjust(delta=2))
    assert state.favours_used == (2, 0, 0) and state.round == 3
    # Two favours used: seat 0 is no longer asked (seat 2 holds the first-player card).
    state, _ = load(state, 3, 3, 3)
    assert state.phase == "favours" and state.order == (2, 1)
    state, _ = favours(state)
    assert state.phase == "contract"


def test_favour_2_decides_after_everyone_else() -> None:
    state, _ = begin()
    state, _ = load(state, 5, 5, 5)
    state, _ = favours(state, {0: 2})
    order = []
    while state.phase == "contract":
        (seat,) = GAME.to_act(state)
        order.append(seat)
        state, _ = play(state, seat, CanyonContract(accept=True))
    assert order == [1, 2, 0]


def test_favour_4_exchanges_the_load_after_all_decisions() -> None:
    state, _ = begin()
    state, _ = load(state, 9, 3, 4)
    state, _ = favours(state, {0: 4})
    state, _ = contracts(state, ACCEPT, ACCEPT, REFUSE)
    assert state.phase == "late_favours" and GAME.to_act(state) == {0}
    legal = GAME.legal_actions(state, 0)
    assert KEEP in legal and CanyonExchange(load=9, card=1) in legal
    assert_rejected(GAME, state, 0, CanyonExchange(load=3, card=1), "not_your_load")
    assert_rejected(GAME, state, 0, CanyonExchange(load=9, card=4), "not_in_hand")
    state, log = play(state, 0, CanyonExchange(load=9, card=1))
    exchanged = log[0]
    assert exchanged.data == {"seat": 0, "slot": 0, "returned": None}
    assert exchanged.private == {0: {"returned": 9, "card": 1}}
    for other in (1, 2, None):
        assert "9" not in json.dumps(redact(exchanged, other)["data"])
        assert redact(exchanged, other)["private"] == {}
    assert 9 in state.hands[0] and 1 not in state.hands[0]
    assert only(log, "loads_revealed").data["total"] == 8
    assert won(state) == [[(0, 1)], [(1, 3)], []]


def test_favour_4_may_keep_the_load() -> None:
    state, _ = begin()
    state, _ = load(state, 9, 3, 2)
    state, _ = favours(state, {0: 4})
    state, _ = contracts(state, ACCEPT, ACCEPT, REFUSE)
    state, log = play(state, 0, KEEP)
    assert log[0].type == "exchange_declined"
    assert won(state) == [[(0, 9)], [(1, 3)], []]


def test_favour_4_a_face_up_card_goes_back_in_full_view() -> None:
    state, _ = begin("difficult")
    state, _ = load(state, 9, 3, 4)
    state, _ = favours(state, {0: 4, 1: 6})
    state, _ = contracts(state, REFUSE, ACCEPT, ACCEPT)
    state, log = play(state, 0, CanyonExchange(load=9, card=2))
    assert log[0].data == {"seat": 0, "slot": 0, "returned": 9}
    assert GAME.to_act(state) == {1}
    view = GAME.view(state, 1)
    assert view["exchanges"] == [[0, 0, 9]]
    assert view["seats"][0]["load"] == [None]  # the new card lies face down


@pytest.mark.parametrize(("delta", "overloaded"), [(2, False), (-2, True)])
def test_favour_6_raises_or_lowers_the_capacity_by_two(delta: int, overloaded: bool) -> None:
    state, _ = begin()
    state, _ = load(state, 6, 5, 5)  # 16: one over
    state, _ = favours(state, {1: 6})
    state, _ = contracts(state, ACCEPT, ACCEPT, ACCEPT)
    assert set(GAME.legal_actions(state, 1)) == {CanyonAdjust(delta=2), CanyonAdjust(delta=-2)}
    assert_rejected(GAME, state, 1, CanyonAdjust(delta=3), "bad_adjust")
    state, log = play(state, 1, CanyonAdjust(delta=delta))
    assert only(log, "limit_adjusted").data["limit"] == 15 + delta
    assert only(log, "loads_revealed").data["overloaded"] is overloaded


def test_favour_6_on_precision_changes_the_gap_kept_within_one_to_nine() -> None:
    state, _ = begin("precision")
    state, _ = load(state, 1, 7, 4)  # gap 6
    state, _ = favours(state, {2: 6})
    state, _ = contracts(state, ACCEPT, ACCEPT, ACCEPT)
    state, log = play(state, 2, CanyonAdjust(delta=2))
    assert only(log, "limit_adjusted").data["limit"] == 7
    assert only(log, "loads_revealed").data["overloaded"] is False
    assert fv.adjusted(dk.PRECISION, 9, 2) == 9 and fv.adjusted(dk.PRECISION, 1, -2) == 1
    assert fv.adjusted(dk.NORMAL, 1, -2) == -1  # a capacity has no bounds


def test_favour_8_accepted_and_right_swaps_a_load_card() -> None:
    state, _ = begin()
    state, _ = load(state, 1, 9, 3)
    state, _ = favours(state, {0: 8})
    state, log = contracts(state, ACCEPT, ACCEPT, ACCEPT)
    assert state.phase == "reward" and GAME.to_act(state) == {0}
    assert set(GAME.legal_actions(state, 0)) == {
        KEEP, CanyonSwap(give=(0, 1), take=(1, 9)), CanyonSwap(give=(0, 1), take=(2, 3))}
    state, log = play(state, 0, CanyonSwap(give=(0, 1), take=(1, 9)))
    assert log[0].data == {"seat": 0, "give": [0, 1], "take": [1, 9], "target": 1}
    assert won(state) == [[(1, 9)], [(0, 1)], [(2, 3)]]


def test_favour_8_refused_and_right_chooses_the_card_first() -> None:
    for seed in range(6):
        state, _ = begin()
        state, _ = load(state, 2, 9, 7)
        state, _ = favours(state, {2: 8})
        state, _ = contracts(state, REFUSE, ACCEPT, REFUSE, seed=seed)
        assert state.phase == "reward" and GAME.to_act(state) == {2}
        assert set(GAME.legal_actions(state, 2)) == {CanyonTake(card=c) for c in
                                                    [(0, 2), (1, 9), (2, 7)]}
        state, _ = play(state, 2, CanyonTake(card=(1, 9)), seed=seed)
        assert state.won[2] == ((1, 9),)
        assert state.won[0] in (((0, 2),), ((2, 7),))


def test_favour_8_wrong_gets_nothing() -> None:
    state, _ = begin()
    state, _ = load(state, 10, 9, 7)
    state, _ = favours(state, {0: 8})
    state, log = contracts(state, ACCEPT, REFUSE, REFUSE)
    assert only(log, "loads_revealed").data["overloaded"] is True
    assert not {"card_chosen", "loads_swapped", "swap_declined"} & set(kinds(log))
    assert state.won[0] == () and state.round == 2


@pytest.mark.parametrize(("players", "looks"), [(3, 1), (5, 2), (7, 3)])
def test_favour_10_looks_at_half_the_load_cards_rounded_down(players: int, looks: int) -> None:
    state, _ = begin(players=players)
    state, _ = load(state, *range(1, players + 1))
    state, _ = favours(state, {1: 10})
    assert state.phase == "looks" and GAME.to_act(state) == {1}
    assert state.looks_left[1] == looks
    seen, expected = [], []
    for _ in range(looks):
        target = GAME.legal_actions(state, 1)[0]
        state, log = play(state, 1, target)
        seen.append(log[0].private[1]["value"])
        expected.append(target.seat + 1)  # seat s loaded s + 1
        for other in [*(s for s in range(players) if s != 1), None]:
            assert redact(log[0], other)["private"] == {}
    assert seen == expected
    assert state.phase == "contract"


def test_favour_10_on_the_double_and_the_holed_donkeys() -> None:
    state, _ = begin("double")
    state, _ = load(state, (1, 2), (3, 4), (5, 6))
    state, _ = favours(state, {0: 10})
    assert state.looks_left == (3, 0, 0)  # P = 6
    state, _ = begin("holed")
    state, _ = load(state, 1, 2, 3)
    state, _ = favours(state, {0: 10})
    assert state.looks_left == (2, 1, 1)


def test_several_favours_resolve_clockwise_from_the_first_player() -> None:
    state, _ = begin(first=2)
    state, _ = load(state, 1, 2, 3)
    state, _ = favours(state, {0: 4, 1: 6, 2: 4})
    state, _ = contracts(state, ACCEPT, ACCEPT, ACCEPT)
    order = []
    while state.phase == "late_favours":
        (seat,) = GAME.to_act(state)
        order.append(seat)
        state, _ = play(state, seat, GAME.legal_actions(state, seat)[0])
    assert order == [2, 0, 1]


# ---------------------------------------------------------------------------------------
# The end
# ---------------------------------------------------------------------------------------

def test_the_highest_total_wins_then_the_most_cards_then_players_share() -> None:
    state, _ = begin()
    state, _ = round_of(state, (10, 4, 1), (ACCEPT, ACCEPT, REFUSE))  # 0: 10, 1: 4
    state, _ = round_of(state, (2, 6, 3), (REFUSE, ACCEPT, REFUSE))  # 1: 4 + 6
    state, _ = round_of(state, (3, 1, 10), (REFUSE, REFUSE, ACCEPT))  # 2: 10
    for _ in range(5):
        state = quiet_round(state)
    out = GAME.outcome(state)
    assert out is not None and out.scores == [10.0, 10.0, 10.0]
    assert out.places == [2, 1, 2]  # same total: seat 1 won more cards; 0 and 2 share
    assert GAME.view(state, None)["outcome"] == {"totals": [10, 10, 10],
                                                 "won_cards": [1, 2, 1], "places": [2, 1, 2]}


def test_a_tie_for_first_shares_the_first_place_and_skips_the_second() -> None:
    state, _ = begin()
    state, _ = round_of(state, (5, 5, 1), (ACCEPT, ACCEPT, REFUSE))  # 0: 5, 1: 5
    for _ in range(7):
        state = quiet_round(state)
    out = GAME.outcome(state)
    assert out is not None and out.scores == [5.0, 5.0, 0.0]
    assert out.places == [1, 1, 3]  # competition ranking, as in every game
    assert GAME.view(state, None)["outcome"]["places"] == [1, 1, 3]
    assert any("competition ranking: 1, 1, 3" in rule for rule in GAME.rules)


def test_after_the_end_nobody_acts() -> None:
    state, _ = begin()
    for _ in range(8):
        state = quiet_round(state)
    assert state.phase == "over" and GAME.to_act(state) == frozenset()
    assert_rejected(GAME, state, 0, CanyonLoad(cards=(1,)), "game_over")
    assert all(GAME.legal_actions(state, s) == [] for s in range(3))


# ---------------------------------------------------------------------------------------
# Hidden information
# ---------------------------------------------------------------------------------------

def test_a_load_is_a_private_part_the_view_tells_who_loaded_never_what() -> None:
    state, events = begin(players=4)
    drawn = only(events, "donkeys_drawn")
    assert set(drawn.private) == {HIDDEN}
    for viewer in (0, 1, 2, 3, None):
        assert redact(drawn, viewer)["private"] == {}
    state, log = play(state, 2, CanyonLoad(cards=(7,)))
    played = log[0]
    assert played.data == {"seat": 2, "count": 1, "face_up": []}
    assert played.private == {2: {"cards": [7]}}
    assert redact(played, 2)["private"] == {"2": {"cards": [7]}}
    for viewer in (0, 1, 3, None):
        assert redact(played, viewer)["private"] == {}
        view = GAME.view(state, viewer)
        assert [s["loaded"] for s in view["seats"]] == [False, False, True, False]
        assert view["seats"][2]["load"] == [None]
        assert 7 in view["unseen"][2]
    assert GAME.view(state, 2)["you"]["load"] == [[2, 7]]
    assert GAME.to_act(state) == {0, 1, 3}


def test_the_log_after_the_end_shows_everything() -> None:
    state, _ = begin("stubborn")
    state, log = round_of(state, (7, 2, 9), (REFUSE, ACCEPT, REFUSE))
    played = [ev for ev in log if ev.type == "load_played"]
    assert redact(played[0], 1, reveal_all=True)["private"] == {"0": {"cards": [7]}}
    view = GAME.view(state, None, reveal_all=True)
    assert view["all"]["buried"] == [[7], [2], [9]]


# ---------------------------------------------------------------------------------------
# Properties over random games
# ---------------------------------------------------------------------------------------

def places_of_cards(state: CanyonState) -> Counter[tuple[int, int]]:
    """Every load card of every colour, counted once per place it is in."""
    places: Counter[tuple[int, int]] = Counter()
    for seat in range(state.players):
        places.update((seat, v) for v in state.hands[seat])
        places.update((seat, v) for v in state.buried[seat])
    for load_ in state.loads:
        places.update(load_)
    for loads in state.set_aside:
        for load_ in loads:
            places.update(load_)
    for pile in state.won:
        places.update(pile)
    places.update(state.discard)
    places.update(state.favour_cards)
    return places


def hidden_from(state: CanyonState, viewer: int | None) -> set[tuple[int, int]]:
    """The cards of other seats that `viewer` has no way to know: in a hand, face down on
    the donkey before the reveal, set aside or buried (minus what it looked at)."""
    hidden: set[tuple[int, int]] = set()
    for seat in range(state.players):
        if seat == viewer:
            continue
        hidden.update((seat, v) for v in state.hands[seat])
        hidden.update((seat, v) for v in state.buried[seat])
        if not state.revealed:
            hidden.update(c for c in state.loads[seat] if c not in state.shown)
        for loads in state.set_aside:
            hidden.update(loads[seat])
    hidden -= set(state.shown)  # played face up, even if favour 4 took it back since
    if viewer is not None:
        hidden -= {(t, v) for t, _, v in state.looks[viewer]}
        hidden -= set(state.memory[viewer])
    return hidden


# View fields whose integer lists are seats, slots, counts or own values, not cards.
NOT_CARDS = frozenset({"unseen", "to_act", "order", "looked", "excluded", "set_aside", "hand",
                       "buried"})


def pairs_in(payload: Any, skip: frozenset[str] = NOT_CARDS) -> set[tuple[int, int]]:
    """Every [int, int] list in a JSON-like payload (cards are [owner, value])."""
    found: set[tuple[int, int]] = set()
    if isinstance(payload, dict):
        for key, value in payload.items():
            if key not in skip:
                found |= pairs_in(value, skip)
    elif isinstance(payload, list):
        if len(payload) == 2 and all(type(x) is int for x in payload):
            found.add((payload[0], payload[1]))
        for value in payload:
            found |= pairs_in(value, skip)
    return found


def check_step(state: CanyonState, log: list[Event]) -> None:
    places = places_of_cards(state)
    expected = {(seat, v) for seat in range(state.players) for v in CARD_VALUES}
    assert set(places) == expected and set(places.values()) == {1}, places
    if state.phase == "over":
        return
    for viewer in [*range(state.players), None]:
        view = GAME.view(state, viewer)
        hidden = hidden_from(state, viewer)
        leaked = pairs_in(view) & hidden
        leaked |= {(s, old) for s, _, old in view["exchanges"]} & hidden
        assert not leaked, f"seat {viewer} sees {leaked}"
        for seat_view in view["seats"]:
            if seat_view["seat"] != viewer and not state.revealed:
                assert all(c is None or tuple(c) in state.shown for c in seat_view["load"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 7))
def test_random_games_keep_every_card_in_one_place_replay_and_never_leak(
        seed: int, players: int) -> None:
    state, log = random_playout(GAME, players, {}, seed=seed, check_every=7,
                                on_step=check_step)
    assert GAME.outcome(state) is not None
    # A whole log replays to the same final state.
    replayed = GAME.new_state(resolve_options(GAME.options, {}, players), players)
    for ev in log:
        replayed = GAME.evolve(replayed, ev)
    assert replayed == state


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 6))
def test_every_legal_action_is_accepted_and_determinize_agrees_with_the_view(
        seed: int, players: int) -> None:
    rng = random.Random(seed)
    state, _ = start(GAME, players, {}, seed)
    while GAME.outcome(state) is None:
        for seat in GAME.to_act(state):
            for action in GAME.legal_actions(state, seat):
                assert GAME.decide(state, seat, action, random.Random(0))
            view = GAME.view(state, seat)
            sample = GAME.determinize(view, seat, rng)
            assert GAME.view(sample, seat) == view
            assert places_of_cards(sample) == places_of_cards(state)
        seat = rng.choice(sorted(GAME.to_act(state)))
        state, _ = apply(GAME, state, seat, rng.choice(GAME.legal_actions(state, seat)), rng)


def test_determinize_samples_what_the_seat_cannot_see_and_keeps_what_it_saw() -> None:
    state, _ = begin("holed", players=4)
    state, _ = load(state, 1, 2, 3, 4)
    state, _ = favours(state)
    state, _ = play(state, 0, CanyonLook(seat=2))
    view = GAME.view(state, 0)
    loads = {1: set(), 2: set(), 3: set()}
    for i in range(40):
        sample = GAME.determinize(view, 0, random.Random(i))
        assert sample.loads[0] == ((0, 1),) and sample.hands[0] == state.hands[0]
        assert sample.loads[2] == ((2, 3),)  # looked at
        for seat in (1, 3):
            loads[seat].add(sample.loads[seat][0])
        assert msgspec.json.decode(msgspec.json.encode(sample), type=CanyonState) == sample
    assert len(loads[1]) > 3 and len(loads[3]) > 3


# ---------------------------------------------------------------------------------------
# Bots
# ---------------------------------------------------------------------------------------

def _spot_key(spot: Any) -> tuple[Any, ...]:
    return (spot.seat, spot.phase, spot.effect, spot.limit, spot.loads_each, spot.hand,
            spot.mine, sorted(spot.seen), sorted((h.owner, h.values, h.weights)
                                                 for h in spot.hidden),
            spot.contract, spot.favour, spot.needed)


def test_the_basic_bot_and_the_rollout_policy_read_only_what_the_seat_sees() -> None:
    """The spot built from the seat's view, from the true state and from a state sampled
    from the view are the same: the policy cannot read a hidden card."""
    for seed in range(6):
        rng = random.Random(seed)
        state, _ = start(GAME, 3 + seed % 3, {}, seed)
        while GAME.outcome(state) is None:
            seat = rng.choice(sorted(GAME.to_act(state)))
            view = GAME.view(state, seat)
            sample = GAME.determinize(view, seat, rng)
            key = _spot_key(canyon_basic.spot_from_view(view, seat))
            assert key == _spot_key(canyon_basic.spot_from_state(state, seat))
            assert key == _spot_key(canyon_basic.spot_from_state(sample, seat))
            assert canyon_basic.weigh(GAME, sample, view, seat) > 0.0
            state, _ = apply(GAME, state, seat, rng.choice(GAME.legal_actions(state, seat)), rng)


@pytest.mark.parametrize("donkey", ["normal", "giant"])
def test_strong_bluff_reads_weighted_samples_explain_the_others_choices(donkey: str) -> None:
    """Basic bots load, call favours and take sides; the samples of their hidden loads
    that `weigh` favours are much closer to the truth than uniform samples."""
    for seed in range(2):
        rng = random.Random(seed)
        state, _ = begin(donkey, first=1)
        while not (state.phase == "contract" and GAME.to_act(state) == {0}):
            seat = min(GAME.to_act(state) - {0}, default=0)
            action = canyon_basic.basic(GAME, observe(GAME, state, seat), rng)
            state, _ = apply(GAME, state, seat, action, rng)
        view = GAME.view(state, 0)
        total = weighted = plain = 0.0
        for _ in range(300):
            sample = GAME.determinize(view, 0, rng)
            weight = canyon_basic.weigh(GAME, sample, view, 0)
            error = sum(abs(sample.loads[j][0][1] - state.loads[j][0][1]) for j in (1, 2))
            total += weight
            weighted += weight * error
            plain += error
        assert weighted / total < 0.75 * plain / 300


def test_the_three_levels_play_a_whole_game() -> None:
    state, moves = bot_playout(GAME, ["strong", "basic", "random", "basic"], seed=2,
                               budget=Budget(seconds=None, iterations=15))
    assert sorted(GAME.outcome(state).places)[0] == 1 and moves > 0


def test_weigh_after_the_reveal_when_cards_have_left_the_donkey() -> None:
    state, _ = begin(players=4)  # capacity 20
    state, _ = load(state, 1, 9, 6, 7)
    state, _ = favours(state, {0: 4, 1: 8, 2: 8})
    state, _ = contracts(state, ACCEPT, REFUSE, REFUSE, REFUSE)
    state, _ = play(state, 0, CanyonExchange(load=1, card=10))  # 32: overloaded
    state, _ = play(state, 1, CanyonTake(card=(0, 10)))  # seat 0's load is gone
    assert state.phase == "reward" and state.loads[0] == ()
    view = GAME.view(state, 3)
    sample = GAME.determinize(view, 3, random.Random(0))
    assert canyon_basic.weigh(GAME, sample, view, 3) == 1.0
