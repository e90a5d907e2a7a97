"""Reading archived games: the event store as before, an archived game expanded on demand.

`ArchivedGames` is the `EventStore` the service is given. It asks the store underneath
first; only when that finds nothing (no log, no table) does it look for the game's
archive record, expand it (`domain.archive.replay`) and answer from the expansion: the
same events, the same table (its snapshot's bytes), the same checkpoints, seat tokens,
seed and creator as the store held, so that every answer built on them is byte for byte
the one given before the game was archived. A live game costs nothing more, but where its
answer is empty (no event after the one asked for): then one read of the record's key.

Expansions are kept in this process, the most recently used first, up to `cache_events`
events in all (an event expanded costs about 1-2 KB of this process's memory).

Reading a game's table (its view, `GET /games/{id}`), seed, creator or version needs no
expansion when one was made lately by any process, or ever for a long game: the archiving
(`archiving`), and any process that expands a record, keeps beside the record what those
reads need and the record does not hold (`Kept`: the final game state, the take-back
memory, the last hash, with the version, the digest of the record and the state's shape),
a cache shared by the processes, for as long as `ReadCopies` says (a day; as long as the
record for a game whose expansion a first read could not afford). A process that
restarts, or another worker process, builds the final table as read from the record's
summary (the table without those three fields), head and seat
tokens plus the copy (`rebuilt`: byte for byte the table the expansion ends with,
checked before a copy is written), at about the cost of a live game's read. A record
without a summary (format 1) has the whole of it kept instead (`Final`), and a copy in
that form, as all copies were once, is read as it is. A copy is used only for the record
it came from (a game written back and archived again is expanded again).

An append to an archived game (a rematch's link, after the end) writes the game's keys
back first (`restore_archived`, one atomic step), then appends; and an append that ends
a game notes it as due for its archive (`archive_due`).
"""

from __future__ import annotations

import functools
import hashlib
import math
import threading
import zlib
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from domain.archive.codec import FormatError
from domain.archive.explain import as_read
from domain.archive.record import Record, compact_hash, peek_holders
from domain.archive.record import decode as decode_record
from domain.archive.replay import Expansion, Games, expand
from domain.archive.summary import head_summary, listed, record_summary
from domain.chat import ChatEntry
from domain.errors import VersionConflict
from domain.events import Event
from domain.lru import Lru
from domain.store.port import (
    CHAT_PAGE,
    CHECKPOINT_EVERY,
    AppendNotices,
    AppendResult,
    ArchiveStore,
    EventStore,
    Idempotency,
    Stored,
    StoredGame,
    TimerChanges,
)
from domain.table import OVER_EVENTS, Undo, decode_envelope, decode_table, encode_table

DEFAULT_CACHE_EVENTS = 100_000
DEFAULT_READ_TTL_S = 86_400.0
# From about this many events, a record's expansion costs a new process's first read of
# the game well over 10 views of a live game (`python -m bench.archive --sections cold`:
# 246 events 19 views, 100-107 events 15, 47 events 11): such a game keeps its copy as
# long as its record.
DEFAULT_KEPT_FROM_EVENTS = 200
FINALS_KEPT = 10_000  # (a final table as read: about 1.5 KB)
SUMMARIES_KEPT = 10_000  # (a summary as a table's bytes: about 1 KB)
# The events that end a game: after them it waits for its archive.
GAME_OVER = OVER_EVENTS


@dataclass(frozen=True)
class ReadCopies:
    """How long the copy of what reads of an archived game's table need (`Kept`) is kept
    beside its record: `ttl_s` after the archiving and after each expansion (0: no copy
    is kept), and as long as the record for a game of `kept_from_events` events or more
    (None: for no game), whose expansion a first read could not afford."""

    ttl_s: float = DEFAULT_READ_TTL_S
    kept_from_events: int | None = DEFAULT_KEPT_FROM_EVENTS

    def ttl_for(self, events: int) -> float:
        """The copy's time to live for a game of `events` events (inf: no expiry)."""
        if self.ttl_s > 0 and self.kept_from_events is not None and \
                events >= self.kept_from_events:
            return math.inf
        return self.ttl_s


DEFAULT_COPIES = ReadCopies()


def record_digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


class Final(msgspec.Struct, frozen=True, array_like=True):
    """What reads of an archived game's table need: the final table as read (a snapshot's
    bytes), the seat tokens, the seed, the creator and the version, with the digest of
    the record they came from. (The copy of a record without a summary, format 1, keeps
    it whole: `encode_final`.)"""

    digest: bytes
    version: int
    seed: str
    creator: str | None
    tokens: dict[str, int]
    snapshot: bytes

    def stored(self) -> Stored:
        return Stored(self.snapshot, [])


