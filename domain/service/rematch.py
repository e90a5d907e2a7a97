"""The rematch: one new game after a finished one, asked for by any of its seats.

The new game has the same type, options, deadlines and seats, in an order rotated by one
(the second seat sits first): players are seated again at once, bots keep their level, and
a seat an anonymous person held is kept for them — they take it by asking for the rematch
too, with their old seat's token, and get a new token. The two games link both ways
(`rematch_of` in the new game's `game_created`, `rematch_created` in the finished game's
log).

Asking twice, or at the same moment, gives one game: the finished game's link is claimed
first, by an append at its version (one claimant wins, the others read the winner's id),
and the game is created with that id by whoever gets there first (a second creation
conflicts, and the seed kept is the first one). A crash between the two leaves a link to a
game not yet created: the next request creates it.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from domain.errors import GameNotFinished, UnknownGame, VersionConflict
from domain.events import event
from domain.service.appending import append
from domain.service.create import create
from domain.service.deps import Deps
from domain.service.folding import Batch, fold
from domain.service.loading import load
from domain.service.retry import with_retries
from domain.service.seats import claim_kept_seat
from domain.table import Table

LINK_ATTEMPTS = 5


@dataclass(frozen=True)
class Rematch:
    table: Table  # the new game
    seat: int  # the caller's seat in it
    token: str | None  # a new seat token for an anonymous caller (shown once)
    created: bool  # this request created the game (others found it)


def rematch(deps: Deps, game_id: str, seat: int) -> Rematch:
    """The rematch of finished game `game_id`, asked for by its seat `seat`."""
    old = with_retries(LINK_ATTEMPTS, lambda _n: _link(deps, game_id), "linking a rematch")
    assert old.rematch is not None
    table, created = _created(deps, old, old.rematch)
    holder = old.seats[seat]
    if holder.kind == "human" and holder.player is None:
        new_seat, token, table = claim_kept_seat(deps, table.id, seat, holder.name)
        return Rematch(table, new_seat, token, created)
    return Rematch(table, (seat - 1) % old.players, None, created)


def rotated(table: Table) -> list[dict[str, Any]]:
    """The finished game's seats for its rematch: seat j is the old seat j + 1."""
    n = table.players
    seats: list[dict[str, Any]] = []
    for j in range(n):
        k = (j + 1) % n
        old = table.seats[k]
        if old.kind == "bot":
            seats.append({"kind": "bot", "level": old.level or "basic"})
        elif old.player is not None:
            seats.append({"kind": "human", "player": old.player})
        else:
            seats.append({"kind": "human", "rematch_seat": k})
    return seats


def _link(deps: Deps, game_id: str) -> Table | None:
    """The finished game with its rematch's id, claimed now if it had none."""
    old, _ = load(deps, game_id)
    if old.status != "finished":
        raise GameNotFinished("a rematch follows a finished game")
    if old.rematch is not None:
        return old
    batch = Batch()
    linked = fold(old, deps.games.game(old.type),
                  [event("rematch_created", game=secrets.token_urlsafe(9))], batch,
                  deps.clock)
    try:
        append(deps, linked, batch, expected=old.version, before=old)
    except VersionConflict:
        return None  # another request linked one first: read it
    return linked


def _created(deps: Deps, old: Table, new_id: str) -> tuple[Table, bool]:
    """The rematch game, and whether it was created now (else someone else did)."""
    try:
        return load(deps, new_id)[0], False
    except UnknownGame:
        pass
    players = {p.id: p for p in deps.players.players(
        [s.player for s in old.seats if s.player is not None]) if p is not None}
    seats = [{**s, "player": players[s["player"]]} if "player" in s else s
             for s in rotated(old)]
    try:
        return create(deps, old.type, old.options, seats, deadline_s=old.deadline_s,
                      on_timeout=old.on_timeout, bot_delay_s=old.bot_delay_s,
                      created_by=old.created_by, game_id=new_id, rematch_of=old.id,
                      clock=old.clock), True
    except VersionConflict:
        return load(deps, new_id)[0], False
