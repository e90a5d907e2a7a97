"""One game of bots to its end, in process: the loop of the arena and of the bots'
calibration.

Every bot is given only its seat's `Observation`; the game's randomness, the order of the
seats in simultaneous phases and each seat's bot draw from RNGs derived from a name and the
game's number, so a game is reproducible (exactly, with iteration budgets: a wall-clock
budget depends on the machine's load).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from domain.bots.levels import make_bot
from domain.bots.observation import Bot, observe
from domain.bots.search_terms import Budget
from domain.game import Game
from domain.play import begin, play_on
from domain.rng import rng_for


@dataclass
class Match:
    """A finished game of bots: who sat where and how it ended."""

    levels: list[str]  # by seat
    places: list[int]
    scores: list[float]
    score_name: str
    lower_is_better: bool
    moves: int
    seconds: float
    move_times: list[list[float]] = field(default_factory=list)  # by seat, in seconds


def play_match(game: Game[Any, Any], levels: Sequence[str], name: str, number: int,
               options: Mapping[str, Any] | None = None,
               budgets: Mapping[str, Budget] | None = None,
               max_moves: int = 100_000, others: Mapping[str, Bot] | None = None) -> Match:
    """Game `number` of the series `name` (its RNGs' root), seat `s` played by the bot of
    `levels[s]`; `budgets` sets a searching level's budget (else the deployment's);
    `others` names bots that are not levels (a variant under study)."""
    budgets = budgets or {}
    others = others or {}
    players = len(levels)
    game_rng = rng_for(name, number)
    order_rng = rng_for(name + ":order", number)
    bot_rngs = [rng_for(f"{name}:bot:{number}", s) for s in range(players)]
    bots = [others[level] if level in others else make_bot(level, budgets.get(level))
            for level in levels]
    times: list[list[float]] = [[] for _ in range(players)]

    def choose(state: Any, seat: int, legal: Sequence[Any]) -> Any:
        obs = observe(game, state, seat, legal)
        t0 = time.perf_counter()
        action = bots[seat](game, obs, bot_rngs[seat])
        times[seat].append(time.perf_counter() - t0)
        if action not in obs.legal_actions:
            raise RuntimeError(f"game {number}: the {levels[seat]} bot in seat {seat} chose "
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
    return Match(levels=list(levels), places=list(out.places),
                 scores=[float(s) for s in out.scores], score_name=out.score_name,
                 lower_is_better=out.lower_is_better, moves=moves,
                 seconds=time.perf_counter() - started, move_times=times)


def play_matches(game: Game[Any, Any], seatings: Sequence[Sequence[str]], name: str,
                 options: Mapping[str, Any] | None = None,
                 budgets: Mapping[str, Budget] | None = None, jobs: int = 1,
                 on_match: Callable[[Match], None] | None = None) -> list[Match]:
    """Games `0 .. len(seatings) - 1` of the series `name`, game `i` seated by
    `seatings[i]`, in `jobs` processes; in order of their numbers (`on_match` sees each
    as it ends, in that order)."""
    work = [(game, list(levels), name, number, dict(options or {}), dict(budgets or {}))
            for number, levels in enumerate(seatings)]
    out: list[Match] = []
    with contextlib.ExitStack() as stack:
        results: Iterable[Match] = map(_match_job, work)
        if jobs > 1:
            pool = stack.enter_context(ProcessPoolExecutor(max_workers=jobs))
            results = pool.map(_match_job, work)
        for match in results:
            out.append(match)
            if on_match is not None:
                on_match(match)
    return out


def _match_job(job: tuple[Game[Any, Any], list[str], str, int, dict[str, Any],
                          dict[str, Budget]]) -> Match:
    game, levels, name, number, options, budgets = job
    return play_match(game, levels, name, number, options or None, budgets)
