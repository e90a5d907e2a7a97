"""The `RatingStore` port in memory, behaving as the Redis one (one contract test)."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence

from domain.ratings.standing import RatingChange, Standing


class MemoryRatingStore:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._standings: dict[tuple[str, str], Standing] = {}  # (player, type)
        self._changes: dict[tuple[str, str], RatingChange] = {}  # (player, game)
        self._boards: dict[str, dict[str, float]] = {}
        self._awaited: dict[str, float] = {}
        self._bots: dict[str, dict[str, Standing]] = {}

    def standings(self, game_type: str, player_ids: Sequence[str]) -> list[Standing | None]:
        with self._lock:
            return [self._standings.get((p, game_type)) for p in player_ids]

    def all_standings(self, player_id: str) -> dict[str, Standing]:
        with self._lock:
            return {t: s for (p, t), s in sorted(self._standings.items()) if p == player_id}

    def changes(self, player_id: str, game_ids: Sequence[str]) -> list[RatingChange | None]:
        with self._lock:
            return [self._changes.get((player_id, g)) for g in game_ids]

    def apply(self, player_id: str, expected: Standing | None, change: RatingChange) -> str:
        with self._lock:
            if (player_id, change.game) in self._changes:
                return "already"
            if self._standings.get((player_id, change.type)) != expected:
                return "conflict"
            self._standings[(player_id, change.type)] = change.after
            self._changes[(player_id, change.game)] = change
            return "applied"

    def rank(self, game_type: str, ratings: Mapping[str, float]) -> None:
        with self._lock:
            self._boards.setdefault(game_type, {}).update(ratings)

    def bot_standings(self, game_type: str) -> dict[str, Standing]:
        with self._lock:
            return dict(sorted(self._bots.get(game_type, {}).items()))

    def calibrated(self, game_type: str, standings: Mapping[str, Standing]) -> None:
        with self._lock:
            self._bots.setdefault(game_type, {}).update(standings)

    def leaderboard(self, game_type: str, offset: int,
                    limit: int) -> tuple[list[tuple[str, float]], int]:
        with self._lock:
            board = dict(self._boards.get(game_type, {}))
        # Best first; equal ratings in reverse member order, as Redis's ZREVRANGE has them.
        ordered = sorted(board.items(), key=lambda m: (m[1], m[0]), reverse=True)
        return ordered[offset:offset + limit], len(ordered)

    def await_rating(self, game_id: str, finished_at: float) -> None:
        with self._lock:
            self._awaited[game_id] = finished_at

    def awaiting(self, finished_before: float, limit: int) -> list[str]:
        with self._lock:
            due = [(at, g) for g, at in self._awaited.items() if at < finished_before]
        return [g for _at, g in sorted(due)[:limit]]

    def rated(self, game_id: str) -> None:
        with self._lock:
            self._awaited.pop(game_id, None)
