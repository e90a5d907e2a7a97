"""The lobby's commands: the seats a player's new game asks for, and cancelling a game
that has not started."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.errors import (
    BadCredentials,
    BadOptions,
    GameStarted,
    NotAllowed,
    VersionConflict,
)
from domain.events import event
from domain.players.credentials import is_player_key
from domain.players.records import Player
from domain.service.appending import append
from domain.service.creator import is_creator
from domain.service.deps import Deps
from domain.service.folding import Batch, fold
from domain.service.loading import load
from domain.service.players import authenticate, find_by_name
from domain.service.retry import with_retries
from domain.table import Table

CANCEL_ATTEMPTS = 3


def seats_for(deps: Deps, seats: Sequence[Mapping[str, Any]],
              by: Player | None) -> list[dict[str, Any]]:
    """The seats of `POST /games` as `create` takes them: `me` seats the creating player,
    `invite` (a player's name) keeps the seat for that player."""
    out: list[dict[str, Any]] = []
    for seat in seats:
        spec = {k: v for k, v in seat.items() if k not in ("me", "invite")}
        if seat.get("me") or seat.get("invite") is not None:
            if seat["kind"] != "human":
                raise BadOptions("only a human seat seats or invites a player",
                                 code="bad_players")
            if seat.get("me") and seat.get("invite") is not None:
                raise BadOptions("a seat is either yours or an invitation",
                                 code="bad_players")
        if seat.get("me"):
            if by is None:
                raise BadCredentials("a seat of your own needs your player key "
                                     "(Authorization: Bearer pk.…)", code="needs_player_key")
            spec["player"] = by
        elif seat.get("invite") is not None:
            # An unknown name is an unknown player (404), as everywhere in the service.
            spec["invited"] = find_by_name(deps, seat["invite"])
        out.append(spec)
    return out


def cancel(deps: Deps, game_id: str, credential: str) -> Table:
    """Call off a game that has not started: for its creator only (the creator token of
    `POST /games`, or the key of the player who created it). Cancelling twice is fine."""

    def attempt(_n: int) -> Table | None:
        before, _ = load(deps, game_id)
        if not is_creators(deps, before, credential):
            raise NotAllowed("only the game's creator may cancel it")
        if before.status == "cancelled":
            return before
        if before.status != "open":
            raise GameStarted("a game that has started cannot be cancelled")
        batch = Batch()
        table = fold(before, deps.games.game(before.type), [event("game_cancelled")],
                     batch, deps.clock)
        try:
            append(deps, table, batch, expected=before.version, before=before)
        except VersionConflict:
            return None  # someone joined meanwhile: look again
        return table

    return with_retries(CANCEL_ATTEMPTS, attempt, "cancelling the game")


def is_creators(deps: Deps, table: Table, credential: str) -> bool:
    """Is `credential` the creator's: the creator token, or the creating player's key?"""
    if is_player_key(credential):
        return table.created_by is not None and \
            authenticate(deps, credential).id == table.created_by
    return is_creator(deps.store, table.id, credential)
