"""The store port: what the service layer asks of storage, and nothing more.

The games' storage is split by concern, each a small port: `GameLog` (the log and its
atomic append: events, snapshot, replay checkpoints, seat tokens, idempotency records;
`EventLog` is its read side), `Listings` (the indexes that list games), `TableChat` (the
table's chat; `ChatLog` its read side), `Secrets` (the seed and the creator's token) and
`AppendFeed` (the notices of appends); `EventStore` is all of them in one backend, what
the service is given, and `StreamSource` what the event streams read. `WebhookStore`
keeps webhook registrations and deliveries; `PlayerStore` the players (records, names,
key hashes) and their inboxes; `RatingStore` their ratings, the record of which games
were rated, and the leaderboards. Redis implements them (`redis_*`), so does memory
(`memory*`), and one contract test per port runs on both (tests/contract/).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import NamedTuple, Protocol

import msgspec

from domain.chat import ChatEntry
from domain.events import Event
from domain.players.inbox import InboxMove
from domain.players.notes import PlayerEntry, PlayerNote
from domain.players.records import Player
from domain.ratings.standing import RatingChange, Standing
from domain.webhooks.deliveries import Delivery
from domain.webhooks.receivers import ReceiverState
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


class AppendFeed(Protocol):
    """Where the notices of appends (and of chat writes) are heard."""

    def appends(self) -> AppendNotices:
        """Subscribe to the notices of appends (each append gives one, after it landed)."""
        ...


class StreamSource(EventLog, ChatLog, AppendFeed, Protocol):
    """What the event streams and long-polls read: the log and the chat after a point,
    woken by the notices of appends."""


class EventStore(GameLog, Listings, TableChat, Secrets, AppendFeed, Protocol):
    """The games' storage whole, as the service uses it: every port above, in one backend
    (a game's keys, chat and secrets included, live and are deleted together)."""


class ArchiveStore(Protocol):
    """Finished games kept as archive records (`domain.archive`) in place of their keys,
    and the games waiting for theirs."""

    def stored_game(self, game_id: str) -> StoredGame | None:
        """What the archive of a game replaces, read at once (None: no log)."""
        ...

    def archived(self, game_id: str) -> bytes | None:
        """The game's archive record, if it is archived."""
        ...

    def archives_of(self, game_ids: Sequence[str]) -> list[bytes | None]:
        """Several games' records at once (None: not archived)."""
        ...

    def replace_with_archive(self, game_id: str, version: int, record: bytes) -> bool:
        """In one atomic step, if the game's log is still at `version` and not archived:
        keep `record` and delete what it replaces (`StoredGame`'s keys). False: the game
        moved, or is gone (archived already, deleted)."""
        ...

    def restore_archived(self, game_id: str, record: bytes, game: StoredGame) -> bool:
        """In one atomic step, if the game is still archived as `record`: write back its
        keys (`game`) and delete the record. False: it is not (restored meanwhile)."""
        ...

    def put_archived(self, game_id: str, record: bytes) -> bool:
        """Keep `record` as the archive of a game the store does not hold (an import);
        False (nothing written) if it holds the game, archived or not."""
        ...

    def put_game(self, game_id: str, game: StoredGame) -> bool:
        """Write a game's keys (an import) in one atomic step, unless the store holds the
        game, archived or not (then False, nothing written)."""
        ...

    def archive_due(self, game_id: str, ended_at: float) -> None:
        """Note a game that is over, to be archived."""
        ...

    def due_archives(self, before: float, limit: int) -> list[str]:
        """Games noted as over before `before`, oldest first."""
        ...

    def archive_done(self, game_id: str, refused: str | None = None) -> None:
        """The game is no longer waiting for its archive: archived (or gone), or
        `refused` (why, kept beside the refused games)."""
        ...

    def refused_archives(self) -> dict[str, str]:
        """The games whose archive was refused, and why."""
        ...

    def used_memory(self) -> tuple[int, int | None]:
        """The store's memory in use and its configured maximum (None: none), in bytes."""
        ...


class WebhookStore(Protocol):
    """Webhook registrations of a game, and their deliveries (kept for a while)."""

    def registrations(self, game_id: str) -> list[Registration]:
        """The game's registrations, oldest first."""
        ...

    def registration(self, game_id: str, hook_id: str) -> Registration | None: ...

    def add(self, reg: Registration, limit: int) -> bool:
        """Keep `reg` unless its owner (its seat, or the creator) already holds `limit`
        registrations in the game: checked and written in one atomic step, so that
        concurrent registrations never exceed it. False when refused."""
        ...

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

    def receiver(self, origin: str) -> ReceiverState | None:
        """The failing streak of a receiver (`domain.webhooks.receivers`), if any."""
        ...

    def save_receiver(self, origin: str, state: ReceiverState | None) -> None:
        """Keep the receiver's streak until a while after its block ends; None forgets it
        (it answered)."""
        ...


class InboxPage(NamedTuple):
    ids: list[str]
    total: int
    player: tuple[Player, str] | None  # the player and their key hash (None: unknown)
    scores: list[float] = []  # each id's score, in the same order


class PlayerStore(Protocol):
    """Players, their unique names and key hashes, and their inboxes."""

    def add(self, player: Player, name_key: str, key_hash: str) -> bool:
        """Keep a new player, unless another holds `name_key` (then False, nothing kept)."""
        ...

    def player(self, player_id: str) -> Player | None: ...

    def players(self, player_ids: Sequence[str]) -> list[Player | None]:
        """Several players at once (None for an unknown id)."""
        ...

    def named(self, name_key: str) -> str | None:
        """The id of the player whose name has this key."""
        ...

    def with_key_hash(self, player_id: str) -> tuple[Player, str] | None:
        """The player and the hash of their current key, in one read (None: unknown)."""
        ...

    def set_key_hash(self, player_id: str, key_hash: str) -> bool:
        """Replace the player's key hash; False for an unknown player."""
        ...

    def place(self, moves: Sequence[InboxMove], notes: Sequence[PlayerNote] = (),
              moved: Sequence[tuple[str, str, float]] = ()) -> None:
        """Move games within players' inboxes: each game leaves the player's other
        buckets and goes to its new position (or out, for None); add `notes` to their
        players' streams (each bounded to about PLAYER_EVENTS_KEPT entries, its growth
        published, and the player due for the notifier now); and note when each player
        of `moved` (player, game, when) last moved in that game: in the same round trip."""
        ...

    def player_events(self, player_id: str, after: str = "0-0",
                      count: int = 100) -> list[PlayerEntry]:
        """The entries of the player's stream after id `after`, oldest first."""
        ...

    def last_player_event(self, player_id: str) -> str:
        """The id of the stream's last entry ("0-0": none yet)."""
        ...

    def inbox_ids(self, player_id: str, bucket: str, offset: int, limit: int,
                  low: float = float("-inf"), high: float = float("inf"),
                  newest_first: bool = False) -> InboxPage:
        """One page of the game ids of a bucket with low <= score < high, by score
        (highest first with `newest_first`), with their scores; how many are in that
        range; and the player with their key hash (`with_key_hash`): one read, so that
        checking the key costs no round trip of its own."""
        ...


class RatingStore(Protocol):
    """Ratings per player and game type, the games rated, leaderboards, and the finished
    games waiting for their rating."""

    def standings(self, game_type: str, player_ids: Sequence[str]) -> list[Standing | None]:
        """The players' standings in one game type (None: never rated in it)."""
        ...

    def all_standings(self, player_id: str) -> dict[str, Standing]:
        """A player's standing in every game type it was rated in."""
        ...

    def changes(self, player_id: str, game_ids: Sequence[str]) -> list[RatingChange | None]:
        """What each game did to the player's rating (None: not rated for them)."""
        ...

    def apply(self, player_id: str, expected: Standing | None,
              change: RatingChange) -> str:
        """In one atomic step: unless game `change.game` was already rated for the player
        ("already"), or their standing in its type is no longer `expected` ("conflict"),
        set the standing to `change.after` and keep `change` ("applied")."""
        ...

    def rank(self, game_type: str, ratings: Mapping[str, float]) -> None:
        """Set members' places on the game type's leaderboard (by rating)."""
        ...

    def leaderboard(self, game_type: str, offset: int,
                    limit: int) -> tuple[list[tuple[str, float]], int]:
        """One page of (member, rating), best first; and how many members in all."""
        ...

    def await_rating(self, game_id: str, finished_at: float) -> None:
        """Note a finished game that waits for its rating."""
        ...

    def awaiting(self, finished_before: float, limit: int) -> list[str]:
        """Games waiting for their rating that finished before then, oldest first."""
        ...

    def rated(self, game_id: str) -> None:
        """The game's rating is done."""
        ...
