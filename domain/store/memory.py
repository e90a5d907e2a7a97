"""The games' storage in this process's memory, port by port, and whole (`EventStore`): the
service's unit tests run on it.

It behaves as the Redis store does (the contract tests run on both): appends at an
expected version or a conflict, idempotency records that expire, the snapshot, replay
checkpoints and seat tokens written with the append, secrets, listing indexes newest
first, the chat, and a blocking wait for new events. Each port is a class of its own over
the same games (`_MemoryGames`); `MemoryEventStore` is all of them in one object. One lock
guards everything; waiting readers are woken by every append.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import msgspec

from domain.chat import MESSAGE, ChatEntry
from domain.errors import VersionConflict
from domain.events import Event
from domain.store.port import (
    CHAT_PAGE,
    CHECKPOINT_EVERY,
    IDEMPOTENCY_TTL_S,
    SNAPSHOT_EVERY,
    AppendResult,
    Idempotency,
    Stored,
    TimerChanges,
)
from domain.table import STATUSES


@dataclass
class _Game:
    events: list[Event] = field(default_factory=list)  # events[i] has seq i + 1
    snapshot: bytes | None = None
    snapshot_version: int = 0
    checkpoints: dict[int, bytes] = field(default_factory=dict)
    tokens: dict[str, int] = field(default_factory=dict)
    answers: dict[str, tuple[float, Idempotency]] = field(default_factory=dict)  # -> expiry
    seed: str | None = None
    creator: str | None = None
    chat: list[ChatEntry] = field(default_factory=list)  # chat[i] has n i + 1, no text
    chat_texts: dict[int, str] = field(default_factory=dict)  # until hidden


class _MemoryGames:
    """What the in-memory ports hold (one object for all of them in `MemoryEventStore`):
    the games by id, each port reading and writing its own fields of a game; the listing
    indexes; one lock, whose condition wakes the waiting readers; the subscribers to the
    notices. `clock` decides when idempotency records expire."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._games: dict[str, _Game] = {}
        # index name ("all", "status:<s>", "type:<t>", "free", "free:<t>") -> game id ->
        # created_at
        self._indexes: dict[str, dict[str, float]] = {}
        self._changed = threading.Condition()
        self._subscribers: set[_MemoryNotices] = set()
        self._analyses: dict[str, bytes] = {}
        self._analyses: dict[str, bytes] = {}

    def _game(self, game_id: str) -> _Game:
        return self._games.setdefault(game_id, _Game())

    def _notify(self, game_id: str, version: int | None) -> None:
        self._changed.notify_all()
        for subscriber in self._subscribers:
            subscriber.queue.put((game_id, version))


