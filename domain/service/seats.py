"""The commands of a seat's owner: take a free seat (join), come back to an away seat."""

from __future__ import annotations

import msgspec

from domain import registry
from domain.errors import GameNotStarted, GameOver, SeatNotAway, SeatTaken, VersionConflict
from domain.events import event
from domain.service.appending import append
from domain.service.deps import Deps
from domain.service.folding import Batch, fold, start
from domain.service.loading import load
from domain.service.retry import with_retries
from domain.service.tokens import hash_token, new_seat_token
from domain.table import Table

JOIN_ATTEMPTS = 5
COME_BACK_ATTEMPTS = 3


def join(deps: Deps, game_id: str, name: str,
         idempotency_key: str | None = None) -> tuple[int, str, Table]:
    """Take the first free seat; the game starts when it was the last one. Returns the
    seat, its token (shown this once: only its hash is stored) and the table.

    With an `idempotency_key`, a retried join gets the seat and token the first one got
    (and the table as it is now) instead of a second seat: like an action's answer, the
    first answer, token included, is kept with the key until the key expires."""
    idem = f"join:{idempotency_key}" if idempotency_key else None

    def first_answer() -> tuple[int, str, Table] | None:
        raw = deps.store.first_answer(game_id, idem) if idem else None
        if raw is None:
            return None
        first = msgspec.json.decode(raw)
        return first["seat"], first["token"], load(deps, game_id)[0]

    def attempt(_n: int) -> tuple[int, str, Table] | None:
        if (first := first_answer()) is not None:
            return first
        table, _ = load(deps, game_id)
        game = registry.get_game(table.type)
        free = [i for i, s in enumerate(table.seats) if not s.taken]
        if not free:
            raise SeatTaken("every seat of this game is taken")
        seat = free[0]
        token = new_seat_token()
        expected = table.version
        batch = Batch()
        table = fold(table, game, [event("player_joined", seat=seat, name=name)], batch,
                     deps.clock)
        if all(s.taken for s in table.seats):
            seed = deps.store.seed(game_id)
            assert seed is not None
            table = start(table, game, seed, batch, deps.clock)
        answer = msgspec.json.encode({"seat": seat, "token": token})
        try:
            duplicate = append(deps, table, batch, expected=expected,
                               token=(hash_token(token), seat),
                               idempotency=(idem, answer) if idem else None)
        except VersionConflict:
            return None  # another player joined at the same moment: try the next seat
        if duplicate is not None:  # the same key joined meanwhile: that is the answer
            return first_answer()
        return seat, token, table

    return with_retries(JOIN_ATTEMPTS, attempt, "taking a seat")


def come_back(deps: Deps, game_id: str, seat: int) -> Table:
    """An away seat's owner says they are back: the seat waits for them again (with its
    deadline) instead of being auto-played at once. Refused unless the seat is away."""

    def attempt(_n: int) -> Table | None:
        table, _ = load(deps, game_id)
        if table.status != "active":
            raise GameOver("the game is over") if table.status == "finished" else \
                GameNotStarted("the game starts when every seat is taken")
        if not table.is_away(seat):
            raise SeatNotAway(f"seat {seat} is not away")
        game = registry.get_game(table.type)
        expected = table.version
        batch = Batch()
        table = fold(table, game, [event("seat_returned", seat=seat)], batch, deps.clock)
        try:
            append(deps, table, batch, expected=expected)
        except VersionConflict:
            return None  # a move for the seat landed meanwhile: look again
        return table

    return with_retries(COME_BACK_ATTEMPTS, attempt, "coming back")
