"""Replay: a table folded from the log, from its start or from the nearest checkpoint; the
table at a version (for a retried action's answer, for the views an event stream pushes);
and a viewer's view of the game as it was after any event."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.errors import UnknownGame
from domain.events import Event
from domain.registry import GameRegistry
from domain.service.deps import Deps
from domain.service.loading import fold_events, fold_log, kept_undo, load
from domain.service.views import table_view
from domain.store.port import GameLog
from domain.table import DELETED_NAME, Table
from domain.texts import Translate


def rebuild(store: GameLog, games: GameRegistry, game_id: str,
            until: int | None = None) -> Table:
    """Fold the log from its first event (replay, verification, lost snapshots); with
    `until`, from the checkpoint at or before it. The table is as a fold from the first
    event makes it: its take-back keeps the table before the action."""
    return kept_undo(store, games, fold_log(store, games, game_id, until))


def table_at(deps: Deps, game_id: str, version: int, recent: Sequence[Event] = ()) -> Table:
    """The table at `version`, remembered afterwards (it never changes): remembered by this
    process already; else a remembered earlier table with `recent` (the log's events up to
    `version`, as an event stream holds them) folded in; else folded from the checkpoint
    at or before it. The first two cost no read of the store."""
    tables = deps.remembered.tables
    table = tables.get((game_id, version))
    if table is None:
        table = _fold_recent(deps, game_id, version, recent)
    if table is None or _names_erased_since(deps, table):
        table = rebuild(deps.store, deps.games, game_id, until=version)
    tables.put((game_id, version), table)
    return table


def _names_erased_since(deps: Deps, table: Table) -> bool:
    """Was a seat's player erased since this process remembered `table` (the newest table
    it knows of the game says so)? The erasure rewrote the log and the checkpoints, so a
    table folded again from them shows the seat as a deleted player, as every other
    process does."""
    newest = deps.remembered.newest_table(table.id)
    return newest is not None and any(
        now.name == DELETED_NAME and then.name not in (None, DELETED_NAME)
        for now, then in zip(newest.seats, table.seats, strict=True))


def _fold_recent(deps: Deps, game_id: str, version: int,
                 recent: Sequence[Event]) -> Table | None:
    events = [e for e in recent if e.seq <= version]
    if not events or events[-1].seq != version:
        return None
    for start in range(len(events) - 1, -1, -1):  # the latest remembered table first
        table = deps.remembered.tables.get((game_id, events[start].seq - 1))
        if table is not None:
            return fold_events(deps.store, deps.games, table, events[start:])
    return None


def state_at(deps: Deps, game_id: str, seq: int, viewer: int | None,
             words: Translate | None = None) -> dict[str, Any]:
    """The viewer's view right after event `seq`: everything, once the game is over (with
    `words`: labelled and laid out)."""
    now, _ = load(deps, game_id)
    if not 1 <= seq <= now.version:
        raise UnknownGame(f"no event {seq} in game {game_id!r}", code="unknown_seq")
    past = rebuild(deps.store, deps.games, game_id, until=seq)
    game = deps.games.game(past.type)
    return table_view(past, game, viewer, now=past.updated_at,
                      reveal_all=now.status == "finished", words=words)
