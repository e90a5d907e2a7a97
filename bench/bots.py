"""Section 5: each bot level's move time in each game, at the same positions.

Positions are drawn from random games (pure domain) among the moments where the seat to
act has a real choice (two legal actions or more: with one, every level answers at once).
Each level is asked to move at the same positions, from the seat's `Observation` only;
the time is the bot's call alone, as the arena measures it. A level that fails in a game
is reported as that row's error and the run goes on.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from bench.config import BenchConfig
from bench.context import BenchContext
from bench.engine import players_for
from bench.progress import Steps
from bench.stats import percentile
from domain.bots import LEVELS, observe
from domain.bots.levels import DEFAULT_BUDGET, kit_for, make_bot
from domain.bots.search import search
from domain.bots.search_terms import Budget, SearchStats
from domain.game import Game
from domain.play import begin, play_on


def positions(game: Game[Any, Any], players: int, count: int,
              rng: random.Random) -> list[tuple[Any, int]]:
    """`count` (state, seat) pairs with a choice, spread over random games."""
    found: list[tuple[Any, int]] = []

    def choose(state: Any, seat: int, legal: Sequence[Any]) -> Any:
        if len(legal) > 1:
            found.append((state, seat))
        return rng.choice(legal)

    while len(found) < count * 4:
        state, _ = begin(game, None, players, rng)
        _, _, end = play_on(game, state, choose, rng)
        if end != "over":
            raise RuntimeError(f"a random game is {end}: a seat to act has no legal "
                               "action, or nobody is to act, in an unfinished game")
    return rng.sample(found, count)


def run(cfg: BenchConfig, ctx: BenchContext, steps: Steps) -> dict[str, Any]:
    budget = Budget(seconds=cfg.strong_ms / 1000.0) if cfg.strong_ms else DEFAULT_BUDGET
    rows = []
    games = ctx.games
    total = len(games) * (2 * cfg.bot_samples + cfg.strong_samples)
    with steps.step("bots: move times", total=total) as step:
        for game_id, game in games.items():
            players = players_for(game, cfg.engine_players)
            rng = random.Random(cfg.seed)
            try:
                spots = positions(game, players, max(cfg.bot_samples, cfg.strong_samples), rng)
            except Exception as err:
                for level in LEVELS:
                    rows.append({"game": game_id, "level": level,
                                 "error": f"{type(err).__name__}: {err}"})
                continue
            for level in LEVELS:
                n = cfg.strong_samples if level == "strong" else cfg.bot_samples
                row = _time_level(game, game_id, level, budget, spots[:n], players)
                if level == "strong" and "error" not in row:
                    row["playouts_per_s"] = _playout_rate(game, spots[:n],
                                                          cfg.search_iterations)
                rows.append(row)
                step.advance(n)
    return {"budget_s": budget.seconds, "budget_iterations": budget.iterations,
            "positions": "random-game moments with two legal actions or more", "rows": rows}


def _playout_rate(game: Game[Any, Any], spots: list[tuple[Any, int]],
                  iterations: int) -> float | None:
    """The strong bot's search speed: playouts (rollouts to the end or the horizon) per
    second at these positions, each searched with an iteration budget and a fixed seed, so
    the work is the same from run to run and build to build."""
    if not hasattr(game, "determinize"):
        return None
    kit = kit_for(game)
    playouts, seconds = 0, 0.0
    for n, (state, seat) in enumerate(spots):
        obs = observe(game, state, seat)
        stats = SearchStats()
        search(game, obs.view, seat, obs.legal_actions, random.Random(n), kit,
               Budget(seconds=None, iterations=iterations), stats)
        playouts += stats.playouts
        seconds += stats.seconds
    return playouts / seconds if seconds else None


def _time_level(game: Game[Any, Any], game_id: str, level: str, budget: Budget,
                spots: list[tuple[Any, int]], players: int) -> dict[str, Any]:
    row: dict[str, Any] = {"game": game_id, "level": level, "players": players}
    bot = make_bot(level, budget)
    rng = random.Random(0)
    ms: list[float] = []
    try:
        for state, seat in spots:
            obs = observe(game, state, seat)
            t0 = time.perf_counter()
            action = bot(game, obs, rng)
            ms.append((time.perf_counter() - t0) * 1000.0)
            if action not in obs.legal_actions:
                raise RuntimeError(f"chose an illegal action {action!r}")
    except Exception as err:
        row["error"] = f"{type(err).__name__}: {err}"
        return row
    row.update(moves=len(ms), p50_ms=percentile(ms, 50), p99_ms=percentile(ms, 99),
               max_ms=max(ms))
    return row
