"""The store port: what the service layer asks of storage, and nothing more.

The games' storage is split by concern, each a small port: `GameLog` (the log and its
atomic append: events, snapshot, replay checkpoints, seat tokens, idempotency records;
`EventLog` is its read side), `Listings` (the indexes that list games), `TableChat` (the
table's chat; `ChatLog` its read side), `Secrets` (the seed and the creator's token),
`Analyses` (a finished game's analysis) and `AppendFeed` (the notices of appends);
`EventStore` is all of them in one backend, what the service is given, and
`StreamSource` what the event streams read. `WebhookStore` keeps webhook registrations
and deliveries; `PlayerStore` the players (records, names, key hashes) and their
inboxes; `RatingStore` their ratings, the record of which games were rated, and the
leaderboards. Redis implements them (`redis_*`), so does memory (`memory*`), and one
contract test per port runs on both (tests/contract/).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple, Protocol

from domain.notify.digest import NotifyState
from domain.notify.prefs import Preferences
from domain.notify.records import NotifyRecord, PlayerHook, Presence, PushSubscription
from domain.players.inbox import InboxMove
from domain.players.notes import PlayerEntry, PlayerNote
from domain.players.records import Player
from domain.ratings.standing import RatingChange, Standing

# The games' storage, port by port, and the records the stores share: offered here too.
from domain.store.game_ports import (
    Analyses,
    AppendFeed,
    AppendNotices,
    ChatLog,
    EventLog,
    EventStore,
    GameLog,
    Listings,
    Secrets,
    StreamSource,
    TableChat,
)
from domain.store.records import (
    CHAT_PAGE,
    CHECKPOINT_EVERY,
    DELIVERIES_KEPT,
    DELIVERY_TTL_S,
    IDEMPOTENCY_TTL_S,
    PLAYER_EVENTS_KEPT,
    RECEIVER_KEPT_S,
    SNAPSHOT_EVERY,
    AppendResult,
    Idempotency,
    Inventory,
    Merged,
    Stored,
    StoredGame,
    TimerChanges,
    Typed,
)
from domain.webhooks.deliveries import Delivery
from domain.webhooks.receivers import ReceiverState
from domain.webhooks.registration import Registration


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

    def archived_and_read(self, game_id: str) -> tuple[bytes | None, bytes | None]:
        """The game's archive record and the copy of its reading kept beside it (None:
        none, or expired), in one round trip."""
        ...

    def keep_read(self, game_id: str, copy: bytes, ttl_s: float) -> None:
        """Keep `copy`, what reads of the archived game's table need besides its record
        (`domain.archive.reading.copy_of`), for `ttl_s` seconds (`math.inf`: as long as
        the record): a cache shared by the processes."""
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

    def put_archived(self, game_id: str, record: bytes,
                     others: Mapping[str, Typed] | None = None) -> bool:
        """Keep `record` as the archive of a game the store does not hold (an import),
        with the game's `others` keys (its chat, webhooks…: `KeyBackup`) in the same
        step; False (nothing written) if it holds the game, archived or not."""
        ...

    def put_game(self, game_id: str, game: StoredGame,
                 others: Mapping[str, Typed] | None = None) -> bool:
        """Write a game's keys (an import), `others` with them, in one atomic step, unless
        the store holds the game, archived or not (then False, nothing written)."""
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


class KeyBackup(Protocol):
    """What a backup holds besides the games' logs and records, key by key
    (`domain.store.redis_backup`): the games' other keys, the players', the service's."""

    def inventory(self) -> Inventory:
        """The keys a backup holds, by owner."""
        ...

    def dump(self, names: list[str]) -> dict[str, Typed]:
        """The keys' values, typed (a key gone meanwhile is left out)."""
        ...

    def put_player(self, player_id: str, values: Mapping[str, Typed]) -> bool:
        """A player's keys in one step, unless the store has that player (False)."""
        ...

    def merge_service(self, values: Mapping[str, Typed]) -> Merged:
        """The service's keys, adding only what the store lacks."""
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

    def bot_standings(self, game_type: str) -> dict[str, Standing]:
        """The bot levels' standings in one game type from this deployment's calibration
        (empty: never calibrated)."""
        ...

    def calibrated(self, game_type: str, standings: Mapping[str, Standing]) -> None:
        """Keep a calibration's standings of the bot levels in one game type."""
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