class MemoryGameLog(_MemoryGames):
    """The `GameLog` port in memory."""

    def append(self, game_id: str, expected_version: int, events: list[Event],
               snapshot: bytes | None, checkpoint: tuple[int, bytes] | None = None,
               token: tuple[str, int] | None = None,
               idempotency: Idempotency | None = None,
               timers: TimerChanges | None = None) -> AppendResult:
        # `timers` are not kept here (timers_applied stays False): the hooks arm them.
        with self._changed:
            game = self._game(game_id)
            if idempotency is not None:
                first = self._answer(game, idempotency.key)
                if first is not None:
                    return AppendResult(version=expected_version, duplicate=first)
            version = len(game.events)
            if version != expected_version:
                raise VersionConflict(expected_version, version)
            game.events.extend(events)
            if snapshot is not None:
                game.snapshot, game.snapshot_version = snapshot, version + len(events)
            if checkpoint is not None:
                game.checkpoints[checkpoint[0]] = checkpoint[1]
            if token is not None:
                game.tokens[token[0]] = token[1]
            if idempotency is not None:
                game.answers[idempotency.key] = (self.clock() + IDEMPOTENCY_TTL_S,
                                                 idempotency)
            self._notify(game_id, len(game.events))
            return AppendResult(version=len(game.events))

    def read_table(self, game_id: str, token_hash: str | None = None,
                   with_seed: bool = False) -> tuple[Stored | None, int | None, str | None]:
        with self._changed:
            game = self._games.get(game_id) or _Game()
            seat = game.tokens.get(token_hash) if token_hash is not None else None
            return self._stored(game), seat, game.seed if with_seed else None

    def read_after(self, game_id: str, version: int, token_hash: str | None = None,
                   with_seed: bool = False) -> tuple[list[Event] | None, int | None,
                                                     str | None]:
        with self._changed:
            game = self._games.get(game_id) or _Game()
            seat = game.tokens.get(token_hash) if token_hash is not None else None
            newer = game.events[version:]
            gone = game.snapshot is None or len(newer) >= SNAPSHOT_EVERY
            return None if gone else newer, seat, game.seed if with_seed else None

    @staticmethod
    def _stored(game: _Game | None) -> Stored | None:
        if game is None or game.snapshot is None:
            return None
        return Stored(game.snapshot, game.events[game.snapshot_version:])

    def snapshots(self, game_ids: Sequence[str]) -> list[Stored | None]:
        with self._changed:
            return [self._stored(self._games.get(i)) for i in game_ids]

    def first_answer(self, game_id: str, idem_key: str) -> Idempotency | None:
        with self._changed:
            game = self._games.get(game_id)
            return self._answer(game, idem_key) if game else None

    def _answer(self, game: _Game, idem_key: str) -> Idempotency | None:
        found = game.answers.get(idem_key)
        if found is None:
            return None
        if found[0] <= self.clock():
            del game.answers[idem_key]
            return None
        return found[1]

    def checkpoint_at_or_before(self, game_id: str, seq: int) -> tuple[int, bytes] | None:
        at = seq - seq % CHECKPOINT_EVERY
        if at <= 0:
            return None
        with self._changed:
            game = self._games.get(game_id)
            raw = game.checkpoints.get(at) if game else None
            return (at, raw) if raw is not None else None

    def read(self, game_id: str, after: int = 0, until: int | None = None,
             count: int | None = None) -> list[Event]:
        with self._changed:
            game = self._games.get(game_id)
            if game is None:
                return []
            end = len(game.events) if until is None else min(until, len(game.events))
            found = game.events[max(after, 0):end]
            return found[:count] if count is not None else found

    def read_logged(self, game_id: str, after: int = 0, until: int | None = None,
                    count: int | None = None) -> list[Event] | None:
        with self._changed:
            game = self._games.get(game_id)
            if game is None or not game.events or len(game.events) < after:
                return None
            end = len(game.events) if until is None else min(until, len(game.events))
            found = game.events[max(after, 0):end]
            return found[:count] if count is not None else found

    def wait(self, game_id: str, after: int, timeout_s: float,
             count: int | None = None) -> list[Event]:
        with self._changed:
            self._changed.wait_for(lambda: self.version(game_id) > after, timeout_s)
            return self.read(game_id, after=after, count=count)

    def version(self, game_id: str) -> int:
        with self._changed:
            game = self._games.get(game_id)
            return len(game.events) if game else 0

    def delete(self, game_id: str, version: int) -> bool:
        with self._changed:
            game = self._games.get(game_id)
            if game is None or len(game.events) != version:
                return False
            del self._games[game_id]  # (its chat and secrets with it)
            self._analyses.pop(game_id, None)
            return True


class MemoryListings(_MemoryGames):
    """The `Listings` port in memory."""

    def index(self, game_id: str, game_type: str, status: str, created_at: float,
              free_seat: bool = False) -> None:
        with self._changed:
            for s in STATUSES:
                if s != status:
                    self._indexes.get(f"status:{s}", {}).pop(game_id, None)
            for name in (f"status:{status}", f"type:{game_type}", "all"):
                self._indexes.setdefault(name, {})[game_id] = created_at
            for name in ("free", f"free:{game_type}"):
                if free_seat:
                    self._indexes.setdefault(name, {})[game_id] = created_at
                else:
                    self._indexes.get(name, {}).pop(game_id, None)

    def list_ids(self, status: str | None, game_type: str | None, offset: int,
                 limit: int, free_seat: bool = False) -> tuple[list[str], int]:
        with self._changed:
            if free_seat:
                if status not in (None, "open"):
                    return [], 0
                lobby = dict(self._indexes.get(f"free:{game_type}" if game_type else "free",
                                               {}))
                ordered = sorted(lobby, key=lambda i: (lobby[i], i), reverse=True)
                return ordered[offset:offset + limit], len(ordered)
            chosen = [self._indexes.get(name, {}) for name, wanted in (
                (f"status:{status}", status), (f"type:{game_type}", game_type)) if wanted]
            if not chosen:
                chosen = [self._indexes.get("all", {})]
            found = {i: min(index[i] for index in chosen)
                     for i in chosen[0] if all(i in index for index in chosen)}
        # Newest first; equal times in reverse id order, as Redis's ZREVRANGE has them.
        ordered = sorted(found, key=lambda i: (found[i], i), reverse=True)
        return ordered[offset:offset + limit], len(ordered)

    def scan_ids(self, status: str, batch: int = 500) -> Iterator[str]:
        with self._changed:
            ids = list(self._indexes.get(f"status:{status}", {}))
        yield from ids

    def listed_before(self, status: str, before: float, limit: int) -> list[str]:
        with self._changed:
            index = self._indexes.get(f"status:{status}", {})
            found = sorted((at, i) for i, at in index.items() if at < before)
        return [i for _at, i in found[:limit]]

    def unlist(self, game_id: str, game_type: str | None) -> None:
        with self._changed:
            names = [f"status:{s}" for s in STATUSES] + ["all", "free"]
            if game_type is not None:
                names += [f"type:{game_type}", f"free:{game_type}"]
            for name in names:
                self._indexes.get(name, {}).pop(game_id, None)


