"""The bot levels: `random`, `basic` (a per-game heuristic), `strong` and `expert` (the same
search, `expert` with a larger budget: a play-by-post bot may think for seconds).

A game, or family of games, may name a heuristic module in its `heuristics` attribute (the
project's: `domain/bots/<name>_basic`) that exposes `basic(game, obs, rng)` (the heuristic
on the seat's view) and `KIT` (the search's rollout policy, evaluation and horizon, see
`domain.bots.search_terms`). A game without one still gets every level: `basic` plays uniformly
at random and the searching levels search with random rollouts and the game's outcome
(they need the game's `determinize`).

The searching levels' budgets per move are set per deployment (`DONKEYPOST_STRONG_MS`,
`DONKEYPOST_EXPERT_MS`, read by `donkeypost.settings` and handed to the jobs): a job gives
its level's budget to `choose_action`; without one, the defaults here (`DEFAULT_BUDGETS`:
750 ms and 5,000 ms). `make_bot(level, budget)` builds a bot with another budget (the arena
gives iteration budgets, the same work whatever the machine's load).
"""

from __future__ import annotations

import importlib
import random
from types import ModuleType
from typing import Any

from domain.bots.observation import Bot, Observation
from domain.bots.search import search
from domain.bots.search_terms import Budget, Kit
from domain.game import Game, SearchableGame

LEVELS = ("random", "basic", "strong", "expert")
SEARCHING = ("strong", "expert")  # the levels that search, each within its budget
# Each searching level's budget per move: its environment variable and default (ms).
# Each searching level's budget per move when none is given.
DEFAULT_BUDGETS: dict[str, Budget] = {
    "strong": Budget(seconds=0.75),
    "expert": Budget(seconds=5.0),
}

GENERIC_KIT = Kit()


class UnknownLevel(ValueError):
    """A bot level that is not one of `LEVELS`."""

    def __init__(self, level: str) -> None:
        super().__init__(f"unknown bot level {level!r}; the levels are {', '.join(LEVELS)}")
        self.level = level


DEFAULT_BUDGET = DEFAULT_BUDGETS["strong"]
EXPERT_BUDGET = DEFAULT_BUDGETS["expert"]

_modules: dict[str, ModuleType | None] = {}


def heuristic_module(game: Game[Any, Any]) -> ModuleType | None:
    """The game's heuristic module (its `heuristics`), or None for a game that has none."""
    gid = game.id
    if gid not in _modules:
        name: str | None = getattr(game, "heuristics", None)
        _modules[gid] = importlib.import_module(name) if name else None
    return _modules[gid]


def kit_for(game: Game[Any, Any]) -> Kit:
    mod = heuristic_module(game)
    return mod.KIT if mod is not None else GENERIC_KIT


def random_bot(game: Game[Any, Any], obs: Observation, rng: random.Random) -> Any:
    """`random`: uniform over the legal actions."""
    return rng.choice(list(obs.legal_actions))


def basic_bot(game: Game[Any, Any], obs: Observation, rng: random.Random) -> Any:
    """`basic`: the game's heuristic on the seat's view."""
    if len(obs.legal_actions) == 1:
        return obs.legal_actions[0]
    mod = heuristic_module(game)
    if mod is None:
        return random_bot(game, obs, rng)
    return mod.basic(game, obs, rng)


def searching_with(budget: Budget) -> Bot:
    """A searching bot (`strong`, `expert`) with the given search budget."""

    def searching(game: Game[Any, Any], obs: Observation, rng: random.Random) -> Any:
        if len(obs.legal_actions) == 1:
            return obs.legal_actions[0]
        kit = kit_for(game)
        if not isinstance(game, SearchableGame) or kit.method == "policy":
            return basic_bot(game, obs, rng)  # nothing to sample, or nothing to gain
        choice = search(game, obs.view, obs.seat, obs.legal_actions, rng, kit, budget)
        return basic_bot(game, obs, rng) if choice is None else choice

    return searching


def strong_bot(game: Game[Any, Any], obs: Observation, rng: random.Random) -> Any:
    """`strong`: the search within `DEFAULT_BUDGET`."""
    return searching_with(DEFAULT_BUDGET)(game, obs, rng)


def expert_bot(game: Game[Any, Any], obs: Observation, rng: random.Random) -> Any:
    """`expert`: the same search within `EXPERT_BUDGET`."""
    return searching_with(EXPERT_BUDGET)(game, obs, rng)


def make_bot(level: str, budget: Budget | None = None) -> Bot:
    """The bot function of `level`; `budget` only matters to the searching levels
    (None: the deployment's)."""
    if level == "random":
        return random_bot
    if level == "basic":
        return basic_bot
    if level in SEARCHING:
        if budget is not None:
            return searching_with(budget)
        return strong_bot if level == "strong" else expert_bot
    raise UnknownLevel(level)


def choose_action(level: str, game: Game[Any, Any], obs: Observation,
                  rng: random.Random, budget: Budget | None = None) -> Any:
    """The action the bot of `level` plays (a searching level within `budget`, else its
    default); an unknown level raises `UnknownLevel`."""
    bot = make_bot(level, budget)
    if not obs.legal_actions:
        raise ValueError("a bot was asked to act with no legal action")
    return bot(game, obs, rng)
