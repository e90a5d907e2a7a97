"""The `PlayerStore` port in memory, behaving as the Redis one (one contract test)."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from domain.players.inbox import InboxMove
from domain.players.notes import PlayerEntry, PlayerNote, encode_note
from domain.players.notes import entry_order as _order
from domain.players.records import Player
from domain.store.memory_notify import MemoryNotifyStore
from domain.store.port import PLAYER_EVENTS_KEPT, InboxPage


class MemoryPlayerStore:
    """`notify`: the memory notification store this one writes what a Redis player store
    writes into the same database in its pipeline (the moves a player made, the players
    due a look by the notifier), so that the two behave as one Redis (None: nobody reads
    them)."""

    def __init__(self, notify: MemoryNotifyStore | None = None) -> None:
        self.notify = notify
        self._lock = threading.Lock()
        self._players: dict[str, Player] = {}
        self._keys: dict[str, str] = {}
        self._names: dict[str, str] = {}
        # (player id, bucket) -> game id -> score
        self._inboxes: dict[tuple[str, str], dict[str, float]] = {}
        self._events: dict[str, list[PlayerEntry]] = {}
        self._numbered = 0

    def add(self, player: Player, name_key: str, key_hash: str) -> bool:
        with self._lock:
            if name_key in self._names:
                return False
            self._names[name_key] = player.id
            self._players[player.id] = player
            self._keys[player.id] = key_hash
            return True

    def player(self, player_id: str) -> Player | None:
        with self._lock:
            return self._players.get(player_id)

    def players(self, player_ids: Sequence[str]) -> list[Player | None]:
        with self._lock:
            return [self._players.get(i) for i in player_ids]

    def named(self, name_key: str) -> str | None:
        with self._lock:
            return self._names.get(name_key)

    def with_key_hash(self, player_id: str) -> tuple[Player, str] | None:
        with self._lock:
            player = self._players.get(player_id)
            return (player, self._keys[player_id]) if player is not None else None

    def set_key_hash(self, player_id: str, key_hash: str) -> bool:
        with self._lock:
            if player_id not in self._players:
                return False
            self._keys[player_id] = key_hash
            return True

    def place(self, moves: Sequence[InboxMove], notes: Sequence[PlayerNote] = (),
              moved: Sequence[tuple[str, str, float]] = ()) -> None:
        with self._lock:
            for note in notes:
                self._numbered += 1
                kept = self._events.setdefault(note.player, [])
                kept.append(PlayerEntry(f"{int(note.at * 1000)}-{self._numbered}",
                                        encode_note(note)))
                del kept[:-PLAYER_EVENTS_KEPT]
            for move in moves:
                for (player_id, bucket), games in self._inboxes.items():
                    if player_id == move.player_id and (
                            move.position is None or bucket != move.position.bucket):
                        games.pop(move.game_id, None)
                if move.position is not None:
                    self._inboxes.setdefault((move.player_id, move.position.bucket), {})[
                        move.game_id] = move.position.score
        if self.notify is not None:
            for player_id, game_id, at in moved:
                self.notify.moved(player_id, game_id, at)
            due: dict[str, float] = {}
            for note in notes:
                due.setdefault(note.player, note.at)
            for player_id, at in due.items():  # (an earlier look wins, as Redis's ZADD LT)
                self.notify.due_now(player_id, at)

    def inbox_ids(self, player_id: str, bucket: str, offset: int, limit: int,
                  low: float = float("-inf"), high: float = float("inf"),
                  newest_first: bool = False) -> InboxPage:
        with self._lock:
            games = self._inboxes.get((player_id, bucket), {})
            found = {g: s for g, s in games.items() if low <= s < high}
            player = self._players.get(player_id)
            record = (player, self._keys[player_id]) if player is not None else None
        # By score, equal scores by id (as a Redis sorted set orders them).
        ordered = sorted(found, key=lambda g: (found[g], g), reverse=newest_first)
        page = ordered[offset:offset + limit]
        return InboxPage(page, len(ordered), record, [found[g] for g in page])

    def player_events(self, player_id: str, after: str = "0-0",
                      count: int = 100) -> list[PlayerEntry]:
        with self._lock:
            kept = list(self._events.get(player_id, []))
        return [e for e in kept if _order(e.id) > _order(after)][:count]

    def last_player_event(self, player_id: str) -> str:
        with self._lock:
            kept = self._events.get(player_id)
            return kept[-1].id if kept else "0-0"
