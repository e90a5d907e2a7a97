"""The command that plays one action of a seat, at the cost of one append when it can.

`loaded` is the table as the caller just read it (`load_to_act`), so that a move costs
two round trips at most: that read and the append — one, when the action names a version
(If-Match) whose table this process remembers. A refusal is never decided on a remembered
table: it is decided again on the latest one. A retried idempotent request is recognised
by the append script itself; only when the action is refused is the first answer looked
up (the game may have moved on since it was given). The key's record keeps a hash of the
action it answered: the same key with another action is refused (`IdempotencyKeyReused`),
as a key names one request, not a slot for any.

The record names the events the action appended (`events 41-42`), not the answer itself:
the answer is made again from them (redacted for the seat, `to_act` from the table they
led to) when a retry asks for it, which is rare, while every move writes a record, to the
append-only file and to memory for a day (a whole answer was a third of a move's bytes in
the append-only file). Records that hold a whole answer (`{...}`) are still read.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import msgspec

from domain.errors import DomainError, IdempotencyKeyReused, PreconditionFailed, VersionConflict
from domain.events import Event
from domain.game import Game
from domain.redaction import redact
from domain.service.appending import append
from domain.service.decide import decide_action
from domain.service.deps import Deps
from domain.service.loading import Loaded, load_to_act
from domain.service.replay import table_at
from domain.service.retry import with_retries
from domain.store.port import Idempotency
from domain.table import Table, to_act

ACT_ATTEMPTS = 3
_sorted_json = msgspec.json.Encoder(order="sorted")


@dataclass
class ActResult:
    table: Table
    events: list[Event]
    body: bytes  # the JSON answer given to the acting seat (also kept for idempotent retries)
    # The body is the first answer to a retried request (nothing was appended now): the
    # game may have moved on since, and `table` is not what it became.
    replayed: bool = False


def act(deps: Deps, game_id: str, seat: int, action: Any, if_match: int | None = None,
        idempotency_key: str | None = None, by: str = "player",
        loaded: Loaded | None = None) -> ActResult:
    """Apply one action of `seat`. `by` is "player", "bot", "timeout" or "away"."""
    idem = f"{seat}:{idempotency_key}" if idempotency_key else None
    request = request_hash(action) if idem else ""

    def first_answer(record: Idempotency | None = None) -> bytes | None:
        """The first answer to this request under its key, or None; raises when the key
        answered another request."""
        if record is None and idem is not None:
            record = deps.store.first_answer(game_id, idem)
        if record is None:
            return None
        if record.request and record.request != request:
            raise IdempotencyKeyReused(
                "this Idempotency-Key was used for another request: send a new key with a "
                "new request (the same key replays the first answer only to the same body)")
        if record.answer.startswith(b"{"):  # a whole answer, as records once held
            return record.answer
        return answer_again(deps, game_id, seat, record.answer)

    def attempt(n: int) -> ActResult | None:
        current = loaded if loaded is not None and n == 0 else load_to_act(deps, game_id)
        table = current.table
        try:
            game = deps.games.game(table.type)
            after, batch = decide_action(game, table, current.seed, seat, action, if_match,
                                         by, deps.clock)
        except DomainError:
            if current.cached:
                return None  # refused on a remembered table: decide again on the latest
            first = first_answer()
            if first is not None:
                return ActResult(table, [], first, replayed=True)
            raise
        body = answer(after, game, seat, batch.events)
        named = f"events {table.version + 1}-{after.version}".encode()
        try:
            record = append(deps, after, batch, expected=table.version,
                            idempotency=Idempotency(idem, request, named) if idem else None,
                            before=table)
        except VersionConflict as conflict:
            if if_match is None:
                return None  # someone else moved first: decide again on the latest
            first = first_answer()
            if first is not None:
                return ActResult(after, [], first, replayed=True)
            raise PreconditionFailed(if_match, conflict.actual) from None
        if record is not None:
            first = first_answer(record)
            assert first is not None
            return ActResult(after, [], first, replayed=True)
        deps.remembered.remember(after)
        return ActResult(after, batch.events, body)

    return with_retries(ACT_ATTEMPTS, attempt, "playing the action")


def answer(after: Table, game: Game[Any, Any], seat: int, events: list[Event]) -> bytes:
    """The answer to an action of `seat` that appended `events` and led to `after`.
    (`to_act` is public and saves the client a request to learn who plays next.)"""
    return msgspec.json.encode(
        {"version": after.version, "to_act": sorted(to_act(after, game)),
         "events": [redact(e, seat) for e in events]})


def answer_again(deps: Deps, game_id: str, seat: int, named: bytes) -> bytes | None:
    """The answer a record names (`events <first>-<last>`) made again from the log, the
    same bytes as the first time; None if the log no longer holds those events."""
    first, _, last = named.removeprefix(b"events ").partition(b"-")
    first_seq, last_seq = int(first), int(last)
    events = deps.store.read(game_id, after=first_seq - 1, until=last_seq)
    if [e.seq for e in events] != list(range(first_seq, last_seq + 1)):
        return None
    after = table_at(deps, game_id, last_seq, events)
    return answer(after, deps.games.game(after.type), seat, events)


def request_hash(action: Any) -> str:
    """What identifies an action request under an idempotency key: the sha256 of its body
    as JSON with keys sorted (so key order and spacing do not matter)."""
    return hashlib.sha256(_sorted_json.encode(action)).hexdigest()
