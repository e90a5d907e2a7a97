"""Abort by agreement: the people still playing may call a game off, with no result and
no rating, until its first round is scored (every game's `round_scored`; its Decision line
says what a round is there).

Each vote is an event (`abort_voted`), and so is its withdrawal (`abort_vote_withdrawn`);
the vote that completes the agreement of every person in play is followed, in the same
append, by `game_aborted`. Bots have no say, nor do seats whose player resigned or left
(their votes lapse). Voting twice, or withdrawing a vote never cast, does nothing.
"""

from __future__ import annotations

from typing import Any

from domain.errors import AbortClosed
from domain.events import Event, event
from domain.game import Game
from domain.service.decide import check_in_play, check_playing
from domain.service.deps import Deps
from domain.service.table_change import change_table
from domain.table import Table


def abort_open(table: Table, game: Game[Any, Any]) -> bool:
    """May the game still be aborted by agreement?"""
    return table.status == "active" and not game.round_scored(table.game)


def vote(deps: Deps, game_id: str, seat: int) -> Table:
    def decide(table: Table, game: Game[Any, Any]) -> list[Event]:
        if table.status == "aborted" or seat in table.abort_votes:
            return []
        check_playing(table)
        check_in_play(table, seat)
        if not abort_open(table, game):
            raise AbortClosed("the first round is scored: the game can no longer be "
                              "aborted (resign or leave instead)")
        return [event("abort_voted", actor=seat, seat=seat)]

    return change_table(deps, game_id, decide, "voting to abort")


def withdraw(deps: Deps, game_id: str, seat: int) -> Table:
    def decide(table: Table, _game: Game[Any, Any]) -> list[Event]:
        check_playing(table)
        if seat not in table.abort_votes:
            return []
        return [event("abort_vote_withdrawn", actor=seat, seat=seat)]

    return change_table(deps, game_id, decide, "withdrawing a vote to abort")
