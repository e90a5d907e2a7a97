"""Trash (also Garbage or Ten): be the first to show your layout, Ace upwards, face up.

The spec is `rules/trash.md` (source: the French rulebook `seeds/003_…`); comments cite
its rules and its Decision lines. A turn is a chain of choices made by actions, with every
forced step an automatic event (see `turn.py`):

    draw: stock, or the discard's top when placeable     action `draw`        card_drawn
    with the card in hand, repeatedly:
      a number on its face-down slot                     automatic            card_placed
      a number facing a face-up wild                     action `displace`    card_placed
                                                      or action `discard`     card_discarded
      a wild, several face-down slots                    action `place_wild`  card_placed
      a wild, a single face-down slot                    automatic            card_placed
      anything else (unplayable)                         automatic            card_discarded
    end of the turn                                      automatic            turn_ended
    layout all face up                                   automatic            card_discarded,
                                                                              round_won
    next round or the end                                automatic            round_dealt /
                                                                              game_ended
    stock empty before a draw                            automatic            stock_reshuffled
                                                                              or turn_passed
    no card outside the layouts placeable by anyone      automatic            round_void

Hidden information: nobody sees a face-down card, its owner included, nor the stock's
order. The deal and each reshuffle record those facts in the private part keyed `HIDDEN`
(-1), which no seat receives before the end; a card turns public when it is drawn or
taken into hand.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from domain.errors import (
    BadAction,
    BadOptions,
    GameNotStarted,
    GameOver,
    IllegalAction,
    NotYourTurn,
)
from domain.events import Event, event
from domain.game import OptionSpec, Outcome, resolve_options
from domain.games.trash import turn
from domain.games.trash.cards import CODES, DECK_SIZE, RANK
from domain.games.trash.shapes import TRASH_SHAPES
from domain.games.trash.state import (
    START_SLOTS,
    TrashAction,
    TrashDiscard,
    TrashDisplace,
    TrashDraw,
    TrashPlaceWild,
    TrashState,
    evolve,
    face_down_slots,
    phase,
    placeable,
)
from domain.games.trash.view import determinize, table_view

DEFAULT_DECKS = {2: 1, 3: 2, 4: 2, 5: 3, 6: 3}

OPTIONS = (
    OptionSpec(name="decks", type="int", default=None, minimum=1, maximum=3, nullable=True,
               description="52-card decks shuffled together; null = by players "
                           "(1 for 2, 2 for 3-4, 3 for 5-6)"),
    OptionSpec(name="wild", type="str", default="J", choices=["J", "JQK"],
               description="the wild ranks: jacks, or jacks, queens and kings (variant 3)"),
    OptionSpec(name="target_slots", type="int", default=0, minimum=0, maximum=9,
               description="the first player whose layout shrinks to this many slots wins "
                           "(variant 1); 0 = standard: win a round holding a single slot"),
    OptionSpec(name="max_rounds", type="int", default=None, minimum=1, maximum=50,
               nullable=True,
               description="after this many rounds the fewest slots wins, ties share "
                           "(variant 2); null = no limit"),
)

RULES = (
    "Decision: the discard may be taken only when it is placeable. The first player of a "
    "round has no choice (the discard pile is empty).",
    "Decision: wilds go on face-down slots only; placing is mandatory while a face-down slot "
    "exists; with none left the wild is discarded.",
    "Decision: no one gets a last turn.",
    "Decision: if the reshuffle leaves the stock empty and the discard is not placeable, the "
    "player's turn passes.",
    "Decision: the first round's first player is chosen at random (recorded in the log).",
    "Assumption: when a layout is complete, the card left in hand is discarded and the round "
    "is won at once.",
    "Assumption: a wild with a single face-down slot to go to is placed there automatically.",
    "Assumption: when no card outside the layouts can be placed by anyone, the round can "
    "never be won: it is void (nobody's layout shrinks, it counts as a round played) and "
    "the cards are dealt again, led by the same player.",
    "Assumption: the decks must hold every layout: 6 players need at least 2 decks.",
)

# The pending choice each action answers, and what to tell a player who answers another.
_ACTION_PHASE: dict[type, str] = {TrashDraw: "draw", TrashPlaceWild: "place_wild",
                                  TrashDisplace: "displace", TrashDiscard: "displace"}
_PHASE_ERROR = {
    "draw": ("must_draw_first", "draw a card first"),
    "place_wild": ("must_place_wild", "place the wild in hand on a face-down slot"),
    "displace": ("must_choose_displace",
                 "displace the face-up wild with the number in hand, or discard the number"),
}


class Trash:
    id = "trash"
    title = "Trash"
    min_players = 2
    max_players = 6
    options = OPTIONS
    rules = RULES
    action_type = TrashAction
    state_type = TrashState
    shapes = TRASH_SHAPES

    def new_state(self, options: Mapping[str, Any], players: int) -> TrashState:
        if not self.min_players <= players <= self.max_players:
            raise BadOptions(f"Trash is for 2 to 6 players, not {players}", code="bad_players")
        opts = resolve_options(self.options, options, players)
        decks = opts["decks"] or DEFAULT_DECKS[players]
        if START_SLOTS * players > DECK_SIZE * decks:
            raise BadOptions(f"{decks} deck(s) cannot deal {players} layouts of "
                             f"{START_SLOTS} cards", code="not_enough_cards")
        return TrashState(players=players, decks=decks, wild=opts["wild"],
                          target_slots=opts["target_slots"], max_rounds=opts["max_rounds"],
                          slots=(START_SLOTS,) * players)

    def setup(self, state: TrashState, rng: random.Random) -> list[Event]:
        play = turn.Play(state)
        # Decision: the first round's first player is chosen at random (recorded in the log).
        turn.deal(play, rng.randrange(state.players), "random", rng)
        return play.events

    # --- legal actions / apply / terminal / returns --------------------------------------
    def to_act(self, state: TrashState) -> frozenset[int]:
        if state.round == 0 or state.ended:
            return frozenset()
        return frozenset((state.turn,))

    def legal_actions(self, state: TrashState, seat: int) -> list[TrashAction]:
        if seat != state.turn or state.round == 0 or state.ended:
            return []
        now = phase(state)
        if now == "draw":
            actions: list[TrashAction] = []
            if state.stock:
                actions.append(TrashDraw(source="stock"))
            if state.discard and placeable(state, seat, state.discard[-1]):
                actions.append(TrashDraw(source="discard"))
            return actions
        if now == "place_wild":
            return [TrashPlaceWild(slot=slot) for slot in face_down_slots(state, seat)]
        return [TrashDisplace(), TrashDiscard()]

    def decide(self, state: TrashState, seat: int, action: TrashAction,
               rng: random.Random) -> list[Event]:
        if state.round == 0:
            raise GameNotStarted("the cards are not dealt yet")
        if state.ended:
            raise GameOver("the game is over")
        if seat != state.turn:
            raise NotYourTurn(f"it is seat {state.turn}'s turn")
        answers = _ACTION_PHASE.get(type(action))
        if answers is None:
            raise BadAction(f"not a Trash action: {action!r}")
        now = phase(state)
        if answers != now:
            code, message = _PHASE_ERROR[now]
            raise IllegalAction(message, code=code)
        play = turn.Play(state)
        match action:
            case TrashDraw(source="stock"):
                # Rule 1: draw the top card of the stock...
                if not state.stock:
                    raise IllegalAction("the stock is empty", code="stock_empty")
                play.emit(event("card_drawn", seat, seat=seat, source="stock",
                                card=CODES[state.stock[-1]]))
            case TrashDraw(source="discard"):
                # ...or the top card of the discard pile.
                if not state.discard:
                    raise IllegalAction("the discard pile is empty", code="discard_empty")
                # Decision: the discard may be taken only when it is placeable.
                if not placeable(state, seat, state.discard[-1]):
                    raise IllegalAction(f"{CODES[state.discard[-1]]} cannot be placed",
                                        code="discard_not_placeable")
                play.emit(event("card_drawn", seat, seat=seat, source="discard",
                                card=CODES[state.discard[-1]]))
            case TrashPlaceWild(slot=int(slot)):
                # A wild goes face up on a face-down slot of the player's choice.
                if not 1 <= slot <= len(state.layout[seat]):
                    raise IllegalAction(f"there is no slot {slot}", code="no_such_slot")
                if state.face_up[seat][slot - 1]:
                    raise IllegalAction(f"slot {slot} is face up", code="slot_not_face_down")
                turn.place(play, seat, slot)
            case TrashDisplace():
                # A number whose slot holds a face-up wild displaces it; the wild goes on.
                turn.place(play, seat, RANK[state.hand])
            case TrashDiscard():
                # ...or the player keeps the wild there: discard the number, turn over.
                turn.discard_and_end_turn(play, seat, "kept_wild", rng)
                return play.events
            case _:
                raise BadAction(f"malformed Trash action: {action!r}")
        turn.play_on(play, seat, rng)
        return play.events

    def evolve(self, state: TrashState, ev: Event) -> TrashState:
        return evolve(state, ev)

    def outcome(self, state: TrashState) -> Outcome | None:
        if not state.ended:
            return None
        return Outcome(places=turn.dense_places(state.slots),
                       scores=[float(n) for n in state.slots],
                       score_name="slots", lower_is_better=True)

    # --- what a seat may see ---------------------------------------------------------------
    def view(self, state: TrashState, viewer: int | None,
             reveal_all: bool = False) -> dict[str, Any]:
        return table_view(state, viewer, reveal_all)

    def determinize(self, table: dict[str, Any], seat: int, rng: random.Random) -> TrashState:
        """A full state consistent with the view `seat` was shown (for search bots)."""
        return determinize(table, rng)


GAME = Trash()
