"""Resigning: a seat concedes the game.

The seat is placed last (every game's Decision line on resigning says so in its terms:
`domain.table.ruled_outcome`), and the basic bot plays it to the end so that the others
can finish; when nothing is left to play for, the game ends at once. Resigning twice is
fine (the second does nothing); a seat left to a bot cannot resign any more.
"""

from __future__ import annotations

from typing import Any

from domain.events import Event, event
from domain.game import Game
from domain.service.decide import check_in_play, check_playing
from domain.service.deps import Deps
from domain.service.table_change import change_table
from domain.table import Table


def resign(deps: Deps, game_id: str, seat: int) -> Table:
    def decide(table: Table, _game: Game[Any, Any]) -> list[Event]:
        if table.seats[seat].resigned:
            return []
        check_playing(table)
        check_in_play(table, seat)
        return [event("seat_resigned", actor=seat, seat=seat)]

    return change_table(deps, game_id, decide, "resigning")