class Kept(msgspec.Struct, frozen=True, array_like=True):
    """The copy of what reads of an archived game's table need that its record does not
    hold: the final game state (msgpack: its fields' values in order, without their names,
    `state_bytes`), the take-back memory and the last hash (32 bytes when it is a sha256
    in hex), with the version and the digest of the record, and the shape the state and
    the take-back memory were written in (`layout_of`: a copy a long game keeps outlives
    the code that wrote it, and a state of another shape read by position would put
    values in the wrong fields). The rest of the table, the seed, the tokens and the
    creator are read from the record (its summary, head and last fields: `rebuilt`)."""

    digest: bytes
    layout: bytes
    version: int
    last_hash: Any  # bytes (a sha256's 32) or, were it not one, its text
    game: msgspec.Raw
    undo: Undo | None


_FINAL = msgspec.msgpack.Decoder(Final)
_KEPT = msgspec.msgpack.Decoder(Kept)
_NIL = b"\xc0"  # msgpack's nil: a table with no game state (a game cancelled unstarted)
# The first byte of a copy kept as `Kept` (one kept whole, `Final`, is a zlib stream:
# its first byte is 0x78). A copy of an earlier layout (its game state by field names,
# 0x01; without the state's shape, 0x02) does not read: the record is expanded, and the
# copy written again.
KEPT_COPY = b"\x03"


def encode_final(final: Final) -> bytes:
    return zlib.compress(msgspec.msgpack.encode(final))


def decode_final(data: bytes) -> Final | None:
    """The copy's `Final`; None if it cannot be read (a copy of another version's)."""
    try:
        return _FINAL.decode(zlib.decompress(data))
    except (zlib.error, msgspec.DecodeError):
        return None


def read_copy(copy: bytes, data: bytes, games: Games,
              digest: bytes | None = None) -> Final | None:
    """What reads of the table need, from the copy kept beside the record `data`
    (either kind; `digest`: the record's, when known); None when the copy is not that
    record's or does not read."""
    digest = digest or record_digest(data)
    if not copy.startswith(KEPT_COPY):
        final = decode_final(copy)
        return final if final is not None and final.digest == digest else None
    try:
        kept = _KEPT.decode(copy[1:])
    except msgspec.DecodeError:
        return None
    if kept.digest != digest:
        return None
    try:
        return rebuilt(kept, data, games)
    except (FormatError, msgspec.DecodeError, KeyError, ValueError):
        return None  # (a cache: the record is expanded instead)


def rebuilt(kept: Kept, data: bytes, games: Games) -> Final | None:
    """The final table as read, from the record's summary and what `kept` adds (None:
    the record has no summary, or is of another version). Only the record's head,
    special steps and last fields are read: not its choices nor its clock readings."""
    head, first, tokens, creator = peek_holders(data)
    fields = head_summary(head, first, games)
    if fields is None or head.version != kept.version:
        return None
    state_type = games[fields["type"]].state_type
    if kept.layout != layout_of(state_type):
        return None
    game = None
    if bytes(kept.game) != _NIL:
        game = state_of(kept.game, state_type)
    last_hash = kept.last_hash
    if isinstance(last_hash, bytes):
        last_hash = last_hash.hex()
    # The table as a reader decodes it (`decode_table`): the rest of it through the
    # decoder of snapshots (built once, when this module is imported).
    envelope = decode_envelope(msgspec.json.encode(fields))
    table = msgspec.structs.replace(envelope, game=game, undo=kept.undo, last_hash=last_hash)
    return Final(kept.digest, kept.version, head.seed, creator, tokens, encode_table(table))


@functools.lru_cache(maxsize=64)
def layout_of(state_type: type) -> bytes:
    """Four bytes that change with the shape a copy keeps the game state and the take-back
    memory in (the digest of their JSON Schema: fields, their order and types, nested
    structs too)."""
    schema = msgspec.json.schema_components([state_type, Undo])
    return hashlib.blake2b(msgspec.json.encode(schema), digest_size=4).digest()


def state_bytes(state: Any) -> bytes:
    """A game state for the copy: a struct's field values in order, without their names
    (about half its bytes: the names are most of a final state's); anything else as
    msgpack encodes it."""
    if isinstance(state, msgspec.Struct):
        return msgspec.msgpack.encode(msgspec.structs.astuple(state))
    return msgspec.msgpack.encode(state)


def state_of(raw: bytes, state_type: type) -> Any:
    """The game state `state_bytes` wrote."""
    positional, fields = _positional(state_type)
    if positional is None:
        return _decoder(state_type).decode(raw)
    values = _decoder(positional).decode(raw)
    return state_type(**{name: getattr(values, name) for name in fields})


