"""The JSON shapes of Crazy Eights' view and events, for the server's OpenAPI document."""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict

import msgspec

from domain.game import EventShape, GameShapes
from domain.shapes import Played

Card = Annotated[str, msgspec.Meta(pattern="^(A|[2-9]|10|J|Q|K)[CDHS]$")]
Suit = Literal["C", "D", "H", "S"]
Seat = Annotated[int, msgspec.Meta(ge=0)]


class EightsTable(TypedDict):
    """A seat's view: the discard pile (face up, top card last), the suit to follow, the
    stock's size, every hand's size; `hand` is the viewer's, `hands` every one after the
    end, `penalties` what each hand left costs once it is over."""

    game: Literal["crazy-eights"]
    players: int
    turn: Seat | None
    discard: list[Card]
    suit: Suit | None
    stock: int
    hand_sizes: list[int]
    passes: int
    over: bool
    winner: Seat | None
    penalties: list[int] | None
    hand: NotRequired[list[Card]]
    hands: NotRequired[list[list[Card]]]


class EightsDealt(TypedDict):
    """The deal: who plays first (drawn at random) and the card turned up to start the
    discard pile. Each hand is its seat's private part; the stock's order is the part no
    seat receives."""

    first: Seat
    starter: Card
    hand_sizes: list[int]
    stock: int


class EightsDealtPart(TypedDict):
    """A seat's part is its `hand`; the part no seat receives is the `stock`'s order."""

    hand: NotRequired[list[Card]]
    stock: NotRequired[list[Card]]


class EightsCardLaid(Played):
    seat: Seat
    card: Card
    suit: Suit  # the suit to follow now: the card's, or the one an eight names


class EightsSeat(Played):
    seat: Seat


class EightsDrawn(TypedDict):
    card: Card


class EightsEnded(TypedDict):
    """The end: the seat that went out (null when nobody could play any more), what each
    hand left costs, and the places."""

    winner: Seat | None
    penalties: list[int]
    places: list[int]


EIGHTS_SHAPES = GameShapes(view=EightsTable, events={
    "eights_dealt": EventShape(EightsDealt, private=EightsDealtPart),
    "card_laid": EventShape(EightsCardLaid),
    "stock_drawn": EventShape(EightsSeat, private=EightsDrawn),
    "player_passed": EventShape(EightsSeat),
    "hand_ended": EventShape(EightsEnded),
})
