"""Where a game stands in a player's inbox, and the inbox entry the player reads.

Each player has one ordered index per status (`open`, `active`, `finished`) of the games
where they hold — or are invited to — a seat. An active game's score puts the games where
it is the player's turn first, soonest deadline first; then those without a deadline, the
longest waiting first; then the games where it is someone else's turn, oldest first. So
"my turn" is a range of one index and needs no second one. Open games are listed by
creation, finished ones by their end (both newest first). A cancelled game leaves it, and
so does one aborted by agreement. A game where the player resigned or left stays, never
their turn again (a bot plays their seat).

The index is written after the game's append, only where a player's position changed (in
a turn-based game: the seat that moved and the seat to move next). Whether it is the
player's turn and their deadline are read from the position itself (the index is their
record, and the page's order); the rest of an entry from the games' stored tables, without
their game state: a page costs two reads whatever the number of games behind it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from domain.ratings.standing import RatingChange
from domain.table import Table

BUCKETS = ("open", "active", "finished")
NEWEST_FIRST = frozenset({"open", "finished"})
NO_DEADLINE = 1e11  # above every epoch second this service will see
NOT_MY_TURN = 1e12


class Position(NamedTuple):
    bucket: str
    score: float


class InboxMove(NamedTuple):
    """Put `game_id` at `position` in `player_id`'s inbox (None: out of it)."""

    player_id: str
    game_id: str
    position: Position | None


def seat_in(table: Table, player_id: str) -> int | None:
    """The seat the player holds here, or is invited to."""
    for i, seat in enumerate(table.seats):
        if player_id in (seat.player, seat.invited):
            return i
    return None


def position(table: Table, player_id: str) -> Position | None:
    seat = seat_in(table, player_id)
    if seat is None:
        return None
    if table.status == "open":
        return Position("open", table.created_at)
    if table.status == "finished":
        return Position("finished", table.ended_at or table.updated_at)
    if table.status != "active":
        return None
    if not waits_for(table, seat):
        return Position("active", NOT_MY_TURN + table.created_at)
    deadline = table.deadline(seat)
    if deadline is None:
        return Position("active", NO_DEADLINE + table.waiting_since[seat])
    return Position("active", deadline)


def waits_for(table: Table, seat: int) -> bool:
    """Does the game wait for the seat's player? (Not when a bot plays the seat for them,
    after they resigned or left.)"""
    return seat in table.waiting_since and table.seats[seat].bot_level is None


def moves(before: Table | None, after: Table) -> list[InboxMove]:
    """The index writes an append from `before` to `after` needs (none for most games:
    only players' seats are indexed)."""
    players = after.player_ids() | (before.player_ids() if before else set())
    out: list[InboxMove] = []
    for player_id in sorted(players):
        now = position(after, player_id)
        if before is None or position(before, player_id) != now:
            out.append(InboxMove(player_id, after.id, now))
    return out


def turn_range(my_turn: bool | None) -> tuple[float, float]:
    """The scores of the active index that `my_turn` selects: [low, high)."""
    if my_turn is None:
        return float("-inf"), float("inf")
    return (float("-inf"), NOT_MY_TURN) if my_turn else (NOT_MY_TURN, float("inf"))


def turn(at: Position) -> tuple[bool, float | None]:
    """Whether it is the player's turn, and their deadline, at this position."""
    if at.bucket != "active" or at.score >= NOT_MY_TURN:
        return False, None
    return True, at.score if at.score < NO_DEADLINE else None


def entry(table: Table, player_id: str, at: Position,
          change: RatingChange | None) -> dict[str, Any]:
    """What the player's inbox says of one game at position `at` (from its envelope: no
    game state)."""
    seat = seat_in(table, player_id)
    assert seat is not None
    mine = table.seats[seat]
    places = (table.outcome or {}).get("places")
    my_turn, deadline = turn(at)
    return {
        "id": table.id,
        "type": table.type,
        "status": table.status,
        "version": table.version,
        "seat": seat,
        "invited": not mine.taken,
        "my_turn": my_turn,
        "deadline": deadline,
        "seats": [{"seat": i, "kind": s.kind, "level": s.level, "name": s.name,
                   "player": s.player, "taken": s.taken, "bot_account": s.bot_account}
                  for i, s in enumerate(table.seats)],
        "created_at": table.created_at,
        "updated_at": table.updated_at,
        "rematch_of": table.rematch_of,
        "rematch": table.rematch,
        "place": places[seat] if places else None,
        "rating": None if change is None else {
            "before": change.before.rating, "after": change.after.rating,
            "delta": change.delta, "deviation": change.after.deviation},
    }
