"""The games' storage, one port per concern (see `domain.store.port`, which offers these
with the other ports): the log and its atomic append, the listings, the table's chat, the
secrets, a finished game's analysis, the notices of appends; `EventStore` is them all in
one backend."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Protocol

from domain.chat import ChatEntry
from domain.events import Event
from domain.store.records import (
    CHAT_PAGE,
    AppendResult,
    Idempotency,
    Stored,
    TimerChanges,
)


class AppendNotices(Protocol):
    """A subscription to the appends of every game: (game id, version) as they happen, and
    (game id, None) when the game's chat changed; each game's in order (two games' in any
    order: on a Redis Cluster they come from different nodes).

    One per process is enough to wake every stream and long-poll waiting in it, whatever
    the number of games they watch, without holding a store connection per waiter."""

    def next(self, timeout_s: float) -> list[tuple[str, int | None]] | None:
        """The appends since the last call, waiting up to `timeout_s` for the first ([]:
        none came). None: the subscription (re)started and may have missed some, so look
        at every game of interest again."""
        ...

    def close(self) -> None: ...


# --- the games' storage, one port per concern ---------------------------------------------
# A backend implements them all (`EventStore`); each part is used, and held to its contract
# test, on its own.

class EventLog(Protocol):
    """A game's log, read from any seq on."""

    def read(self, game_id: str, after: int = 0, until: int | None = None,
             count: int | None = None) -> list[Event]:
        """The events with `after` < seq <= `until` (at most `count`), in order."""
        ...

    def read_logged(self, game_id: str, after: int = 0, until: int | None = None,
                    count: int | None = None) -> list[Event] | None:
        """As `read`, in the same single read, but None when the log does not hold event
        `after` (nor, for `after` 0, any event): no log here (an unknown game, a deleted
        or an archived one) told apart from nothing new after `after`."""
        ...

    def wait(self, game_id: str, after: int, timeout_s: float,
             count: int | None = None) -> list[Event]:
        """Events after `after`, waiting up to `timeout_s` for the first one (long-poll)."""
        ...

    def version(self, game_id: str) -> int:
        """The seq of the log's last event (0 for no log)."""
        ...


class GameLog(EventLog, Protocol):
    """The log and its atomic append: the events, with the table's snapshot, the replay
    checkpoints, the seat tokens and the idempotency records written in the same step;
    and what is read back of them."""

    def append(self, game_id: str, expected_version: int, events: list[Event],
               snapshot: bytes | None, checkpoint: tuple[int, bytes] | None = None,
               token: tuple[str, int] | None = None,
               idempotency: Idempotency | None = None,
               timers: TimerChanges | None = None) -> AppendResult:
        """Append stamped events if the game is still at `expected_version`.

        In the same atomic step: the snapshot (the table after these events; None keeps
        the one stored, see SNAPSHOT_EVERY), an optional replay checkpoint (seq, table),
        an optional seat token (hash, seat), and the idempotency record. Raises
        VersionConflict when someone else appended first; returns the record kept with the
        key instead (writing nothing) when the idempotency key was already used, whatever
        the version and whatever the request: the caller compares the requests.

        `timers`, where the store can write that set in the same step (a Redis store on
        one server, the set in its database), are applied with the append, and only with
        it: `timers_applied` in the result says so. A store that cannot ignores them."""
        ...

    def read_table(self, game_id: str, token_hash: str | None = None,
                   with_seed: bool = False) -> tuple[Stored | None, int | None, str | None]:
        """The stored table (snapshot and tail), the seat `token_hash` names and (if
        asked) the seed, at once: every request starts with this read, and round trips are
        what a move costs."""
        ...

    def read_after(self, game_id: str, version: int, token_hash: str | None = None,
                   with_seed: bool = False) -> tuple[list[Event] | None, int | None,
                                                     str | None]:
        """The events after `version` of a game whose table at `version` the reader holds,
        with the seat and seed as in `read_table`, in one read: cheaper than the stored
        table when the game has moved little since (usually not at all). None instead of
        the events when the game is gone, or when more than SNAPSHOT_EVERY - 1 came
        after `version` (then reading the stored table costs less)."""
        ...

    def snapshots(self, game_ids: Sequence[str]) -> list[Stored | None]:
        """The stored tables of several games at once (None for an unknown game)."""
        ...

    def first_answer(self, game_id: str, idem_key: str) -> Idempotency | None:
        """The record kept with idempotency key `idem_key` (None: none, or expired)."""
        ...

    def checkpoint_at_or_before(self, game_id: str, seq: int) -> tuple[int, bytes] | None:
        """The latest replay checkpoint (seq, table) at or before `seq`, if one was kept."""
        ...

    def delete(self, game_id: str, version: int) -> bool:
        """Delete every key of the game (its log, table, checkpoints, tokens, secrets,
        chat, webhooks) if its log is still at `version` (atomically: an append racing
        the delete makes it refuse, False). Its listing entries are `Listings`'."""
        ...


