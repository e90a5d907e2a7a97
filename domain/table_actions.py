"""Table actions: what a seat may do to the table itself, beside the game's moves.

A view lists the ones that apply to its viewer now (`table_actions` in `GET /games/{id}`),
each as `{name, method, href}`: the request to send, with the caller's own credential.
Like `legal_actions`, the list spares a client the rules of when each applies. To add one
(resign, leave, abort by agreement, …), add a `TableAction` to `TABLE_ACTIONS` and the
endpoint it names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from domain.table import Table


class TableAction(NamedTuple):
    name: str
    method: str
    path: str  # under /games/{id}/
    applies: Callable[[Table, int], bool]  # (table, the viewer's seat)


def _creator_seat(table: Table, seat: int) -> bool:
    return table.created_by is not None and table.seats[seat].player == table.created_by


TABLE_ACTIONS: tuple[TableAction, ...] = (
    # After the end, any seat asks for (or joins) the one rematch.
    TableAction("rematch", "POST", "rematch", lambda t, seat: t.status == "finished"),
    # Before the start, the creating player may call the game off (the creator token, which
    # names no seat, may too: see POST /games/{id}/cancel).
    TableAction("cancel", "POST", "cancel",
                lambda t, seat: t.status == "open" and _creator_seat(t, seat)),
)


def table_actions(table: Table, viewer: int | None) -> list[dict[str, Any]]:
    """The table actions open to seat `viewer` (none for a spectator)."""
    if viewer is None:
        return []
    return [{"name": a.name, "method": a.method, "href": f"/games/{table.id}/{a.path}"}
            for a in TABLE_ACTIONS if a.applies(table, viewer)]
