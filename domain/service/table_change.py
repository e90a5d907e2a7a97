"""The one loop of the table-life commands (resign, leave, abort by agreement, the seats'
settings and vacations, taking a move back): read the latest table, decide the table's
events, settle what follows (the end, the abort, forced moves that play themselves),
append at the version read, and start again when another writer got there first."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from domain.errors import VersionConflict
from domain.events import Event
from domain.game import Game
from domain.service.appending import append
from domain.service.deps import Deps
from domain.service.folding import Batch, fold, settle
from domain.service.forced import play_forced
from domain.service.loading import kept_undo, load_to_act
from domain.service.retry import with_retries
from domain.table import Table

CHANGE_ATTEMPTS = 5  # a bot's move may land between the read and the append

# (the latest table, its game) -> the events to append; none: nothing to do (asked twice)
Decision = Callable[[Table, Game[Any, Any]], list[Event]]


def change_table(deps: Deps, game_id: str, decide: Decision, what: str,
                 taking_back: bool = False) -> Table:
    """The table after `decide`'s events and what they settle (or as it was, when there
    was nothing to do). `decide` raises the domain's errors to refuse. `taking_back`: the
    table read keeps the table before its last action (`kept_undo`: a snapshot does not)."""

    def attempt(_n: int) -> Table | None:
        loaded = load_to_act(deps, game_id)
        before = loaded.table
        if taking_back:
            before = kept_undo(deps.store, deps.games, before)
        game = deps.games.game(before.type)
        new = decide(before, game)
        if not new:
            return before
        batch = Batch()
        table = fold(before, game, new, batch, deps.clock)
        table = settle(table, game, loaded.seed, batch, deps.clock)
        table = play_forced(table, game, loaded.seed, batch, deps.clock)
        try:
            append(deps, table, batch, expected=before.version, before=before)
        except VersionConflict:
            return None  # the game moved meanwhile: decide again on the latest
        return table

    return with_retries(CHANGE_ATTEMPTS, attempt, what)
