"""Reading without acting: a game's log for a viewer, the games listed, the active ones."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from typing import Any

from domain import registry
from domain.redaction import redact
from domain.service.deps import Deps
from domain.service.loading import load
from domain.store.port import EventStore
from domain.table import Table, decode_table


def events_for(deps: Deps, game_id: str, viewer: int | None, after: int = 0,
               wait_s: float = 0.0, limit: int = 1000) -> tuple[list[dict[str, Any]], Table]:
    """The log after `after` as `viewer` may see it (waiting up to `wait_s` for the first
    new event), and the table as it is now."""
    events = deps.store.read(game_id, after=after, count=limit)
    if not events and wait_s > 0:
        events = deps.store.wait(game_id, after, wait_s, count=limit)
    table, _ = load(deps, game_id)
    reveal = table.status == "finished"
    return [redact(e, viewer, reveal) for e in events], table


def list_games(store: EventStore, status: str | None, game_type: str | None, offset: int,
               limit: int, free_seat: bool = False) -> tuple[list[Table], int]:
    """One page of games, newest first, and how many match: two reads of the store.
    `free_seat`: only those with a seat anyone may take (the lobby)."""
    ids, total = store.list_ids(status, game_type, offset=offset, limit=limit,
                                free_seat=free_seat)
    games = registry.games()
    return [decode_table(raw, games) for raw in store.snapshots(ids) if raw is not None], total


def active_games(store: EventStore, batch: int = 500) -> Iterator[Table]:
    """Every game being played, loaded from its snapshot `batch` games at a time."""
    games = registry.games()
    ids = store.scan_ids("active", batch)
    while chunk := list(islice(ids, batch)):
        for raw in store.snapshots(chunk):
            if raw is not None:
                table = decode_table(raw, games)
                if table.status == "active":  # the index is written after the append
                    yield table
