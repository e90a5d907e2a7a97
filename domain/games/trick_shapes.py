"""The JSON shapes of the trick engine's view and events (Ochs & Esel, Crazy Donkey).

Declared for publication (`domain.shapes`); the code that builds them is in
`domain.games.trick_engine`. On the wire a number card is its value (1-13) and the other
cards are named.
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict

import msgspec

from domain.game import EventShape, GameShapes
from domain.shapes import Played

NumberCard = Annotated[int, msgspec.Meta(ge=1, le=13)]
TrickCard = NumberCard | Literal["joker", "ox", "donkey"]
Seat = Annotated[int, msgspec.Meta(ge=0)]


# --- the view ----------------------------------------------------------------------------
class TrickPlayShown(TypedDict):
    """One play of the current trick: a lead of the donkey or the ox (`card`), a pass, or a
    set (`value`, `numbers` cards of it and `jokers` jokers, and the `cards`)."""

    seat: Seat
    action: Literal["lead", "pass", "play"]
    card: NotRequired[Literal["donkey", "ox"]]
    value: NotRequired[int]
    numbers: NotRequired[int]
    jokers: NotRequired[int]
    cards: NotRequired[list[TrickCard]]


class TrickNow(TypedDict):
    """The trick being played."""

    number: int
    leader: Seat | None
    kind: Literal["normal", "donkey", "ox"]
    count: int | None
    high: int | None
    high_seat: Seat | None
    plays: list[TrickPlayShown]


class TrickSpecial(TypedDict):
    """Where the donkey (the ox) is, and from which trick it may be led."""

    where: Literal["centre", "hand", "table", "pile"]
    seat: Seat | None
    playable_from_trick: int
    locked: bool


class TrickSpecials(TypedDict):
    donkey: TrickSpecial
    ox: NotRequired[TrickSpecial]


class TrickPenaltyPile(TypedDict):
    """An ox penalty pile: face down, its cards shown only after the end."""

    count: int
    cards: NotRequired[list[TrickCard]]


class TrickTable(TypedDict):
    """A seat's view of an Ochs & Esel or Crazy Donkey game: everything is public but the
    hands; `hand` is the viewer's own, `hands` every hand once the game is over."""

    game: Literal["ochs-und-esel", "crazy-donkey"]
    players: int
    round: int
    rounds: int
    ox_variant: bool
    over: bool
    to_act: Seat | None
    trick: TrickNow
    hand_sizes: list[int]
    known_cards: list[list[TrickCard]]
    centre: list[TrickCard]
    specials: TrickSpecials
    penalty_piles: list[TrickPenaltyPile]
    out_of_play: list[TrickCard]
    scores: list[list[int]]
    totals: list[int]
    hand: NotRequired[list[TrickCard]]
    hands: NotRequired[list[list[TrickCard]]]


# --- the events --------------------------------------------------------------------------
class TrickFirstPlayerChosen(TypedDict):
    seat: Seat
    random: bool


class TrickRoundDealt(TypedDict):
    """A deal: the hand sizes, who leads, who holds the donkey (null in the ox variant,
    whose specials lie in the `centre`); Crazy Donkey adds where the donkey was shuffled
    in and who was dealt the first card. Each hand is its seat's private part."""

    round: int
    leader: Seat
    hand_sizes: list[int]
    donkey: Seat | None
    centre: list[TrickCard]
    donkey_position: NotRequired[int]
    first_card_to: NotRequired[Seat]


class TrickHand(TypedDict):
    hand: list[TrickCard]


class TrickSetPlayed(Played):
    value: int
    numbers: int
    jokers: int


class TrickPassed(Played):
    forced: NotRequired[bool]


class TrickCardPlayed(Played):
    """The one card of a donkey or ox trick; `value` is a joker's declared worth."""

    card: NumberCard | Literal["joker"]
    value: int


class TrickTaken(TypedDict):
    trick: int
    seat: Seat


class TrickDonkeyTrickTaken(TypedDict):
    trick: int
    seat: Seat
    cards: list[TrickCard]


class TrickOxTrickTaken(TypedDict):
    trick: int
    seat: Seat
    count: int


class TrickRoundScored(TypedDict):
    """Penalties of the round per seat: cards left in hand, the ox pile, and their sum;
    `out` lists the seats whose hands were empty."""

    round: int
    hand_penalties: list[int]
    pile_penalties: list[int]
    penalties: list[int]
    out: list[Seat]


class TrickGameEnded(TypedDict):
    totals: list[int]
    places: list[int]


class TrickLed(Played):
    """The donkey (the ox) led alone."""


TRICK_SHAPES = GameShapes(view=TrickTable, events={
    "first_player_chosen": EventShape(TrickFirstPlayerChosen),
    "round_dealt": EventShape(TrickRoundDealt, private=TrickHand),
    "set_played": EventShape(TrickSetPlayed),
    "passed": EventShape(TrickPassed),
    "donkey_led": EventShape(TrickLed),
    "ox_led": EventShape(TrickLed),
    "card_played": EventShape(TrickCardPlayed),
    "trick_won": EventShape(TrickTaken),
    "donkey_trick_taken": EventShape(TrickDonkeyTrickTaken),
    "ox_trick_taken": EventShape(TrickOxTrickTaken),
    "ox_taken": EventShape(TrickTaken),
    "donkey_taken": EventShape(TrickTaken),
    "round_scored": EventShape(TrickRoundScored),
    "game_ended": EventShape(TrickGameEnded),
})