__all__ = [
    "CHAT_PAGE",
    "CHECKPOINT_EVERY",
    "DELIVERIES_KEPT",
    "DELIVERY_TTL_S",
    "IDEMPOTENCY_TTL_S",
    "PLAYER_EVENTS_KEPT",
    "RECEIVER_KEPT_S",
    "SNAPSHOT_EVERY",
    "Analyses",
    "AppendFeed",
    "AppendNotices",
    "AppendResult",
    "ArchiveStore",
    "ChatLog",
    "EventLog",
    "EventStore",
    "GameLog",
    "Idempotency",
    "InboxPage",
    "Listings",
    "PlayerStore",
    "RatingStore",
    "Secrets",
    "Stored",
    "StoredGame",
    "StreamSource",
    "TableChat",
    "TimerChanges",
    "WebhookStore",
]


class NotifyStore(Protocol):
    """What the notifications keep of each player (their preferences and address, the
    notifier's places in their stream, where they are, their push subscriptions and
    webhooks) and the players due for the notifier, taken with a lease."""

    def record(self, player_id: str) -> NotifyRecord:
        """The player's record (defaults for a player who never set anything)."""
        ...

    def save_prefs(self, player_id: str, prefs: Preferences,
                   state: NotifyState | None = None) -> None: ...

    def set_address(self, player_id: str, address: str | None) -> None:
        """A new address waits for its confirmation (None: no address at all)."""
        ...

    def confirm_address(self, player_id: str, digest: str) -> bool:
        """The waiting address whose digest is `digest` becomes the address."""
        ...

    def unsubscribe(self, player_id: str, digest: str) -> bool:
        """Forget the address whose digest is `digest`."""
        ...

    def confirmation_sent(self, player_id: str) -> None: ...

    def save_state(self, player_id: str, state: NotifyState) -> None: ...

    def mark_present(self, player_id: str, what: str, until: float) -> None:
        """A stream of the player's is open on game `what` (`*`: their own) until then."""
        ...

    def presence(self, player_id: str, now: float) -> Presence:
        """Where the player is now, where they last moved, their subscriptions' count and
        their webhooks (what one round of the notifier needs, in one read)."""
        ...

    def subscribe(self, player_id: str, sub: PushSubscription, limit: int) -> bool:
        """Keep `sub` (replacing one of the same id) unless `limit` are kept already."""
        ...

    def unsubscribe_push(self, player_id: str, sub_id: str) -> bool: ...

    def subscriptions(self, player_id: str) -> list[PushSubscription]:
        """Oldest first."""
        ...

    def add_hook(self, player_id: str, hook: PlayerHook, limit: int) -> bool: ...

    def remove_hook(self, player_id: str, hook_id: str) -> bool: ...

    def hooks(self, player_id: str) -> list[PlayerHook]:
        """Oldest first."""
        ...

    def claim(self, now: float, lease_s: float, limit: int) -> tuple[list[str], float]:
        """At most `limit` players due by `now`, each leased until now + lease_s (nobody
        else takes them meanwhile); and that lease."""
        ...

    def release(self, player_id: str, lease: float, next_look: float | None) -> None:
        """Put a leased player back, due at `next_look` (None: not due), unless they were
        made due meanwhile (then they stay due at the earlier of the two)."""
        ...

    def due_now(self, player_id: str, at: float) -> None:
        """Make the player due at `at`, unless they are due earlier."""
        ...

    def kept_secret(self, key: str, make: bytes) -> bytes:
        """The value kept under `key`; `make` if none was (the first asker's wins)."""
        ...

    def link_secret(self) -> bytes: ...

    def erase(self, player_id: str) -> None:
        """Everything kept of the player."""
        ...
