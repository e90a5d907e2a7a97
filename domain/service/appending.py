"""Writing a batch: one append at an expected version (with the hooks' timer changes, where
the store can apply them), then the listings (the games', the lobby's, the players'
inboxes) and the hooks."""

from __future__ import annotations

from domain.errors import NotReplicated
from domain.service.deps import Deps
from domain.service.folding import Batch
from domain.service.inbox import follow_append
from domain.store.port import SNAPSHOT_EVERY, Idempotency
from domain.table import Table, encode_table

# Events after which the game's listing entry changes (its status, a free seat).
_LISTED_AFTER = ("game_started", "game_finished", "game_cancelled", "game_aborted",
                 "player_joined")


def append(deps: Deps, table: Table, batch: Batch, expected: int,
           token: tuple[str, int] | None = None,
           idempotency: Idempotency | None = None,
           before: Table | None = None) -> Idempotency | None:
    """Append a batch that leads from `before` (the table at `expected`; None: write
    every player's inbox position) to `table`; returns the key's record if the idempotency
    key was used before (then nothing was written). Raises VersionConflict, and
    NotReplicated once everything that follows the append was done, if the store's
    replicas did not confirm it in time."""
    snapshot = encode_table(table) if snapshot_due(expected, table) else None
    # The hooks' timers, written by the append itself where the store can (one round
    # trip less per move); the hooks write those the store could not.
    timers = deps.hooks.timer_changes(table, batch.events)
    result = deps.store.append(table.id, expected, batch.events, snapshot,
                               checkpoint=batch.checkpoint, token=token,
                               idempotency=idempotency, timers=timers)
    if result.duplicate is not None:
        return result.duplicate
    if expected == 0 or any(e.type in _LISTED_AFTER for e in batch.events):
        deps.store.index(table.id, table.type, table.status, table.created_at,
                         free_seat=table.has_free_seat())
    follow_append(deps, before, table, batch.events)
    deps.hooks.after_append(table, batch.events, result.webhooks,
                            timers if result.timers_applied else None)
    if not result.replicated:
        raise NotReplicated(table.id, result.version)
    return None


def snapshot_due(expected: int, table: Table) -> bool:
    """Is the snapshot written with this append? With a game's first append, with one
    that reaches a multiple of SNAPSHOT_EVERY (so the stored snapshot is never that many
    events behind) and with the last (a finished or cancelled game is read without
    folding)."""
    return (expected == 0 or table.version // SNAPSHOT_EVERY > expected // SNAPSHOT_EVERY
            or table.status in ("finished", "cancelled"))
