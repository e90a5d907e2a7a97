"""The store port: what the service layer asks of storage, and nothing more.

`EventStore` is the games' storage (log, snapshot, checkpoints, seat tokens, secrets,
idempotency records, listing indexes); `EventLog` is its read side, all that the streams
need; `WebhookStore` keeps webhook registrations and deliveries. Redis implements them
(`redis_store`, `redis_webhooks`), so does memory (`memory`, `memory_webhooks`), and one
contract test runs on both (tests/contract/).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

import msgspec

from domain.events import Event
from domain.webhooks.deliveries import Delivery
from domain.webhooks.registration import Registration

# The service writes a replay checkpoint after every event whose seq is a multiple of this;
# a store finds the one at or before a seq with a single lookup.
CHECKPOINT_EVERY = 128
IDEMPOTENCY_TTL_S = 24 * 3600
DELIVERY_TTL_S = 14 * 24 * 3600
DELIVERIES_KEPT = 100  # per registration, the newest
STATUSES = ("open", "active", "finished")


class AppendResult(msgspec.Struct, frozen=True):
    version: int
    duplicate: bytes | None = None  # the first answer, when an idempotency key was re-used


class EventLog(Protocol):
    """A game's log, read from any seq on (what the event streams need)."""

    def read(self, game_id: str, after: int = 0, until: int | None = None,
             count: int | None = None) -> list[Event]:
        """The events with `after` < seq <= `until` (at most `count`), in order."""
        ...

    def wait(self, game_id: str, after: int, timeout_s: float,
             count: int | None = None) -> list[Event]:
        """Events after `after`, waiting up to `timeout_s` for the first one (long-poll)."""
        ...

    def version(self, game_id: str) -> int:
        """The seq of the log's last event (0 for no log)."""
        ...


class EventStore(EventLog, Protocol):
    """The games' storage, as the service uses it."""

    # --- writing -------------------------------------------------------------------------
    def append(self, game_id: str, expected_version: int, events: list[Event], snapshot: bytes,
               checkpoint: tuple[int, bytes] | None = None,
               token: tuple[str, int] | None = None,
               idempotency: tuple[str, bytes] | None = None) -> AppendResult:
        """Append stamped events if the game is still at `expected_version`.

        In the same atomic step: the snapshot, an optional replay checkpoint (seq, table),
        an optional seat token (hash, seat), and the idempotency record (key, answer).
        Raises VersionConflict when someone else appended first; returns the first answer
        instead when the idempotency key was already used (whatever the version)."""
        ...

    def save_secrets(self, game_id: str, seed: str) -> None:
        """Keep the game's seed (written before the game's first append)."""
        ...

    def save_creator(self, game_id: str, token_hash: str) -> None:
        """Keep the hash of the creator's token."""
        ...

    # --- reading one game ----------------------------------------------------------------
    def read_table(self, game_id: str, token_hash: str | None = None,
                   with_seed: bool = False) -> tuple[bytes | None, int | None, str | None]:
        """The snapshot, the seat `token_hash` names and (if asked) the seed, at once:
        every request starts with this read, and round trips are what a move costs."""
        ...

    def seed(self, game_id: str) -> str | None: ...

    def creator(self, game_id: str) -> str | None:
        """The hash of the creator's token (None: unknown game)."""
        ...

    def first_answer(self, game_id: str, idem_key: str) -> bytes | None:
        """The answer recorded with idempotency key `idem_key` (None: none, or expired)."""
        ...

    def checkpoint_at_or_before(self, game_id: str, seq: int) -> tuple[int, bytes] | None:
        """The latest replay checkpoint (seq, table) at or before `seq`, if one was kept."""
        ...

    # --- many games ----------------------------------------------------------------------
    def snapshots(self, game_ids: Sequence[str]) -> list[bytes | None]:
        """The snapshots of several games at once (None for an unknown game)."""
        ...

    def index(self, game_id: str, game_type: str, status: str, created_at: float) -> None:
        """List the game under its (new) status and its type, ordered by `created_at`."""
        ...

    def scan_ids(self, status: str, batch: int = 500) -> Iterator[str]:
        """Every game id with `status`, without holding the index: a game that keeps its
        status during the scan is returned (once or, rarely, twice)."""
        ...

    def list_ids(self, status: str | None, game_type: str | None, offset: int,
                 limit: int) -> tuple[list[str], int]:
        """One page of game ids, newest first, filtered; and how many match in all."""
        ...


class WebhookStore(Protocol):
    """Webhook registrations of a game, and their deliveries (kept for a while)."""

    def registrations(self, game_id: str) -> list[Registration]:
        """The game's registrations, oldest first."""
        ...

    def registration(self, game_id: str, hook_id: str) -> Registration | None: ...

    def add(self, reg: Registration) -> None: ...

    def remove(self, game_id: str, hook_id: str) -> bool:
        """Drop a registration and its list of deliveries; False if there was none."""
        ...

    def add_deliveries(self, deliveries: list[Delivery]) -> None:
        """Record new deliveries, each at the head of its registration's list."""
        ...

    def save_delivery(self, delivery: Delivery) -> None: ...

    def delivery(self, game_id: str, delivery_id: str) -> Delivery | None: ...

    def deliveries(self, game_id: str, hook_id: str,
                   limit: int = DELIVERIES_KEPT) -> list[Delivery]:
        """The registration's latest deliveries, newest first."""
        ...
