"""What a Trash player may do, and what each choice causes.

The game waits for one choice at a time (`phase`): draw, place a wild on a face-down slot,
or displace a face-up wild (or not). `legal_actions` lists the answers; `decide` checks one
and returns its events, the forced steps that follow included (`automatic`). Error codes
(`IllegalAction`): `must_draw_first`, `must_place_wild`, `must_choose_displace`,
`stock_empty`, `discard_empty`, `discard_not_placeable`, `no_such_slot`,
`slot_not_face_down`; `BadAction` (`bad_action`) for anything not a Trash action.
"""

from __future__ import annotations

import random

from domain.errors import BadAction, IllegalAction
from domain.events import Event, event
from domain.games.trash import automatic
from domain.games.trash.actions import (
    TrashAction,
    TrashDiscard,
    TrashDisplace,
    TrashDraw,
    TrashPlaceWild,
)
from domain.games.trash.cards import CODES, RANK
from domain.games.trash.state import TrashState, face_down_slots, phase, placeable

# The pending choice each action answers, and what to tell a player who answers another.
_ACTION_PHASE: dict[type, str] = {TrashDraw: "draw", TrashPlaceWild: "place_wild",
                                  TrashDisplace: "displace", TrashDiscard: "displace"}
_PHASE_ERROR = {
    "draw": ("must_draw_first", "draw a card first"),
    "place_wild": ("must_place_wild", "place the wild in hand on a face-down slot"),
    "displace": ("must_choose_displace",
                 "displace the face-up wild with the number in hand, or discard the number"),
}


def legal_actions(state: TrashState, seat: int) -> list[TrashAction]:
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


def decide(state: TrashState, seat: int, action: TrashAction,
           rng: random.Random) -> list[Event]:
    """The events `action` of `seat` (the seat to act) causes, forced steps included."""
    answers = _ACTION_PHASE.get(type(action))
    if answers is None:
        raise BadAction(f"not a Trash action: {action!r}")
    now = phase(state)
    if answers != now:
        code, message = _PHASE_ERROR[now]
        raise IllegalAction(message, code=code)
    play = automatic.begin(state)
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
            automatic.place(play, seat, slot)
        case TrashDisplace():
            # A number whose slot holds a face-up wild displaces it; the wild goes on.
            automatic.place(play, seat, RANK[state.hand])
        case TrashDiscard():
            # ...or the player keeps the wild there: discard the number, turn over.
            automatic.discard_and_end_turn(play, seat, "kept_wild", rng)
            return play.events
        case _:
            raise BadAction(f"malformed Trash action: {action!r}")
    automatic.play_on(play, seat, rng)
    return play.events
