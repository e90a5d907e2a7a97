"""What the stores keep and answer, shared by every port: the constants of what is kept
(how often a checkpoint and a snapshot are written, how long an idempotency record lives,
…) and the records an append takes and gives (`Stored`, `Idempotency`, `TimerChanges`,
`AppendResult`, `StoredGame`; a backup's `Typed` values, `Inventory` and `Merged`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.events import Event
from domain.webhooks.registration import Registration

# The service writes a replay checkpoint after every event whose seq is a multiple of this;
# a store finds the one at or before a seq with a single lookup.
CHECKPOINT_EVERY = 128
# The service writes a game's snapshot (its table) with an append that reaches a multiple
# of this, with its first append and with its last (`game_finished`), not with every one:
# a move then writes its events, not ~1 KB of a mostly unchanged table, into the AOF. A
# table is read as the snapshot and the log's tail after it, so fewer than this many
# events are ever folded on a load.
SNAPSHOT_EVERY = 8
IDEMPOTENCY_TTL_S = 24 * 3600
DELIVERY_TTL_S = 14 * 24 * 3600
DELIVERIES_KEPT = 100  # per registration, the newest
CHAT_PAGE = 200  # chat entries read at once
RECEIVER_KEPT_S = 3600  # a receiver's failing streak outlives its block by this much
PLAYER_EVENTS_KEPT = 1000  # a player's stream keeps about this many of its latest entries


class Stored(msgspec.Struct, frozen=True):
    """A game's table as stored: the last snapshot written and the log's latest events.

    `tail` holds at least every event after the snapshot (SNAPSHOT_EVERY - 1 at most),
    possibly some it already covers, in order; the reader folds those after the
    snapshot's version."""

    snapshot: bytes
    tail: list[Event]


class StoredGame(msgspec.Struct, frozen=True):
    """Everything the store keeps of one game that its archive replaces (and that a backup
    holds of a game not archived): the log, the last snapshot, the replay checkpoints
    (seq -> table), the seat tokens' hashes (-> seat), the seed and the creator's token
    hash."""

    events: list[Event]
    snapshot: bytes | None
    checkpoints: dict[int, bytes]
    tokens: dict[str, int]
    seed: str | None
    creator: str | None


class Idempotency(msgspec.Struct, frozen=True):
    """What an idempotent request leaves with its key: a hash of the request (to tell a
    retry from another request under the same key; "" for a record kept before requests
    were hashed) and the first answer."""

    key: str
    request: str
    answer: bytes


class TimerChanges(msgspec.Struct, frozen=True):
    """Changes to a sorted set of timers kept beside the games (the workers' deadlines),
    which an append may apply in its own atomic step: drop the members `drop`, then add
    `arm` (member -> when due, the score)."""

    key: str
    drop: list[str]
    arm: dict[str, float]


class AppendResult(msgspec.Struct, frozen=True):
    version: int
    duplicate: Idempotency | None = None  # the record of an idempotency key used before
    # The game's webhook registrations, read in the append's own step (oldest first), so
    # that the hooks need no read of their own; None: this store does not read them.
    webhooks: list[Registration] | None = None
    # False: appended, but fewer replicas than the store waits for confirmed it in time
    # (a failover now may lose it); the service answers the move as unavailable.
    replicated: bool = True
    # True: the `timers` given to the append were applied with it (the hooks need not).
    timers_applied: bool = False


# A key's value as a backup holds it (`domain.store.redis_backup`): {"string": v},
# {"hash": {field: v}}, {"zset": [[member, score], …]}, {"stream": [[id, {field: v}], …]},
# {"set": [v, …]} or {"list": [v, …]}; v is text, or {"b64": …} for other bytes.
Typed = dict[str, Any]


@dataclass
class Inventory:
    """The keys of a store a backup holds, by owner (key names in full)."""

    games: dict[str, list[str]] = field(default_factory=dict)  # game id -> its other keys
    players: dict[str, list[str]] = field(default_factory=dict)  # player id -> its keys
    service: list[str] = field(default_factory=list)


@dataclass
class Merged:
    """What merging the service's keys into a store did."""

    added: int = 0  # keys, fields, members and entries added
    names_taken: int = 0  # players' names another player holds in this store
