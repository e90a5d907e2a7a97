"""The bot levels: `random`, `basic` (a per-game heuristic) and `strong` (a search).

Each game, or family of games, has a heuristic module `domain/bots/<name>_basic` that
exposes `basic(game, obs, rng)` (the heuristic on the seat's view) and `KIT` (the search's
rollout policy, evaluation and horizon, see `domain.bots.kit`). A game without a module
still gets every level: `basic` plays uniformly at random and `strong` searches with random
rollouts and the game's outcome (it needs the game's `determinize`).

The strong bot's budget defaults to `DEFAULT_BUDGET` (0.75 s per move, overridable with the
environment variable `DONKEYPOST_STRONG_MS`); `make_bot("strong", Budget(...))` builds one
with another budget (the arena's `--budget-ms`).
"""

from __future__ import annotations

import importlib
import os
import random
from types import ModuleType
from typing import Any

from domain.bots.kit import Budget, Kit
from domain.bots.observation import Bot, Observation
from domain.bots.search import search
from domain.game import Game, SearchableGame

LEVELS = ("random", "basic", "strong")

HEURISTICS: dict[str, str] = {
    "ochs-und-esel": "domain.bots.trick_basic",
    "crazy-donkey": "domain.bots.trick_basic",
    "trash": "domain.bots.trash_basic",
    "canyon-donkeys": "domain.bots.canyon_basic",
}

GENERIC_KIT = Kit()


class UnknownLevel(ValueError):
    """A bot level that is not one of `LEVELS`."""

    def __init__(self, level: str) -> None:
        super().__init__(f"unknown bot level {level!r}; the levels are {', '.join(LEVELS)}")
        self.level = level


def _default_budget() -> Budget:
    raw = os.environ.get("DONKEYPOST_STRONG_MS")
    try:
        ms = float(raw) if raw else 750.0
    except ValueError:
        ms = 750.0
    return Budget(seconds=max(ms, 1.0) / 1000.0)


DEFAULT_BUDGET = _default_budget()

_modules: dict[str, ModuleType | None] = {}


def heuristic_module(game: Game[Any, Any]) -> ModuleType | None:
    """The game's heuristic module, or None for a game that has none (yet)."""
    gid = game.id
    if gid not in _modules:
        name = HEURISTICS.get(gid)
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


def strong_with(budget: Budget) -> Bot:
    """`strong` with the given search budget."""

    def strong(game: Game[Any, Any], obs: Observation, rng: random.Random) -> Any:
        if len(obs.legal_actions) == 1:
            return obs.legal_actions[0]
        if not isinstance(game, SearchableGame):  # nothing to sample hidden cards with
            return basic_bot(game, obs, rng)
        choice = search(game, obs.view, obs.seat, obs.legal_actions, rng, kit_for(game),
                        budget)
        return basic_bot(game, obs, rng) if choice is None else choice

    return strong


def strong_bot(game: Game[Any, Any], obs: Observation, rng: random.Random) -> Any:
    """`strong`: the search within `DEFAULT_BUDGET` (read at each move)."""
    return strong_with(DEFAULT_BUDGET)(game, obs, rng)


def make_bot(level: str, budget: Budget | None = None) -> Bot:
    """The bot function of `level`; `budget` only matters to `strong`."""
    if level == "random":
        return random_bot
    if level == "basic":
        return basic_bot
    if level == "strong":
        return strong_with(budget) if budget is not None else strong_bot
    raise UnknownLevel(level)


def choose_action(level: str, game: Game[Any, Any], obs: Observation,
                  rng: random.Random) -> Any:
    """The action the bot of `level` plays; an unknown level raises `UnknownLevel`."""
    bot = make_bot(level)
    if not obs.legal_actions:
        raise ValueError("a bot was asked to act with no legal action")
    return bot(game, obs, rng)
