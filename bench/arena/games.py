"""Arena games: one game of bots to its end, and a run of many (in parallel processes), as
`domain.bots.match` plays them, with the seating rotated from game to game."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.bots.match import Match, play_match, play_matches
from domain.bots.search_terms import Budget
from domain.game import Game


@dataclass
class GameRecord:
    """One finished arena game: who sat where and how it ended."""

    number: int
    levels: list[str]  # by seat
    places: list[int]
    scores: list[float]
    score_name: str
    lower_is_better: bool
    moves: int
    seconds: float
    move_times: list[list[float]] = field(default_factory=list)  # by seat, in seconds


def seating(levels: Sequence[str], number: int) -> list[str]:
    """The levels by seat in game `number`: the list rotated by one seat per game."""
    n = len(levels)
    return [levels[(s - number) % n] for s in range(n)]


Budgets = Mapping[str, Budget]


def play_game(game: Game[Any, Any], levels: Sequence[str], number: int, seed: int = 0,
              options: dict[str, Any] | None = None, budgets: Budgets | None = None,
              max_moves: int = 100_000) -> GameRecord:
    """Play arena game `number` of `game` to its end (`domain.bots.match`); the seating
    rotates with `number`; `budgets`: the searching levels' budgets (else the
    deployment's)."""
    seats = seating(levels, number)
    return _record(number, play_match(game, seats, series(game.id, seed), number, options,
                                      budgets, max_moves))


def series(game_id: str, seed: int) -> str:
    """The name of a run's games (the root of their RNGs)."""
    return f"arena:{game_id}:{seed}"


def _record(number: int, m: Match) -> GameRecord:
    return GameRecord(number=number, levels=m.levels, places=m.places, scores=m.scores,
                      score_name=m.score_name, lower_is_better=m.lower_is_better,
                      moves=m.moves, seconds=m.seconds, move_times=m.move_times)


def run_arena(game: Game[Any, Any], levels: Sequence[str], games: int, seed: int = 0,
              options: dict[str, Any] | None = None, budgets: Budgets | None = None,
              jobs: int = 1,
              on_game: Callable[[GameRecord], None] | None = None) -> list[GameRecord]:
    """Play `games` games (in `jobs` processes), in order of their numbers."""
    done = 0

    def seen(m: Match) -> None:
        nonlocal done
        if on_game is not None:
            on_game(_record(done, m))
        done += 1

    matches = play_matches(game, [seating(levels, i) for i in range(games)],
                           series(game.id, seed), options, budgets, jobs, seen)
    return [_record(i, m) for i, m in enumerate(matches)]