class Listings(Protocol):
    """The indexes that list games: by status, by type, the lobby (a free seat), all."""

    def index(self, game_id: str, game_type: str, status: str, created_at: float,
              free_seat: bool = False) -> None:
        """List the game under its (new) status and its type, ordered by `created_at`;
        and in the lobby's index while it has a seat anyone may take (`free_seat`)."""
        ...

    def list_ids(self, status: str | None, game_type: str | None, offset: int,
                 limit: int, free_seat: bool = False) -> tuple[list[str], int]:
        """One page of game ids, newest first, filtered; and how many match in all.
        `free_seat`: only games with a seat anyone may take (all of them open)."""
        ...

    def scan_ids(self, status: str, batch: int = 500) -> Iterator[str]:
        """Every game id with `status`, without holding the index: a game that keeps its
        status during the scan is returned (once or, rarely, twice)."""
        ...

    def listed_before(self, status: str, before: float, limit: int) -> list[str]:
        """At most `limit` ids listed under `status` and created before `before`, oldest
        first (the retention sweep's candidates)."""
        ...

    def unlist(self, game_id: str, game_type: str | None) -> None:
        """Remove the game's listing entries (of its type too, when given)."""
        ...


class ChatLog(Protocol):
    """A table's chat, read after any entry (what the event streams need of it)."""

    def read_chat(self, game_id: str, after: int = 0,
                  count: int = CHAT_PAGE) -> list[ChatEntry]:
        """The game's chat entries numbered after `after` (at most `count`), in order; a
        hidden message without its text."""
        ...

    def chat_version(self, game_id: str) -> int:
        """The number of the chat's last entry (0: none)."""
        ...


class TableChat(ChatLog, Protocol):
    """A table's chat: written by its seats, a message hidden by the game's creator."""

    def post_message(self, game_id: str, entry: ChatEntry, limit: int) -> int | None:
        """Add a message (its text in `entry.text`) to the game's chat unless the chat
        holds `limit` entries already (then None); its number, and a notice (game, None)."""
        ...

    def hide_message(self, game_id: str, n: int, entry: ChatEntry) -> int | None:
        """In one atomic step: erase message `n`'s text and add the hiding `entry`. The
        hiding's number; 0 when the message was hidden already (nothing written); None
        when the chat has no message `n`."""
        ...


class Secrets(Protocol):
    """A game's seed (revealed at its end) and the hash of its creator's token."""

    def save_secrets(self, game_id: str, seed: str) -> str:
        """Keep the game's seed (written before the game's first append) unless one is
        kept already; returns the one kept (two creators of one game id agree on it)."""
        ...

    def seed(self, game_id: str) -> str | None: ...

    def save_creator(self, game_id: str, token_hash: str) -> None:
        """Keep the hash of the creator's token."""
        ...

    def creator(self, game_id: str) -> str | None:
        """The hash of the creator's token (None: unknown game)."""
        ...


class Analyses(Protocol):
    """A finished game's analysis (`domain.bots.analysis`, JSON), one per game."""

    def analysis(self, game_id: str) -> bytes | None:
        """The finished game's analysis, if made."""
        ...

    def keep_analysis(self, game_id: str, document: bytes) -> bool:
        """Keep the game's analysis unless one is kept already (False then): one per
        game, however many runs made one."""
        ...


class AppendFeed(Protocol):
    """Where the notices of appends (and of chat writes) are heard."""

    def appends(self) -> AppendNotices:
        """Subscribe to the notices of appends (each append gives one, after it landed)."""
        ...


class StreamSource(EventLog, ChatLog, AppendFeed, Protocol):
    """What the event streams and long-polls read: the log and the chat after a point,
    woken by the notices of appends."""


class EventStore(GameLog, Listings, TableChat, Secrets, Analyses, AppendFeed, Protocol):
    """The games' storage whole, as the service uses it: every port above, in one backend
    (a game's keys, chat and secrets included, live and are deleted together)."""
