"""The JSON shapes of Trash's view and events, declared for publication (`domain.shapes`);
the code that builds them is in `view` (the view), `rules` and `automatic` (the events).
A card is its code, rank then suit."""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict

import msgspec

from domain.game import EventShape, GameShapes
from domain.shapes import Played

TrashCard = Annotated[str, msgspec.Meta(pattern="^(A|[2-9]|10|J|Q|K)[CDHS]$")]
Seat = Annotated[int, msgspec.Meta(ge=0)]
Slot = Annotated[int, msgspec.Meta(ge=1, le=10)]


# --- the view ----------------------------------------------------------------------------
class TrashOptionsShown(TypedDict):
    decks: int
    wild: Literal["J", "JQK"]
    target_slots: int
    max_rounds: int | None


class TrashSlotShown(TypedDict):
    """A layout slot (1 = Ace): a face-down card is null until the end."""

    slot: Slot
    face_up: bool
    card: TrashCard | None


class TrashStockShown(TypedDict):
    """The stock's size; its cards once it is a reshuffled discard pile (public), its
    order (top card last) after the end."""

    size: int
    cards: list[TrashCard] | None
    order: list[TrashCard] | None


class TrashDrawPending(msgspec.Struct, tag_field="choice", tag="draw"):
    """The player to act draws: from the stock, or the discard when it is placeable.
    (The pending choices are Structs only because their union is tagged by `choice`.)"""

    stock: bool
    discard: bool


class TrashPlaceWildPending(msgspec.Struct, tag_field="choice", tag="place_wild"):
    """The wild in hand goes on one of these face-down slots."""

    card: TrashCard
    slots: list[Slot]


class TrashDisplacePending(msgspec.Struct, tag_field="choice", tag="displace"):
    """The number in hand may displace the face-up wild on its slot, or be discarded.
    (A replay stopped between two events of one turn may show a card the rules then
    discard at once, a queen on "slot" 12 say.)"""

    card: TrashCard
    slot: Annotated[int, msgspec.Meta(ge=1, le=13)]


class TrashTable(TypedDict):
    """The Trash table: the same for every seat and for spectators (nobody sees a
    face-down card); `hand` is the card the player to act holds."""

    game: Literal["trash"]
    viewer: Seat | None
    options: TrashOptionsShown
    players: int
    round: int
    leader: Seat | None
    turn: Seat | None
    phase: Literal["deal", "draw", "place_wild", "displace", "over"]
    pending: TrashDrawPending | TrashPlaceWildPending | TrashDisplacePending | None
    hand: TrashCard | None
    layouts: list[list[TrashSlotShown]]
    slots: list[int]
    rounds_won: list[int]
    discard: list[TrashCard]
    stock: TrashStockShown
    ended: Literal["one_slot_won", "target_slots", "max_rounds"] | None


# --- the events --------------------------------------------------------------------------
class TrashRoundDealt(TypedDict):
    """A deal: who leads and why, each layout's size, the stock's size. The cards are
    face down: they are in a private part no seat receives (shown after the end)."""

    round: int
    leader: Seat
    leader_chosen: Literal["random", "round_winner", "void_round_leader"]
    slots: list[int]
    stock_size: int


class TrashDealtCards(TypedDict):
    layouts: list[list[TrashCard]]
    stock: list[TrashCard]


class TrashCardDrawn(Played):
    seat: Seat
    source: Literal["stock", "discard"]
    card: TrashCard


class TrashCardPlaced(Played):
    """`card` goes face up on `slot` (over a face-down card or a wild); `taken` is the
    card that was there, now in hand."""

    seat: Seat
    slot: Slot
    card: TrashCard
    taken: TrashCard
    over: Literal["wild", "face_down"]


class TrashCardDiscarded(Played):
    seat: Seat
    card: TrashCard
    reason: Literal["layout_complete", "not_wild", "above_layout", "slot_filled",
                    "kept_wild"]


class TrashTurnEnded(Played):
    seat: Seat
    next: Seat


class TrashTurnPassed(TypedDict):
    seat: Seat
    next: Seat


class TrashStockReshuffled(TypedDict):
    seat: Seat
    size: int
    top: TrashCard


class TrashStock(TypedDict):
    stock: list[TrashCard]


class TrashRoundWon(Played):
    seat: Seat
    round: int
    slots: int


class TrashRoundVoid(TypedDict):
    round: int
    reason: Literal["no_placeable_card"]


class TrashGameEnded(TypedDict):
    reason: Literal["one_slot_won", "target_slots", "max_rounds"]
    slots: list[int]
    places: list[int]


TRASH_SHAPES = GameShapes(view=TrashTable, events={
    "round_dealt": EventShape(TrashRoundDealt, private=TrashDealtCards),
    "card_drawn": EventShape(TrashCardDrawn),
    "card_placed": EventShape(TrashCardPlaced),
    "card_discarded": EventShape(TrashCardDiscarded),
    "turn_ended": EventShape(TrashTurnEnded),
    "turn_passed": EventShape(TrashTurnPassed),
    "stock_reshuffled": EventShape(TrashStockReshuffled, private=TrashStock),
    "round_won": EventShape(TrashRoundWon),
    "round_void": EventShape(TrashRoundVoid),
    "game_ended": EventShape(TrashGameEnded),
})
