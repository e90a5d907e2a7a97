"""A player's inbox: kept after every append of a game with players, read a page at a time.

After an append, the games' positions that changed move in their players' indexes
(`domain.players.inbox`), what the append means to each player goes to their stream
(`domain.players.notes`, with the same round trip: a move that changes nobody's turn
writes nothing), and a game that just finished with players at the table is noted
as awaiting its rating (the rating job takes it from there). A page is one read of the
player's slot (their key's hash and the index, so the key costs no round trip of its own)
and one of the page's snapshots, decoded without their game state; a game gone from the
store (expired) is dropped from the index when a page meets it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.errors import BadCredentials
from domain.events import Event
from domain.players import inbox, notes
from domain.players.credentials import player_of
from domain.service.deps import Deps
from domain.service.loading import stored_envelope
from domain.service.players import checked
from domain.table import Table


def follow_append(deps: Deps, before: Table | None, after: Table,
                  events: Sequence[Event]) -> None:
    """Keep the players' indexes in step with an append from `before` to `after`, and
    tell them in their streams what it means to them (`domain.players.notes`), in the
    same round trip."""
    moves = inbox.moves(before, after)
    told = notes.after_append(before, after, events)
    moved = notes.movers(after, events) if after.status == "active" else []
    if moves or told or moved:
        deps.players.place(moves, told, moved)
    if after.status == "finished" and any(e.type == "game_finished" for e in events) and \
            any(s.player is not None for s in after.seats):
        deps.ratings.await_rating(after.id, after.ended_at or after.updated_at)


def page(deps: Deps, key: str, status: str, my_turn: bool | None, offset: int,
         limit: int) -> tuple[list[dict[str, Any]], int]:
    """One page of the games of the player whose key this is, with `status` (and, for
    active games, `my_turn`), in the inbox's order; and how many there are."""
    player_id = player_of(key)
    if player_id is None:
        raise BadCredentials("this is not a player key")
    if status == "active" or my_turn is None:
        low, high = inbox.turn_range(my_turn if status == "active" else None)
    else:
        low, high = 0.0, 0.0  # only an active game is anyone's turn: an empty range
    ids, total, found, scores = deps.players.inbox_ids(
        player_id, status, offset, limit, low, high,
        newest_first=status in inbox.NEWEST_FIRST)
    player = checked(deps, found, key)
    snapshots = deps.store.snapshots(ids)
    changes = deps.ratings.changes(player.id, ids) if status == "finished" else [None] * len(ids)
    entries: list[dict[str, Any]] = []
    gone: list[inbox.InboxMove] = []
    for game_id, stored, score, change in zip(ids, snapshots, scores, changes, strict=True):
        if stored is None:
            gone.append(inbox.InboxMove(player.id, game_id, None))
            continue
        table = stored_envelope(deps.store, game_id, stored)
        if inbox.seat_in(table, player.id) is not None:
            entries.append(inbox.entry(table, player.id, inbox.Position(status, score),
                                       change))
    if gone:
        deps.players.place(gone)
    return entries, total
