"""Trash's state, with the questions the rules ask of a state.

The state is a frozen struct of ints and tuples: JSON round-trippable, cheap to copy, and
`evolve` only slices tuples, so search bots can fold many events.
"""

from __future__ import annotations

import msgspec

# The actions are imported from here by code written before they had a module of their own.
from domain.games.trash.actions import (  # noqa: F401
    TrashAction,
    TrashDiscard,
    TrashDisplace,
    TrashDraw,
    TrashPlaceWild,
)
from domain.games.trash.cards import JACK, NO_CARD, RANK, TEN

START_SLOTS = 10  # Layout: 10 slots at the start, one fewer for each round won


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