@functools.lru_cache(maxsize=64)
def _positional(state_type: type) -> tuple[type | None, tuple[str, ...]]:
    """A struct like `state_type` read from an array of its fields' values (None: not a
    struct)."""
    if not (isinstance(state_type, type) and issubclass(state_type, msgspec.Struct)):
        return None, ()
    fields = msgspec.structs.fields(state_type)
    mirror = msgspec.defstruct(f"{state_type.__name__}Values",
                               [(f.name, f.type) for f in fields], array_like=True)
    return mirror, tuple(f.name for f in fields)


@functools.lru_cache(maxsize=128)
def _decoder(of: type) -> msgspec.msgpack.Decoder[Any]:
    return msgspec.msgpack.Decoder(of)


def copy_of(archived: Archived, games: Games) -> bytes:
    """The copy to keep beside an archived game's record: `Kept` when its record has a
    summary and the table rebuilds from the two byte for byte (checked here), else the
    whole `Final`."""
    final = archived.final()
    if archived.record.summary is None:
        return encode_final(final)
    read = decode_table(archived.snapshot, games)
    kept = Kept(final.digest, layout_of(games[read.type].state_type), final.version,
                compact_hash(read.last_hash) or read.last_hash,
                msgspec.Raw(state_bytes(read.game)), read.undo)
    copy = KEPT_COPY + msgspec.msgpack.encode(kept)
    if read_copy(copy, archived.data, games) != final:
        return encode_final(final)
    return copy


@dataclass
class Archived:
    """An archived game as this process holds it: the record and its expansion."""

    record: Record
    data: bytes
    expansion: Expansion
    snapshot: bytes

    def keep_copy(self, archives: ArchiveStore, game_id: str, games: Games,
                  copies: ReadCopies) -> None:
        """Keep the copy of what reads of its table need beside the record, for as long as
        `copies` says for a game of its length (nothing if not at all)."""
        ttl_s = copies.ttl_for(self.record.version)
        if ttl_s > 0:
            archives.keep_read(game_id, copy_of(self, games), ttl_s)

    @classmethod
    def of(cls, record: Record, data: bytes, expansion: Expansion, games: Games) -> Archived:
        """The record `data` decodes to, with its expansion."""
        return cls(record, data, expansion, as_read(encode_table(expansion.table), games))

    @property
    def version(self) -> int:
        return len(self.expansion.events)

    def final(self) -> Final:
        return Final(record_digest(self.data), self.version, self.record.seed,
                     self.record.creator, dict(self.record.tokens), self.snapshot)

    def as_stored_game(self) -> StoredGame:
        return StoredGame(events=list(self.expansion.events), snapshot=self.snapshot,
                          checkpoints=dict(self.expansion.checkpoints),
                          tokens=dict(self.record.tokens), seed=self.record.seed,
                          creator=self.record.creator)


class ExpansionCache:
    """Expanded games, least recently used forgotten first, within `limit` events."""

    def __init__(self, limit: int = DEFAULT_CACHE_EVENTS) -> None:
        self.limit = limit
        self.size = 0
        self._games: OrderedDict[str, Archived] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> Archived | None:
        with self._lock:
            found = self._games.get(game_id)
            if found is not None:
                self._games.move_to_end(game_id)
            return found

    def put(self, game_id: str, archived: Archived) -> None:
        with self._lock:
            old = self._games.pop(game_id, None)
            if old is not None:
                self.size -= old.version
            self._games[game_id] = archived
            self.size += archived.version
            while self.size > self.limit and len(self._games) > 1:
                _id, dropped = self._games.popitem(last=False)
                self.size -= dropped.version

    def forget(self, game_id: str) -> None:
        with self._lock:
            old = self._games.pop(game_id, None)
            if old is not None:
                self.size -= old.version

    def __len__(self) -> int:
        return len(self._games)


def expand_record(data: bytes, games: Games) -> Archived:
    record = decode_record(data)
    return Archived.of(record, data, expand(record, games), games)