class MemoryTableChat(_MemoryGames):
    """The `TableChat` port in memory."""

    def post_message(self, game_id: str, entry: ChatEntry, limit: int) -> int | None:
        with self._changed:
            game = self._game(game_id)
            if len(game.chat) >= limit:
                return None
            n = len(game.chat) + 1
            game.chat.append(msgspec.structs.replace(entry, n=n, text=None))
            game.chat_texts[n] = entry.text or ""
            self._notify(game_id, None)
            return n

    def hide_message(self, game_id: str, n: int, entry: ChatEntry) -> int | None:
        with self._changed:
            game = self._game(game_id)
            if not 1 <= n <= len(game.chat) or game.chat[n - 1].type != MESSAGE:
                return None
            if game.chat_texts.pop(n, None) is None:
                return 0
            game.chat.append(msgspec.structs.replace(entry, n=len(game.chat) + 1))
            self._notify(game_id, None)
            return len(game.chat)

    def read_chat(self, game_id: str, after: int = 0,
                  count: int = CHAT_PAGE) -> list[ChatEntry]:
        with self._changed:
            game = self._games.get(game_id)
            if game is None:
                return []
            return [msgspec.structs.replace(e, text=game.chat_texts.get(e.n))
                    if e.type == MESSAGE else e for e in game.chat[max(after, 0):after + count]]

    def chat_version(self, game_id: str) -> int:
        with self._changed:
            game = self._games.get(game_id)
            return len(game.chat) if game else 0


class MemorySecrets(_MemoryGames):
    """The `Secrets` port in memory."""

    def save_secrets(self, game_id: str, seed: str) -> str:
        with self._changed:
            game = self._game(game_id)
            if game.seed is None:
                game.seed = seed
            return game.seed

    def seed(self, game_id: str) -> str | None:
        with self._changed:
            game = self._games.get(game_id)
            return game.seed if game else None

    def save_creator(self, game_id: str, token_hash: str) -> None:
        with self._changed:
            self._game(game_id).creator = token_hash

    def creator(self, game_id: str) -> str | None:
        with self._changed:
            game = self._games.get(game_id)
            return game.creator if game else None


class MemoryAnalyses(_MemoryGames):
    """The `Analyses` port in memory."""

    def analysis(self, game_id: str) -> bytes | None:
        with self._changed:
            return self._analyses.get(game_id)

    def keep_analysis(self, game_id: str, document: bytes) -> bool:
        with self._changed:
            if game_id in self._analyses:
                return False
            self._analyses[game_id] = document
            return True


class MemoryAppendFeed(_MemoryGames):
    """The `AppendFeed` port in memory."""

    def appends(self) -> _MemoryNotices:
        with self._changed:
            notices = _MemoryNotices(self)
            self._subscribers.add(notices)
            return notices


class MemoryEventStore(MemoryGameLog, MemoryListings, MemoryTableChat, MemorySecrets,
                       MemoryAnalyses, MemoryAppendFeed):
    """The `EventStore` in memory: every port over the same games."""


class _MemoryNotices:
    """A subscription to the appends of the games in memory."""

    def __init__(self, store: _MemoryGames) -> None:
        self.store = store
        self.queue: queue.SimpleQueue[tuple[str, int | None]] = queue.SimpleQueue()
        self._started = False

    def next(self, timeout_s: float) -> list[tuple[str, int | None]] | None:
        if not self._started:
            self._started = True
            return None
        try:
            found = [self.queue.get(timeout=max(timeout_s, 0.0))]
        except queue.Empty:
            return []
        while not self.queue.empty():
            found.append(self.queue.get_nowait())
        return found

    def close(self) -> None:
        with self.store._changed:
            self.store._subscribers.discard(self)
