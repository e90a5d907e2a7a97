"""Section 4: complete random-bot games per second for each game type, in process (pure
domain: no HTTP, no Redis). Each game is the arena's (`bench.arena.games.play_game`): setup,
then for every move the seat's observation, the random bot's choice, decide and evolve."""

from __future__ import annotations

import time
from typing import Any

from bench.arena.games import play_game
from bench.config import BenchConfig
from bench.context import BenchContext
from bench.progress import Steps
from domain.game import Game

MIN_GAMES = 3


def players_for(game: Any, wanted: int) -> int:
    return min(max(wanted, game.min_players), game.max_players)


def run(cfg: BenchConfig, ctx: BenchContext, steps: Steps) -> dict[str, Any]:
    rows = []
    games = ctx.games
    with steps.step("engine: random games", total=len(games)) as step:
        for game in games.values():
            players = players_for(game, cfg.engine_players)
            rows.append(_measure(game, players, cfg.engine_s, cfg.seed))
            step.advance()
    return {"bot": "random", "seconds_per_game_type": cfg.engine_s, "rows": rows}


def _measure(game: Game[Any, Any], players: int, seconds: float,
             seed: int) -> dict[str, Any]:
    game_id = game.id
    levels = ["random"] * players
    played = moves = 0
    started = time.perf_counter()
    try:
        while played < MIN_GAMES or time.perf_counter() - started < seconds:
            moves += play_game(game, levels, played, seed=seed).moves
            played += 1
    except Exception as err:  # a broken game is a row of the report, not the run's end
        return {"game": game_id, "players": players, "error": f"{type(err).__name__}: {err}"}
    elapsed = time.perf_counter() - started
    return {"game": game_id, "players": players, "games": played, "moves": moves,
            "games_per_s": played / elapsed, "moves_per_s": moves / elapsed,
            "us_per_move": 1e6 * elapsed / moves if moves else None}
