"""Leaving: a seat's player hands the seat to a bot of the level they choose, in an event
everybody sees (`seat_left`).

The bot plays the seat on, as well as its level plays, so that the others' game stays a
game; the seat itself is placed like a resigned one (a player does not leave a lost game
to escape its result). Leaving twice to the same level is fine; a seat resigned or left
to another level is refused.
"""

from __future__ import annotations

from typing import Any

from domain.bots.levels import LEVELS
from domain.errors import BadOptions
from domain.events import Event, event
from domain.game import Game
from domain.service.decide import check_in_play, check_playing
from domain.service.deps import Deps
from domain.service.table_change import change_table
from domain.table import Table


def leave(deps: Deps, game_id: str, seat: int, level: str) -> Table:
    if level not in LEVELS:
        raise BadOptions(f"bot level must be one of {', '.join(LEVELS)}", code="bad_bot_level")

    def decide(table: Table, _game: Game[Any, Any]) -> list[Event]:
        mine = table.seats[seat]
        if mine.left and mine.played_by == level:
            return []
        check_playing(table)
        check_in_play(table, seat)
        return [event("seat_left", actor=seat, seat=seat, level=level)]

    return change_table(deps, game_id, decide, "leaving")
