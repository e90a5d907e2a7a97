"""Trash's actions, state and `evolve`, with the questions the rules ask of a state.

The state is a frozen struct of ints and tuples: JSON round-trippable, cheap to copy, and
`evolve` only slices tuples, so search bots can fold many events.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.events import Event
from domain.games.kit import HIDDEN, replaced
from domain.games.trash.cards import CARD, JACK, NO_CARD, RANK, TEN, cards

START_SLOTS = 10  # Layout: 10 slots at the start, one fewer for each round won


# --- Actions -----------------------------------------------------------------------------
class TrashDraw(msgspec.Struct, frozen=True, tag_field="type", tag="draw"):
    """Draw the stock's top card, or the discard's top card when it is placeable."""

    source: Literal["stock", "discard"]


class TrashPlaceWild(msgspec.Struct, frozen=True, tag_field="type", tag="place_wild"):
    """Put the wild in hand face up on this face-down slot (1 = Ace) and take that card."""

    slot: int


class TrashDisplace(msgspec.Struct, frozen=True, tag_field="type", tag="displace"):
    """Put the number in hand on its slot in place of the face-up wild; take the wild."""


class TrashDiscard(msgspec.Struct, frozen=True, tag_field="type", tag="discard"):
    """Leave the face-up wild where it is: discard the number in hand, ending the turn."""


TrashAction = TrashDraw | TrashPlaceWild | TrashDisplace | TrashDiscard


# --- State -------------------------------------------------------------------------------
class TrashState(msgspec.Struct, frozen=True, kw_only=True):
    players: int
    decks: int
    wild: str  # "J" or "JQK"
    target_slots: int  # 0 = standard end
    max_rounds: int | None
    round: int = 0  # 0 before the first deal
    leader: int = -1  # who led the round
    turn: int = -1
    slots: tuple[int, ...] = ()  # per seat: 10 minus rounds won
    layout: tuple[tuple[int, ...], ...] = ()  # per seat, slot 1 (Ace) first
    face_up: tuple[tuple[bool, ...], ...] = ()
    hand: int = NO_CARD  # the card the player to act holds, if any
    stock: tuple[int, ...] = ()  # top card last
    stock_known: bool = False  # the stock is a reshuffled discard: its contents are public
    discard: tuple[int, ...] = ()  # top card last
    ended: str = ""  # why the game ended ("" while it runs)


def evolve(state: TrashState, ev: Event) -> TrashState:
    """Apply one fact: no validation, no randomness."""
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


# --- What the rules ask of a state -------------------------------------------------------
def phase(state: TrashState) -> str:
    """What the game waits for. Between actions the card in hand always means a choice:
    a wild with several face-down slots, or a number facing a face-up wild."""
    if state.round == 0:
        return "deal"
    if state.ended:
        return "over"
    if state.hand == NO_CARD:
        return "draw"
    return "place_wild" if is_wild(state, state.hand) else "displace"


def is_wild(state: TrashState, card: int) -> bool:
    """Jacks are wild; with the `JQK` variant queens and kings too."""
    rank = RANK[card]
    return rank == JACK or (rank > JACK and state.wild == "JQK")


def placeable(state: TrashState, seat: int, card: int) -> bool:
    """Whether the card would go onto the seat's layout (rule 2, Place): a wild while a
    face-down slot exists; a number n ≤ slots whose slot is face down or shows a wild."""
    face_up = state.face_up[seat]
    if is_wild(state, card):
        return not all(face_up)
    number = RANK[card]
    if number > TEN or number > len(face_up):
        return False
    return not face_up[number - 1] or is_wild(state, state.layout[seat][number - 1])


def face_down_slots(state: TrashState, seat: int) -> list[int]:
    return [i + 1 for i, up in enumerate(state.face_up[seat]) if not up]


def stalemate(state: TrashState) -> bool:
    """No card outside the layouts can be placed by anyone, so no layout can ever change:
    every draw would be discarded, for ever. (Possible with few decks for many players.)"""
    wanted: set[int] = set()
    for seat in range(state.players):
        for slot, up in enumerate(state.face_up[seat], start=1):
            if slot <= TEN and (not up or is_wild(state, state.layout[seat][slot - 1])):
                wanted.add(slot)
    return not any(is_wild(state, card) or RANK[card] in wanted
                   for pile in (state.stock, state.discard) for card in pile)

