"""The commands of a seat's owner: take a seat (join), come back to an away seat.

Who may take which seat: a player takes the seat they are invited to, else the first free
one (open to anyone); an anonymous person the first free one, and gets a seat token; a
seat kept for a rematch goes to whoever held that seat of the game before (through the
rematch). The game starts when the last seat is taken.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from domain.errors import (
    AlreadySeated,
    GameNotStarted,
    GameOver,
    IdempotencyKeyReused,
    SeatNotAway,
    SeatTaken,
    VersionConflict,
)
from domain.events import event
from domain.players.names import clean_table_name
from domain.players.records import Player
from domain.service.act import request_hash
from domain.service.appending import append
from domain.service.decide import check_in_play
from domain.service.deps import Deps
from domain.service.folding import Batch, fold, start
from domain.service.forced import play_forced
from domain.service.loading import load
from domain.service.retry import with_retries
from domain.service.seat_clocks import seated_events
from domain.service.tokens import hash_token, new_seat_token
from domain.store.port import Idempotency
from domain.table import Table

JOIN_ATTEMPTS = 5
COME_BACK_ATTEMPTS = 3


def join(deps: Deps, game_id: str, name: str | None, player: Player | None = None,
         idempotency_key: str | None = None) -> tuple[int, str | None, Table]:
    """Take a seat: the player's invitation, else the first free seat. Returns the seat,
    an anonymous person's token (shown this once: only its hash is stored; a player's
    key is their credential, so None for a player) and the table.

    With an `idempotency_key`, a retried join gets the seat and token the first one got
    (and the table as it is now) instead of a second seat: like an action's answer, the
    first answer, token included, is kept with the key until the key expires."""
    idem = f"join:{idempotency_key}" if idempotency_key else None
    request = request_hash({"name": name, "player": player.id if player else None}) \
        if idem else ""

    def first_answer(record: Idempotency | None = None) -> tuple[int, str | None, Table] | None:
        """The first answer under the key, or None; raises when the key answered another
        request."""
        if record is None and idem is not None:
            record = deps.store.first_answer(game_id, idem)
        if record is None:
            return None
        if record.request and record.request != request:
            raise IdempotencyKeyReused("this Idempotency-Key took a seat for another "
                                       "request: send a new key")
        first = msgspec.json.decode(record.answer)
        return first["seat"], first["token"], load(deps, game_id)[0]

    def choose(table: Table) -> int:
        if player is None:
            free = [i for i, s in enumerate(table.seats) if s.free]
        else:
            if table.seat_of(player.id) is not None:
                raise AlreadySeated(f"you hold seat {table.seat_of(player.id)} of this game")
            free = [i for i, s in enumerate(table.seats)
                    if s.invited == player.id and not s.taken] or \
                   [i for i, s in enumerate(table.seats) if s.free]
        if not free:
            if any(not s.taken for s in table.seats):
                raise SeatTaken("the seats left are kept for the players invited to them")
            raise SeatTaken("every seat of this game is taken")
        return free[0]

    if (first := first_answer()) is not None:
        return first
    if player is None and name is not None:
        name = clean_table_name(name)
    try:
        seat, token, table = _take(deps, game_id, choose, name, player,
                                   (idem, request) if idem else None, first_answer)
    except (SeatTaken, AlreadySeated):
        # A retry whose first request took the seat meanwhile gets that answer.
        if (first := first_answer()) is not None:
            return first
        raise
    assert token is not None or player is not None
    return seat, token, table


def claim_kept_seat(deps: Deps, game_id: str, old_seat: int,
                    name: str | None) -> tuple[int, str | None, Table]:
    """Take the seat kept for whoever held seat `old_seat` of the game before (a rematch):
    its token, or None if it was taken already (the token was shown then)."""
    table, _ = load(deps, game_id)
    kept = [i for i, s in enumerate(table.seats) if s.rematch_seat == old_seat]
    if not kept:
        raise SeatTaken(f"no seat of this game is kept for seat {old_seat}")
    if table.seats[kept[0]].taken:
        return kept[0], None, table
    try:
        return _take(deps, game_id, lambda _t: kept[0], name, None)
    except SeatTaken:
        table, _ = load(deps, game_id)
        return kept[0], None, table  # taken meanwhile by the same holder's other request


def _take(deps: Deps, game_id: str, choose: Callable[[Table], int], name: str | None,
          player: Player | None, idem: tuple[str, str] | None = None,
          first_answer: Callable[[Idempotency], tuple[int, str | None, Table] | None]
          | None = None) -> tuple[int, str | None, Table]:
    def attempt(_n: int) -> tuple[int, str | None, Table] | None:
        before, _ = load(deps, game_id)
        if before.status != "open":
            if before.status == "cancelled":
                raise GameOver("the game was cancelled", code="game_cancelled")
            raise SeatTaken("every seat of this game is taken")
        game = deps.games.game(before.type)
        seat = choose(before)
        if before.seats[seat].taken:
            raise SeatTaken(f"seat {seat} is taken")
        token = new_seat_token() if player is None else None
        joined = event("player_joined", seat=seat, name=player.name if player else name,
                       **({"player": player.id} if player else {}),
                       **({"bot": True} if player is not None and player.bot else {}))
        settings = seated_events(deps, before.clock, [(seat, player.id)]) if player else []
        batch = Batch()
        table = fold(before, game, [joined, *settings], batch, deps.clock)
        if all(s.taken for s in table.seats):
            seed = deps.store.seed(game_id)
            assert seed is not None
            table = play_forced(start(table, game, seed, batch, deps.clock), game, seed,
                                batch, deps.clock)
        record = Idempotency(idem[0], idem[1], msgspec.json.encode(
            {"seat": seat, "token": token})) if idem else None
        try:
            duplicate = append(deps, table, batch, expected=before.version, before=before,
                               token=(hash_token(token), seat) if token else None,
                               idempotency=record)
        except VersionConflict:
            return None  # another player joined at the same moment: look again
        if duplicate is not None and first_answer is not None:
            return first_answer(duplicate)  # the same key took a seat meanwhile
        return seat, token, table

    return with_retries(JOIN_ATTEMPTS, attempt, "taking a seat")


def come_back(deps: Deps, game_id: str, seat: int) -> Table:
    """An away seat's owner says they are back: the seat waits for them again (with its
    deadline) instead of being auto-played at once. Refused unless the seat is away."""

    def attempt(_n: int) -> Table | None:
        before, _ = load(deps, game_id)
        if before.status != "active":
            raise GameNotStarted("the game starts when every seat is taken") \
                if before.status == "open" else GameOver("the game is over")
        check_in_play(before, seat)
        if not before.is_away(seat):
            raise SeatNotAway(f"seat {seat} is not away")
        game = deps.games.game(before.type)
        batch = Batch()
        table = fold(before, game, [event("seat_returned", seat=seat)], batch, deps.clock)
        if table.auto_forced:  # (the seed is read only for a seat that asked for them)
            table = play_forced(table, game, deps.store.seed(game_id) or "", batch,
                                deps.clock)
        try:
            append(deps, table, batch, expected=before.version, before=before)
        except VersionConflict:
            return None  # a move for the seat landed meanwhile: look again
        return table

    return with_retries(COME_BACK_ATTEMPTS, attempt, "coming back")
