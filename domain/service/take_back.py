"""Taking a move back: the seat that just acted takes its last action back, while no other
seat has acted since and its game rules that the action may be (nothing hidden revealed,
no randomness drawn: `domain.rulings`). The log is not edited: `move_taken_back` is an
event like any other (a webhook, a stream, a replay see both it and the action), which the
fold undoes (`domain.table.Undo`). The seat's clock is as it was before the action: the
time since it started waiting counts, and the increment it got is gone.
"""

from __future__ import annotations

from typing import Any

from domain.errors import GameRuleError
from domain.events import Event, event
from domain.game import Game
from domain.service.decide import check_in_play, check_playing
from domain.service.deps import Deps
from domain.service.table_change import change_table
from domain.table import Table, may_take_back


class TakeBackClosed(GameRuleError):
    code = "take_back_closed"


def take_back(deps: Deps, game_id: str, seat: int) -> Table:
    def decide(table: Table, _game: Game[Any, Any]) -> list[Event]:
        check_playing(table)
        check_in_play(table, seat)
        if not may_take_back(table, seat):
            raise TakeBackClosed(
                "you may take back only your own last action, before anyone else acts, "
                "and only one your game allows (nothing hidden revealed, nothing drawn at "
                "random: GET /games/types/{type}, the Decision lines on take-backs)")
        undo = table.undo
        assert undo is not None
        return [event("move_taken_back", actor=seat, seat=seat, first=undo.first,
                      last=undo.last)]

    return change_table(deps, game_id, decide, "taking a move back", taking_back=True)
