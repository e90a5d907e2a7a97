"""Table actions: what a seat may do to the table itself, beside the game's moves.

A view lists the ones that apply to its viewer now (`table_actions` in `GET /games/{id}`),
each as `{name, method, href}` and, for one that takes a body, `body`: the request to
send, complete, with the caller's own credential (one entry per choice: `leave` is listed
once per bot level). Like `legal_actions`, the list spares a client the rules of when each
applies. To add one, add a `TableAction` to `TABLE_ACTIONS` and the endpoint it names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from domain.bots.levels import LEVELS
from domain.game import Game
from domain.table import Table, may_take_back


class TableAction(NamedTuple):
    name: str
    method: str
    path: str  # under /games/{id}/
    applies: Callable[[Table, Game[Any, Any], int], bool]  # (table, its game, viewer's seat)
    bodies: tuple[dict[str, Any], ...] = ()  # one entry per body; none: no body


def _creator_seat(table: Table, _game: Game[Any, Any], seat: int) -> bool:
    return table.created_by is not None and table.seats[seat].player == table.created_by


def _playing(table: Table, _game: Game[Any, Any], seat: int) -> bool:
    """The game is on and the viewer still plays their seat."""
    return table.status == "active" and table.seats[seat].in_play


def _may_vote(table: Table, game: Game[Any, Any], seat: int) -> bool:
    return _playing(table, game, seat) and seat not in table.abort_votes and \
        not game.round_scored(table.game)


TABLE_ACTIONS: tuple[TableAction, ...] = (
    # After the end, any seat asks for (or joins) the one rematch.
    TableAction("rematch", "POST", "rematch", lambda t, g, seat: t.status == "finished"),
    # Before the start, the creating player may call the game off (the creator token, which
    # names no seat, may too: see POST /games/{id}/cancel).
    TableAction("cancel", "POST", "cancel",
                lambda t, g, seat: t.status == "open" and _creator_seat(t, g, seat)),
    # While the game is played: concede, or hand the seat to a bot of a chosen level.
    TableAction("resign", "POST", "resign", _playing),
    TableAction("leave", "POST", "leave", _playing,
                tuple({"level": level} for level in LEVELS)),
    # Until the first round is scored, agree to abort (and take the vote back).
    TableAction("abort", "POST", "abort", _may_vote),
    TableAction("withdraw_abort", "DELETE", "abort",
                lambda t, g, seat: t.status == "active" and seat in t.abort_votes),
    # The seat's last action, before anyone else acts, when its game allows it.
    TableAction("take_back", "POST", "take-back", lambda t, g, seat: may_take_back(t, seat)),
)


def table_actions(table: Table, game: Game[Any, Any], viewer: int | None) -> list[dict[str, Any]]:
    """The table actions open to seat `viewer` (none for a spectator)."""
    if viewer is None:
        return []
    out: list[dict[str, Any]] = []
    for a in TABLE_ACTIONS:
        if a.applies(table, game, viewer):
            entry = {"name": a.name, "method": a.method, "href": f"/games/{table.id}/{a.path}"}
            out.extend([{**entry, "body": body} for body in a.bodies] or [entry])
    return out
