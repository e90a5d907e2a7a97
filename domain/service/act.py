"""The command that plays one action of a seat, at the cost of one append when it can.

`loaded` is the table as the caller just read it (`load_to_act`), so that a move costs
two round trips at most: that read and the append — one, when the action names a version
(If-Match) whose table this process remembers. A refusal is never decided on a remembered
table: it is decided again on the latest one. A retried idempotent request is recognised
by the append script itself; only when the action is refused is the first answer looked
up (the game may have moved on since it was given). The key's record keeps a hash of the
action it answered: the same key with another action is refused (`IdempotencyKeyReused`),
as a key names one request, not a slot for any.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import msgspec

from domain.errors import DomainError, IdempotencyKeyReused, PreconditionFailed, VersionConflict
from domain.events import Event
from domain.redaction import redact
from domain.service.appending import append
from domain.service.decide import decide_action
from domain.service.deps import Deps
from domain.service.loading import Loaded, load_to_act
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
        return record.answer

    def attempt(n: int) -> ActResult | None:
        current = loaded if loaded is not None and n == 0 else load_to_act(deps, game_id)
        table = current.table
        try:
            game, after, batch = decide_action(table, current.seed, seat, action, if_match,
                                               by, deps.clock)
        except DomainError:
            if current.cached:
                return None  # refused on a remembered table: decide again on the latest
            first = first_answer()
            if first is not None:
                return ActResult(table, [], first, replayed=True)
            raise
        # `to_act` is public and saves the client a request to learn who plays next.
        body = msgspec.json.encode(
            {"version": after.version, "to_act": sorted(to_act(after, game)),
             "events": [redact(e, seat) for e in batch.events]})
        try:
            record = append(deps, after, batch, expected=table.version,
                            idempotency=Idempotency(idem, request, body) if idem else None,
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


def request_hash(action: Any) -> str:
    """What identifies an action request under an idempotency key: the sha256 of its body
    as JSON with keys sorted (so key order and spacing do not matter)."""
    return hashlib.sha256(_sorted_json.encode(action)).hexdigest()
