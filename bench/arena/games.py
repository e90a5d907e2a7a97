"""Arena games: one game of bots to its end, and a run of many (in parallel processes)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from domain.bots import observe
from domain.bots.kit import Budget
from domain.bots.levels import make_bot
from domain.game import Game
from domain.play import begin, play_on
from domain.rng import rng_for


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


def play_game(game: Game[Any, Any], levels: Sequence[str], number: int, seed: int = 0,
              options: dict[str, Any] | None = None, budget: Budget | None = None,
              max_moves: int = 100_000) -> GameRecord:
    """Play arena game `number` of `game` to its end; the seating rotates with `number`."""
    seats = seating(levels, number)
    players = len(seats)
    base = f"arena:{game.id}:{seed}"
    game_rng = rng_for(base, number)
    order_rng = rng_for(base + ":order", number)
    bot_rngs = [rng_for(f"{base}:bot:{number}", s) for s in range(players)]
    bots = [make_bot(level, budget) for level in seats]
    times: list[list[float]] = [[] for _ in range(players)]

    def choose(state: Any, seat: int, legal: Sequence[Any]) -> Any:
        obs = observe(game, state, seat, legal)
        t0 = time.perf_counter()
        action = bots[seat](game, obs, bot_rngs[seat])
        times[seat].append(time.perf_counter() - t0)
        if action not in obs.legal_actions:
            raise RuntimeError(f"game {number}: the {seats[seat]} bot in seat {seat} chose "
                               f"an illegal action {action!r}")
        return action

    started = time.perf_counter()
    state, _ = begin(game, options, players, game_rng)
    state, moves, end = play_on(game, state, choose, game_rng, pick=order_rng.choice,
                                max_moves=max_moves)
    out = game.outcome(state)
    if end == "bound":
        raise RuntimeError(f"game {number} did not end in {max_moves} moves")
    if out is None:
        raise RuntimeError(f"game {number}: a seat to act has no legal action, or nobody "
                           "is to act, in an unfinished game")
    return GameRecord(number=number, levels=seats, places=list(out.places),
                      scores=[float(s) for s in out.scores], score_name=out.score_name,
                      lower_is_better=out.lower_is_better, moves=moves,
                      seconds=time.perf_counter() - started, move_times=times)


def _play_job(job: tuple[Game[Any, Any], list[str], int, int, dict[str, Any] | None,
                         Budget | None]) -> GameRecord:
    game, levels, number, seed, options, budget = job
    return play_game(game, levels, number, seed, options, budget)


def run_arena(game: Game[Any, Any], levels: Sequence[str], games: int, seed: int = 0,
              options: dict[str, Any] | None = None, budget: Budget | None = None,
              jobs: int = 1,
              on_game: Callable[[GameRecord], None] | None = None) -> list[GameRecord]:
    """Play `games` games (in `jobs` processes), in order of their numbers."""
    work = [(game, list(levels), i, seed, options, budget) for i in range(games)]
    records: list[GameRecord] = []
    with contextlib.ExitStack() as stack:
        results: Iterable[GameRecord] = map(_play_job, work)
        if jobs > 1:
            pool = stack.enter_context(ProcessPoolExecutor(max_workers=jobs))
            results = pool.map(_play_job, work)
        for rec in results:
            records.append(rec)
            if on_game is not None:
                on_game(rec)
    return records
