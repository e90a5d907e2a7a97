"""Reading without acting: a game's log for a viewer, the games listed, the active ones."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from typing import Any

import msgspec

from domain.redaction import redact
from domain.registry import GameRegistry
from domain.service.deps import Deps
from domain.service.loading import load, stored_table
from domain.service.words import with_sentences
from domain.store.port import EventStore
from domain.table import OVER, Table
from domain.texts import Translate


def events_for(deps: Deps, game_id: str, viewer: int | None, after: int = 0,
               limit: int = 1000,
               words: Translate | None = None) -> tuple[list[dict[str, Any]], Table]:
    """The log after `after` as `viewer` may see it (with `words`, each event with its
    `sentence`), and the table as it is now. (Waiting for new events is the API's event
    hub's job: one connection per process.)"""
    events = deps.store.read(game_id, after=after, count=limit)
    table, _ = load(deps, game_id)
    reveal = table.status == "finished"
    shown = [redact(e, viewer, reveal) for e in events]
    if words is not None:
        with_sentences(table, deps.games.game(table.type), shown, words)
    return shown, table


def list_games(store: EventStore, games: GameRegistry, status: str | None,
               game_type: str | None, offset: int, limit: int,
               free_seat: bool = False) -> tuple[list[Table], int]:
    """One page of games, newest first, and how many match: two reads of the store.
    `free_seat`: only those with a seat anyone may take (the lobby). A game that is over
    is listed by its table alone, without its game state (its final board is in its own
    view): as an archived game's summary keeps it (`domain.archive.summary`)."""
    ids, total = store.list_ids(status, game_type, offset=offset, limit=limit,
                                free_seat=free_seat)
    tables = [stored_table(store, games, i, stored)
              for i, stored in zip(ids, store.snapshots(ids), strict=True) if stored is not None]
    return [msgspec.structs.replace(t, game=None) if t.status in OVER else t
            for t in tables], total


def active_games(store: EventStore, games: GameRegistry, batch: int = 500) -> Iterator[Table]:
    """Every game being played, loaded from its snapshot `batch` games at a time."""
    ids = store.scan_ids("active", batch)
    while chunk := list(islice(ids, batch)):
        for game_id, stored in zip(chunk, store.snapshots(chunk), strict=True):
            if stored is not None:
                table = stored_table(store, games, game_id, stored)
                if table.status == "active":  # the index is written after the append
                    yield table
