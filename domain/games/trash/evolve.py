"""Trash's `evolve`: one fact applied to the state; no validation, no randomness."""

from __future__ import annotations

import msgspec

from domain.events import Event
from domain.games.common import HIDDEN, replaced
from domain.games.trash.cards import CARD, NO_CARD, cards
from domain.games.trash.state import TrashState


def evolve(state: TrashState, ev: Event) -> TrashState:
    data = ev.data
    replace = msgspec.structs.replace
    match ev.type:
        case "round_dealt":
            hidden = ev.private[HIDDEN]
            layout = tuple(cards(row) for row in hidden["layouts"])
            return replace(state, round=data["round"], leader=data["leader"],
                           turn=data["leader"], layout=layout,
                           face_up=tuple((False,) * len(row) for row in layout),
                           hand=NO_CARD, stock=cards(hidden["stock"]), stock_known=False,
                           discard=())
        case "card_drawn":
            if data["source"] == "stock":
                return replace(state, hand=state.stock[-1], stock=state.stock[:-1])
            return replace(state, hand=state.discard[-1], discard=state.discard[:-1])
        case "card_placed":
            seat, at = data["seat"], data["slot"] - 1
            row = replaced(state.layout[seat], at, CARD[data["card"]])
            ups = replaced(state.face_up[seat], at, True)
            return replace(state, hand=CARD[data["taken"]],
                           layout=replaced(state.layout, seat, row),
                           face_up=replaced(state.face_up, seat, ups))
        case "card_discarded":
            return replace(state, hand=NO_CARD, discard=(*state.discard, state.hand))
        case "turn_ended" | "turn_passed":
            return replace(state, turn=data["next"])
        case "stock_reshuffled":
            return replace(state, stock=cards(ev.private[HIDDEN]["stock"]), stock_known=True,
                           discard=state.discard[-1:])
        case "round_won":
            return replace(state, slots=replaced(state.slots, data["seat"], data["slots"]))
        case "game_ended":
            return replace(state, ended=data["reason"])
    return state  # round_void changes nothing by itself: the deal that follows does
