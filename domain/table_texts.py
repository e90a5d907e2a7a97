"""The table's own words: its seats' names and the sentences of its events (those every
game shares: joined, started, timed out, resigned, left, aborted, …). A game's own events
have the game's sentences (`Game.event_sentence`); an event nobody has words for yet is
named by its type, so the log never misses a line."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.table import Table
from domain.texts import Seat, Text, text


def seat_name(table: Table, seat: int) -> Text | str:
    """The seat's player's name, else "Seat 3" or "Bot 3 (basic)"."""
    if not 0 <= seat < len(table.seats):
        return text("Seat {number}", number=seat + 1)
    info = table.seats[seat]
    if info.name:
        return info.name
    if info.kind == "bot":
        return text("Bot {number} ({level})", number=seat + 1, level=info.level or "basic")
    return text("Seat {number}", number=seat + 1)


def _seat(ev: Mapping[str, Any]) -> Seat:
    return Seat(ev["data"]["seat"])


_SENTENCES: dict[str, Callable[[Mapping[str, Any]], Text]] = {
    "game_created": lambda ev: text("The table was set for {n} player.",
                                    plural="The table was set for {n} players.",
                                    n=len(ev["data"]["seats"])),
    "player_joined": lambda ev: text("{seat} sat down.", seat=_seat(ev)),
    "game_started": lambda ev: text("The game started."),
    "turn_timed_out": lambda ev: text("{seat} ran out of time.", seat=_seat(ev)),
    "seat_returned": lambda ev: text("{seat} is back.", seat=_seat(ev)),
    "game_finished": lambda ev: text("The game is over; its seed is revealed."),
    "game_cancelled": lambda ev: text("The game was cancelled."),
    "rematch_created": lambda ev: text("A rematch was set up."),
    "seat_resigned": lambda ev: text("{seat} resigned.", seat=_seat(ev)),
    "seat_left": lambda ev: text("{seat} left; a {level} bot plays on.", seat=_seat(ev),
                                 level=ev["data"]["level"]),
    "abort_voted": lambda ev: text("{seat} voted to abort the game.", seat=_seat(ev)),
    "abort_vote_withdrawn": lambda ev: text("{seat} took back their vote to abort.",
                                            seat=_seat(ev)),
    "game_aborted": lambda ev: text("The game was aborted."),
    "vacation_started": lambda ev: text("{seat} went on vacation.", seat=_seat(ev)),
    "vacation_ended": lambda ev: text("{seat} is back from vacation.", seat=_seat(ev)),
    "move_taken_back": lambda ev: text("{seat} took their last move back.", seat=_seat(ev)),
    "forced_moves_set": lambda ev: text(
        "{seat}'s forced moves play themselves from now on." if ev["data"]["auto"]
        else "{seat}'s forced moves wait for them from now on.", seat=_seat(ev)),
}


def table_sentence(event: Mapping[str, Any]) -> Text | None:
    """The sentence of one of the table's own events (None for a game's event)."""
    sentence = _SENTENCES.get(event["type"])
    return None if sentence is None else sentence(event)


def unknown_sentence(event: Mapping[str, Any]) -> Text:
    """The words of an event nobody has a sentence for: its type."""
    return text("{event}.", event=str(event["type"]).replace("_", " ").capitalize())

