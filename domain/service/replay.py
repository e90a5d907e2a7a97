"""Replay: a table folded from the log, from its start or from the nearest checkpoint, and
a viewer's view of the game as it was after any event."""

from __future__ import annotations

from typing import Any

from domain import registry
from domain.errors import UnknownGame
from domain.game import Game
from domain.service.deps import Deps
from domain.service.loading import load
from domain.service.views import table_view
from domain.store.port import EventStore
from domain.table import Table, decode_table, evolve_table


def rebuild(store: EventStore, game_id: str, until: int | None = None) -> Table:
    """Fold the log from its first event (replay, verification, lost snapshots); with
    `until`, from the checkpoint at or before it."""
    start: Table | None = None
    after = 0
    if until is not None:
        ckpt = store.checkpoint_at_or_before(game_id, until)
        if ckpt is not None:
            after, raw = ckpt
            start = decode_table(raw, registry.games())
    events = store.read(game_id, after=after, until=until)
    if start is None and not events:
        raise UnknownGame(f"no game {game_id!r}")
    table = start
    game: Game[Any, Any] | None = registry.get_game(start.type) if start else None
    for ev in events:
        if game is None:
            game = registry.get_game(ev.data["type"])
        table = evolve_table(table, ev, game)
    assert table is not None
    return table


def state_at(deps: Deps, game_id: str, seq: int, viewer: int | None) -> dict[str, Any]:
    """The viewer's view right after event `seq`: everything, once the game is over."""
    now, _ = load(deps, game_id)
    if not 1 <= seq <= now.version:
        raise UnknownGame(f"no event {seq} in game {game_id!r}", code="unknown_seq")
    past = rebuild(deps.store, game_id, until=seq)
    game = registry.get_game(past.type)
    return table_view(past, game, viewer, now=past.updated_at,
                      reveal_all=now.status == "finished")
