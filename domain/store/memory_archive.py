"""The `ArchiveStore` port beside a `MemoryEventStore` (the service's unit tests): the same
rules as in Redis, under the event store's lock."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.store.memory import MemoryEventStore, _Game
from domain.store.port import StoredGame, Typed


class MemoryArchiveStore:
    def __init__(self, games: MemoryEventStore) -> None:
        self.games = games
        self.records: dict[str, bytes] = {}
        self.due: dict[str, float] = {}
        self.refused: dict[str, str] = {}
        self.reads_kept: dict[str, bytes] = {}  # (without expiry here)

    def stored_game(self, game_id: str) -> StoredGame | None:
        with self.games._changed:
            game = self.games._games.get(game_id)
            if game is None or not game.events:
                return None
            return StoredGame(events=list(game.events), snapshot=game.snapshot,
                              checkpoints=dict(game.checkpoints), tokens=dict(game.tokens),
                              seed=game.seed, creator=game.creator)

    def archived(self, game_id: str) -> bytes | None:
        return self.records.get(game_id)

    def archives_of(self, game_ids: Sequence[str]) -> list[bytes | None]:
        return [self.records.get(i) for i in game_ids]

    def archived_and_read(self, game_id: str) -> tuple[bytes | None, bytes | None]:
        return self.records.get(game_id), self.reads_kept.get(game_id)

    def keep_read(self, game_id: str, copy: bytes, ttl_s: float) -> None:
        self.reads_kept[game_id] = copy

    def replace_with_archive(self, game_id: str, version: int, record: bytes) -> bool:
        with self.games._changed:
            game = self.games._games.get(game_id)
            if game is None or not game.events or len(game.events) != version or \
                    game_id in self.records:
                return False
            self.records[game_id] = record
            # The chat stays (it may be written after the end); the rest goes.
            kept = _Game(chat=game.chat, chat_texts=game.chat_texts, answers=game.answers)
            self.games._games[game_id] = kept
            return True

    def restore_archived(self, game_id: str, record: bytes, game: StoredGame) -> bool:
        with self.games._changed:
            if self.records.get(game_id) != record or self._has_log(game_id):
                return False
            self._write(game_id, game)
            del self.records[game_id]
            return True

    def put_game(self, game_id: str, game: StoredGame,
                 others: Mapping[str, Typed] | None = None) -> bool:
        # (`others`, keys of a Redis store's backup, have no place here)
        with self.games._changed:
            if self._has_log(game_id) or game_id in self.records:
                return False
            self._write(game_id, game)
            return True

    def put_archived(self, game_id: str, record: bytes,
                     others: Mapping[str, Typed] | None = None) -> bool:
        with self.games._changed:
            if self._has_log(game_id) or game_id in self.records:
                return False
            self.records[game_id] = record
            return True

    def _has_log(self, game_id: str) -> bool:
        game = self.games._games.get(game_id)
        return game is not None and bool(game.events)

    def _write(self, game_id: str, stored: StoredGame) -> None:
        game = self.games._game(game_id)
        game.events = list(stored.events)
        game.snapshot = stored.snapshot
        game.snapshot_version = len(stored.events)
        game.checkpoints = dict(stored.checkpoints)
        game.tokens = dict(stored.tokens)
        game.seed = stored.seed
        game.creator = stored.creator

    def archive_due(self, game_id: str, ended_at: float) -> None:
        self.due[game_id] = ended_at

    def due_archives(self, before: float, limit: int) -> list[str]:
        found = sorted((at, i) for i, at in self.due.items() if at <= before)
        return [i for _at, i in found[:limit]]

    def archive_done(self, game_id: str, refused: str | None = None) -> None:
        self.due.pop(game_id, None)
        if refused is not None:
            self.refused[game_id] = refused

    def refused_archives(self) -> dict[str, str]:
        return dict(self.refused)

    def used_memory(self) -> tuple[int, int | None]:
        return 0, None
