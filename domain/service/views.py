"""The view builder: what a viewer (a seat, or None for a spectator) may see of a table."""

from __future__ import annotations

from typing import Any

import msgspec

from domain import clocks
from domain.game import Game
from domain.service import words as wording
from domain.table import Table, to_act
from domain.table_actions import table_actions
from domain.texts import Translate


def table_view(table: Table, game: Game[Any, Any], viewer: int | None, now: float,
               reveal_all: bool | None = None,
               words: Translate | None = None) -> dict[str, Any]:
    """What `viewer` may see of the table now; every entry of `legal_actions` is a complete
    action body the viewer may post unchanged. With `words` (a translator, e.g.
    `domain.texts.english`): each labelled in `action_labels` (same order) and the game's
    view laid out in `layout` (`domain.service.words`); else both are null."""
    reveal = table.status == "finished" if reveal_all is None else reveal_all
    acting = sorted(to_act(table, game))
    seats = [
        {"seat": i, "kind": s.kind, "level": s.level, "name": s.name, "taken": s.taken,
         "away": table.is_away(i), "timeouts_in_row": table.timeouts_in_row[i],
         "deadline": table.deadline(i), "player": s.player, "invited": s.invited,
         "rematch_seat": s.rematch_seat, "resigned": s.resigned, "left": s.left,
         "played_by": s.played_by, "bot_account": s.bot_account,
         "auto_forced": i in table.auto_forced,
         **_seat_clock(table, i, now)}
        for i, s in enumerate(table.seats)
    ]
    actions: list[Any] = []
    if viewer is not None and table.status == "active" and viewer in acting and \
            table.seats[viewer].in_play:
        actions = game.legal_actions(table.game, viewer)
    shown = game.view(table.game, viewer, reveal) if table.game is not None else None
    labels: list[dict[str, Any]] | None = None
    laid_out = None
    if words is not None:
        labels = []
    if shown is not None and words is not None:
        names = wording.seat_names(table, words)
        labels = wording.action_labels(game, shown, actions, names, words)
        laid_out = wording.layout(game, shown, viewer, names, words)
    return {
        "id": table.id,
        "type": table.type,
        "status": table.status,
        "version": table.version,
        "options": table.options,
        "seats": seats,
        "you": viewer,
        "to_act": acting,
        "deadline_s": table.deadline_s,
        "time_control": table.time_control(),
        "on_timeout": table.on_timeout,
        "seed_hash": table.seed_hash,
        "seed": table.seed,
        "created_at": table.created_at,
        "updated_at": table.updated_at,
        "game": shown,
        "legal_actions": [msgspec.to_builtins(a) for a in actions],
        "action_labels": labels,
        "layout": laid_out,
        "outcome": table.outcome,
        "table_actions": table_actions(table, game, viewer),
        "abort_votes": list(table.abort_votes),
        "created_by": table.created_by,
        "rematch_of": table.rematch_of,
        "rematch": table.rematch,
        "ended_at": table.ended_at,
        "server_time": now,
    }


def _seat_clock(table: Table, seat: int, now: float) -> dict[str, Any]:
    """A seat's clock as everybody sees it: under a correspondence control, the time left
    on its bank now (`time_left`, seconds; it runs while `deadline` is set) and, while its
    player is on vacation, until when (`vacation_until`)."""
    if table.clock is None:
        return {"time_left": None, "vacation_until": None}
    until = table.vacation_until.get(seat)
    return {"time_left": clocks.left(table.clocks[seat], now),
            "vacation_until": until if until is not None and until > now else None}
