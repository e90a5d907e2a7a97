"""Writing a batch: one append at an expected version, then the listing and the hooks."""

from __future__ import annotations

from domain.service.deps import Deps
from domain.service.folding import Batch
from domain.table import Table, encode_table

# Events after which the game's listing entry changes (its status).
_LISTED_AFTER = ("game_started", "game_finished")


def append(deps: Deps, table: Table, batch: Batch, expected: int,
           token: tuple[str, int] | None = None,
           idempotency: tuple[str, bytes] | None = None) -> bytes | None:
    """Append a batch that leads to `table`; returns the first answer if the idempotency
    key was used before (then nothing was written). Raises VersionConflict."""
    result = deps.store.append(table.id, expected, batch.events, encode_table(table),
                               checkpoint=batch.checkpoint, token=token,
                               idempotency=idempotency)
    if result.duplicate is not None:
        return result.duplicate
    if expected == 0 or any(e.type in _LISTED_AFTER for e in batch.events):
        deps.store.index(table.id, table.type, table.status, table.created_at)
    deps.hooks.after_append(table, batch.events)
    return None