class ArchivedGames:
    """The `EventStore` port over `store`, with the archived games of `archives` read as
    if they were still there (see the module)."""

    def __init__(self, store: EventStore, archives: ArchiveStore, games: Games,
                 cache_events: int = DEFAULT_CACHE_EVENTS,
                 copies: ReadCopies = DEFAULT_COPIES) -> None:
        self.store = store
        self.archives = archives
        self.games = games
        self.copies = copies
        # The shapes of the games' states (`layout_of`): ~1 ms a game the first time in a
        # process (msgspec reads the types), paid here rather than by a first reader.
        for game in games.values():
            layout_of(game.state_type)
        self.cache = ExpansionCache(cache_events)
        # game id -> its Final, read from the copy kept beside its record
        self.finals: Lru[str, Final] = Lru(FINALS_KEPT)
        # game id -> (its record, its summary): what listings read of archived games
        self.summaries: Lru[str, tuple[bytes, bytes]] = Lru(SUMMARIES_KEPT)

    def archived_game(self, game_id: str) -> Archived | None:
        """The game's expansion, if it is archived: this process's, when it expanded the
        record there is now (a game written back for a rematch's link, by any process, is
        archived again later with one more event)."""
        data = self.archives.archived(game_id)
        if data is None:
            return None
        found = self.cache.get(game_id)
        if found is not None and found.data == data:
            return found
        return self._expanded(game_id, data)

    def final(self, game_id: str) -> Final | None:
        """What reads of the game's table need, if it is archived: from this process's
        expansion, else from the copy kept beside the record, else from expanding it
        (which keeps the copy). One round trip when either is at hand."""
        data, copy = self.archives.archived_and_read(game_id)
        if data is None:
            return None
        found = self.cache.get(game_id)
        if found is not None and found.data == data:
            return found.final()
        digest = record_digest(data)
        kept = self.finals.get(game_id)
        if kept is not None and kept.digest == digest:
            return kept
        read = read_copy(copy, data, self.games, digest) if copy is not None else None
        if read is not None:
            self.finals.put(game_id, read)
            return read
        return self._expanded(game_id, data).final()

    def _expanded(self, game_id: str, data: bytes) -> Archived:
        found = expand_record(data, self.games)
        self.cache.put(game_id, found)
        found.keep_copy(self.archives, game_id, self.games, self.copies)
        return found

    # --- writing -------------------------------------------------------------------------
    def append(self, game_id: str, expected_version: int, events: list[Event],
               snapshot: bytes | None, checkpoint: tuple[int, bytes] | None = None,
               token: tuple[str, int] | None = None,
               idempotency: Idempotency | None = None,
               timers: TimerChanges | None = None) -> AppendResult:
        def attempt() -> AppendResult:
            return self.store.append(game_id, expected_version, events, snapshot,
                                     checkpoint=checkpoint, token=token,
                                     idempotency=idempotency, timers=timers)
        try:
            result = attempt()
        except VersionConflict as conflict:
            if conflict.actual != 0 or expected_version == 0 or not self.restore(game_id):
                raise
            result = attempt()
        if result.duplicate is None:
            over = [e for e in events if e.type in GAME_OVER]
            if over:
                self.archives.archive_due(game_id, over[-1].at)
        return result

    def restore(self, game_id: str) -> bool:
        """Write an archived game's keys back (to append to it); False if it is not
        archived. It is due for its archive again."""
        archived = self.archived_game(game_id)
        if archived is None:
            return False
        self.cache.forget(game_id)
        restored = self.archives.restore_archived(game_id, archived.data,
                                                  archived.as_stored_game())
        if restored:
            self.archives.archive_due(game_id, archived.expansion.table.updated_at)
        return restored or self.archives.archived(game_id) is None

    def post_message(self, game_id: str, entry: ChatEntry, limit: int) -> int | None:
        return self.store.post_message(game_id, entry, limit)

    def hide_message(self, game_id: str, n: int, entry: ChatEntry) -> int | None:
        return self.store.hide_message(game_id, n, entry)

    def save_secrets(self, game_id: str, seed: str) -> str:
        return self.store.save_secrets(game_id, seed)

    def save_creator(self, game_id: str, token_hash: str) -> None:
        self.store.save_creator(game_id, token_hash)

    # --- reading one game ----------------------------------------------------------------
    def read_table(self, game_id: str, token_hash: str | None = None,
                   with_seed: bool = False) -> tuple[Stored | None, int | None, str | None]:
        found = self.store.read_table(game_id, token_hash, with_seed)
        if found[0] is not None:
            return found
        final = self.final(game_id)
        if final is None:
            return found
        seat = final.tokens.get(token_hash) if token_hash is not None else None
        return final.stored(), seat, final.seed if with_seed else None

    def read_after(self, game_id: str, version: int, token_hash: str | None = None,
                   with_seed: bool = False) -> tuple[list[Event] | None, int | None,
                                                     str | None]:
        # An archived game reads as gone here: the reader then reads its table.
        return self.store.read_after(game_id, version, token_hash, with_seed)

    def seed(self, game_id: str) -> str | None:
        found = self.store.seed(game_id)
        if found is not None:
            return found
        final = self.final(game_id)
        return final.seed if final is not None else None

    def creator(self, game_id: str) -> str | None:
        found = self.store.creator(game_id)
        if found is not None:
            return found
        final = self.final(game_id)
        return final.creator if final is not None else None

    def first_answer(self, game_id: str, idem_key: str) -> Idempotency | None:
        return self.store.first_answer(game_id, idem_key)

    def checkpoint_at_or_before(self, game_id: str, seq: int) -> tuple[int, bytes] | None:
        archived = self.cache.get(game_id)
        if archived is None:
            found = self.store.checkpoint_at_or_before(game_id, seq)
            if found is not None or seq < CHECKPOINT_EVERY:
                return found
            archived = self.archived_game(game_id)
            if archived is None:
                return None
        at = seq - seq % CHECKPOINT_EVERY
        raw = archived.expansion.checkpoints.get(at)
        return (at, raw) if raw is not None else None

    # --- the log -------------------------------------------------------------------------
    def read(self, game_id: str, after: int = 0, until: int | None = None,
             count: int | None = None) -> list[Event]:
        found = self.store.read_logged(game_id, after, until, count)
        if found is not None:
            return found
        archived = self.archived_game(game_id)
        if archived is None:
            return []
        end = archived.version if until is None else min(until, archived.version)
        events = archived.expansion.events[max(after, 0):end]
        return events[:count] if count is not None else events

    def wait(self, game_id: str, after: int, timeout_s: float,
             count: int | None = None) -> list[Event]:
        found = self.read(game_id, after, count=count)
        if found or self.cache.get(game_id) is not None:
            return found
        return self.store.wait(game_id, after, timeout_s, count)

    def version(self, game_id: str) -> int:
        found = self.store.version(game_id)
        if found:
            return found
        final = self.final(game_id)
        return final.version if final is not None else 0

    def read_chat(self, game_id: str, after: int = 0,
                  count: int = CHAT_PAGE) -> list[ChatEntry]:
        return self.store.read_chat(game_id, after, count)

    def chat_version(self, game_id: str) -> int:
        return self.store.chat_version(game_id)

    def appends(self) -> AppendNotices:
        return self.store.appends()

    # --- many games ----------------------------------------------------------------------
    def snapshots(self, game_ids: Sequence[str]) -> list[Stored | None]:
        """The stored tables of live games; of archived ones, their summaries (the final
        table without its game state, `domain.archive.summary`): what listings and
        inboxes read, without expanding any game."""
        found = self.store.snapshots(game_ids)
        missing = [i for i, stored in zip(game_ids, found, strict=True) if stored is None]
        if not missing:
            return found
        records = dict(zip(missing, self.archives.archives_of(missing), strict=True))
        out: list[Stored | None] = []
        for game_id, stored in zip(game_ids, found, strict=True):
            data = records.get(game_id)
            if stored is None and data is not None:
                stored = Stored(self._summary(game_id, data), [])
            out.append(stored)
        return out

    def _summary(self, game_id: str, data: bytes) -> bytes:
        """An archived game's summary as a snapshot's bytes (this process's, when it read
        this record before); a record without one (format 1) is expanded for it."""
        kept = self.summaries.get(game_id)
        if kept is not None and kept[0] == data:
            return kept[1]
        summary = record_summary(data, self.games)
        if summary is None:
            archived = self.cache.get(game_id)
            if archived is None or archived.data != data:
                archived = self._expanded(game_id, data)
            summary = encode_table(listed(archived.expansion.table))
        self.summaries.put(game_id, (data, summary))
        return summary

    def index(self, game_id: str, game_type: str, status: str, created_at: float,
              free_seat: bool = False) -> None:
        self.store.index(game_id, game_type, status, created_at, free_seat)

    def scan_ids(self, status: str, batch: int = 500) -> Iterator[str]:
        return self.store.scan_ids(status, batch)

    def list_ids(self, status: str | None, game_type: str | None, offset: int,
                 limit: int, free_seat: bool = False) -> tuple[list[str], int]:
        return self.store.list_ids(status, game_type, offset, limit, free_seat)

    # --- retention -----------------------------------------------------------------------
    def listed_before(self, status: str, before: float, limit: int) -> list[str]:
        return self.store.listed_before(status, before, limit)

    def delete(self, game_id: str, version: int) -> bool:
        return self.store.delete(game_id, version)

    def unlist(self, game_id: str, game_type: str | None) -> None:
        self.store.unlist(game_id, game_type)

    def __getattr__(self, name: str) -> Any:
        # Whatever else the store underneath offers (methods other parts add to it).
        return getattr(self.store, name)
