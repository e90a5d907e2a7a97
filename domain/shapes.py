"""The JSON shapes of what a game shows: its view and the data of its events.

A view is a plain dict and an event's `data` a plain dict, built by each game's code. Their
shapes are declared next to that code as TypedDicts (`domain.game.GameShapes`), so that they can be
published: the API turns them into JSON Schema for its OpenAPI document, and a test plays
random games of every registered game and validates every view and event against them,
so a shape cannot drift from the code that builds it.

This module holds what the games' shapes share, and the shapes of the table's own events
(`domain.table`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NotRequired, TypedDict

from domain.game import EventShape, Outcome


class Played(TypedDict, total=False):
    """Base of the data of every event a seat's action causes (it has an `actor`): when the
    server played for the seat, `auto` says why (`domain.service`): its time ran out, it
    is away, or the move was its only one and forced (`domain.service.forced`)."""

    auto: Literal["timeout", "away", "forced"]
    # The action's events, this one and those after it, that its seat may take back
    # (`domain.table.Undo`): only on the first event of an action that may be.
    undoable: int


class Empty(TypedDict):
    """An event with no public data."""


# --- the table's events ------------------------------------------------------------------
OptionValue = int | float | bool | str | None | list[str] | dict[str, int]


class SeatCreated(TypedDict):
    """A seat as the game was created with it: a bot of a level; a human seat open to
    anyone, kept for an invited player (`invited`: the player's id, and `name`), or kept
    for whoever held seat `rematch_seat` of the game this one is the rematch of."""

    kind: Literal["human", "bot"]
    level: NotRequired[Literal["random", "basic", "strong", "expert"]]
    invited: NotRequired[str]
    name: NotRequired[str]
    rematch_seat: NotRequired[int]


class TimeControlCreated(TypedDict):
    """A correspondence time control (`domain.clocks`): a bank per seat, its increment
    each time the seat's turn passes, and whether vacations stop the clocks."""

    kind: Literal["correspondence"]
    bank_s: float
    increment_s: float
    vacation: bool


class GameCreated(TypedDict):
    id: str
    type: str
    options: dict[str, OptionValue]
    seats: list[SeatCreated]
    deadline_s: float | None
    on_timeout: Literal["autoplay", "away"]
    time_control: NotRequired[TimeControlCreated]  # a correspondence clock
    bot_delay_s: float
    seed_hash: str
    created_by: NotRequired[str]  # the player who created it
    # An invited player's name erased at their request (the event keeps its first hash).
    name_erased: NotRequired[bool]
    rematch_of: NotRequired[str]  # the finished game this one is the rematch of


class PlayerJoined(TypedDict):
    seat: int
    name: str | None
    player: NotRequired[str]  # the player's id, when a player took the seat
    bot: NotRequired[bool]  # the player is a bot account (a program playing for itself)
    # The player's name erased at their request (the event keeps its first hash).
    name_erased: NotRequired[bool]


class PlayerErased(TypedDict):
    seats: list[int]  # the seats whose player erased their account: a deleted player now


class RematchCreated(TypedDict):
    game: str  # the rematch's id


class OneSeat(TypedDict):
    seat: int


class TimedOut(TypedDict):
    seat: int
    away: NotRequired[bool]  # the `away` ruling: the seat is marked away at once


class MoveTakenBack(TypedDict):
    seat: int
    first: int  # the events of the action taken back, from first to last: the fold
    last: int  # undoes them (the log keeps them)


class ForcedMovesSet(TypedDict):
    seat: int
    auto: bool  # the seat's forced moves play themselves from now on (or no longer)


class VacationStarted(TypedDict):
    seat: int
    until: float  # the seat's clock is stopped until then (epoch seconds)


class SeatLeft(TypedDict):
    seat: int
    level: Literal["random", "basic", "strong", "expert"]  # the bot that plays it from now on


class GameFinished(TypedDict):
    seed: str
    outcome: Outcome


TABLE_EVENTS: Mapping[str, EventShape] = {
    "game_created": EventShape(GameCreated),
    "player_joined": EventShape(PlayerJoined),
    "game_started": EventShape(Empty),
    "turn_timed_out": EventShape(TimedOut),
    "seat_returned": EventShape(OneSeat),
    "game_finished": EventShape(GameFinished),
    "game_cancelled": EventShape(Empty),
    "rematch_created": EventShape(RematchCreated),
    "seat_resigned": EventShape(OneSeat),
    "seat_left": EventShape(SeatLeft),
    "abort_voted": EventShape(OneSeat),
    "abort_vote_withdrawn": EventShape(OneSeat),
    "game_aborted": EventShape(Empty),
    "vacation_started": EventShape(VacationStarted),
    "vacation_ended": EventShape(OneSeat),
    "forced_moves_set": EventShape(ForcedMovesSet),
    "move_taken_back": EventShape(MoveTakenBack),
    "player_erased": EventShape(PlayerErased),
}
