"""The JSON shapes of the Grand Canyon game's view and events, declared for publication
(`domain.shapes`); the code that builds them is in `view` and `game`.

A load card on the table is `[owner, value]` (each player has one colour of cards 1-10);
a card in a hand is its value.
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict

import msgspec

from domain.game import EventShape, GameShapes
from domain.shapes import Played

Seat = Annotated[int, msgspec.Meta(ge=0)]
Value = Annotated[int, msgspec.Meta(ge=1, le=10)]
CanyonCard = tuple[Seat, Value]
DonkeyType = Literal["normal", "giant", "puny", "precision", "hurried", "holed", "attacked",
                     "lost", "double", "stubborn", "difficult", "picky"]
Phase = Literal["setup", "load", "favours", "looks", "contract", "late_favours", "reward",
                "over", "next_donkey", "set_aside", "reveal", "score", "round_end"]
DonkeyDeck = dict[DonkeyType, Annotated[int, msgspec.Meta(ge=0)]] | list[DonkeyType]


# --- the view ----------------------------------------------------------------------------
class CanyonOptionsShown(TypedDict):
    donkey_deck: DonkeyDeck
    first_player: Seat | Literal["random"]


class CanyonDonkeyShown(TypedDict):
    """The donkey of this round: its card, the type it acts as, its capacity (or the
    precision donkey's largest gap), how many load cards each player plays."""

    type: DonkeyType
    effect: DonkeyType
    capacity: int | None
    gap: int | None
    loads_each: int
    resumed: bool


class CanyonSeatShown(TypedDict):
    """What everyone sees of a seat; its face-down load cards are null until the reveal."""

    seat: Seat
    hand_size: int
    loaded: bool
    load: list[CanyonCard | None]
    favours_used: int
    favour: int | None
    looks_left: int
    looked: list[tuple[Seat, int]]
    contract: Literal["accept", "refuse"] | None
    won: list[CanyonCard]
    total: int
    won_cards: int
    buried: int


class CanyonYou(TypedDict):
    """The viewer's own cards: hand, loads, loads set aside and buried, and the cards it
    looked at (`[seat, slot, value]`)."""

    seat: Seat
    hand: list[Value]
    load: list[CanyonCard]
    set_aside: list[list[Value]]
    buried: list[Value]
    looks: list[tuple[Seat, int, Value]]
    known_buried: list[CanyonCard]


class CanyonStandings(TypedDict):
    totals: list[int]
    won_cards: list[int]
    places: list[int]


class CanyonEverything(TypedDict):
    """Everything hidden during the game, shown after its end."""

    hands: list[list[Value]]
    loads: list[list[CanyonCard]]
    set_aside: list[list[list[CanyonCard]]]
    buried: list[list[Value]]
    looks: list[list[tuple[Seat, int, Value]]]
    deck: list[DonkeyType]
    removed_donkeys: list[DonkeyType]


class CanyonTable(TypedDict):
    """A seat's view of a Grand Canyon game: the public facts, `you` (a seat's own cards),
    `outcome` once over, `all` after the end. `exchanges` are favour-4 exchanges as
    `[seat, slot, card sent back or null when the viewer cannot know it]`; `unseen[j]` the
    values of seat j's colour whose place the viewer does not know."""

    game: Literal["canyon-donkeys"]
    players: int
    options: CanyonOptionsShown
    phase: Phase
    round: int
    first_player: Seat
    to_act: list[Seat]
    order: list[Seat]
    turn: int
    donkey: CanyonDonkeyShown | None
    donkeys_left: int
    donkeys_removed: int
    donkeys_seen: list[DonkeyType]
    set_aside: list[list[int]]
    face_up: list[CanyonCard]
    exchanges: list[tuple[Seat, int, Value | None]]
    revealed: bool
    overloaded: bool | None
    removed: list[CanyonCard]
    excluded: list[Seat]
    discard: list[CanyonCard]
    favour_cards: list[CanyonCard]
    seats: list[CanyonSeatShown]
    unseen: list[list[Value]]
    you: NotRequired[CanyonYou]
    outcome: NotRequired[CanyonStandings]
    all: NotRequired[CanyonEverything]


# --- the events --------------------------------------------------------------------------
class CanyonDonkeysDrawn(TypedDict):
    players: int
    first_player: Seat
    donkeys: int


class CanyonDeck(TypedDict):
    deck: list[DonkeyType]


class CanyonDonkeyRevealed(TypedDict):
    round: int
    donkey: DonkeyType
    effect: DonkeyType
    left: int
    capacity: NotRequired[int]
    gap: NotRequired[int]


class CanyonDonkeyRemoved(TypedDict):
    left: int


class CanyonRemovedDonkey(TypedDict):
    donkey: DonkeyType


class CanyonLostResumed(TypedDict):
    round: int
    capacity: int


class CanyonLoadPlayed(Played):
    """`count` cards loaded face down (`face_up` lists them when the difficult donkey
    shows them); the values are the loader's private part."""

    seat: Seat
    count: int
    face_up: list[Value]


class CanyonLoadCards(TypedDict):
    cards: list[Value]


class CanyonSeatActed(Played):
    seat: Seat


class CanyonFavourCalled(Played):
    seat: Seat
    card: Value


class CanyonCardLooked(Played):
    seat: Seat
    target: Seat
    slot: int


class CanyonLookedValue(TypedDict):
    value: Value


class CanyonContractChosen(Played):
    seat: Seat
    accept: bool


class CanyonLoadExchanged(Played):
    """`returned` is public only if the card was face up."""

    seat: Seat
    slot: int
    returned: Value | None


class CanyonExchangedCards(TypedDict):
    returned: Value
    card: Value


class CanyonLimitAdjusted(Played):
    seat: Seat
    delta: int
    limit: int


class CanyonCardChosen(Played):
    seat: Seat
    card: CanyonCard


class CanyonLoadsSwapped(Played):
    seat: Seat
    give: CanyonCard
    take: CanyonCard
    target: Seat


class CanyonRound(TypedDict):
    round: int


class CanyonLoadsBuried(TypedDict):
    refused: int


class CanyonLoadsRevealed(TypedDict):
    loads: list[list[CanyonCard]]
    removed: list[CanyonCard]
    excluded: list[Seat]
    total: int
    overloaded: bool


class CanyonRoundScored(TypedDict):
    """Who won which card (`[seat, card]`), and the cards discarded."""

    overloaded: bool
    won: list[tuple[Seat, CanyonCard]]
    discarded: list[CanyonCard]


class CanyonRoundEnded(TypedDict):
    round: int
    first_player: Seat


CANYON_SHAPES = GameShapes(view=CanyonTable, option_types={"donkey_deck": DonkeyDeck}, events={
    "donkeys_drawn": EventShape(CanyonDonkeysDrawn, private=CanyonDeck),
    "donkey_revealed": EventShape(CanyonDonkeyRevealed),
    "donkey_removed": EventShape(CanyonDonkeyRemoved, private=CanyonRemovedDonkey),
    "lost_resumed": EventShape(CanyonLostResumed),
    "load_played": EventShape(CanyonLoadPlayed, private=CanyonLoadCards),
    "favour_declined": EventShape(CanyonSeatActed),
    "favour_called": EventShape(CanyonFavourCalled),
    "looks_declined": EventShape(CanyonSeatActed),
    "card_looked": EventShape(CanyonCardLooked, private=CanyonLookedValue),
    "contract_chosen": EventShape(CanyonContractChosen),
    "exchange_declined": EventShape(CanyonSeatActed),
    "load_exchanged": EventShape(CanyonLoadExchanged, private=CanyonExchangedCards),
    "limit_adjusted": EventShape(CanyonLimitAdjusted),
    "card_chosen": EventShape(CanyonCardChosen),
    "swap_declined": EventShape(CanyonSeatActed),
    "loads_swapped": EventShape(CanyonLoadsSwapped),
    "loads_set_aside": EventShape(CanyonRound),
    "loads_buried": EventShape(CanyonLoadsBuried),
    "loads_revealed": EventShape(CanyonLoadsRevealed),
    "round_scored": EventShape(CanyonRoundScored),
    "round_ended": EventShape(CanyonRoundEnded),
    "game_ended": EventShape(CanyonStandings),
})
