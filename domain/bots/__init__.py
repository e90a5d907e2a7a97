"""Bots: pure functions of what one seat may see.

A bot receives an `Observation` — its seat, the game's view for that seat (exactly what the
API shows that seat) and its legal actions — and never the game's state, so it cannot read
hidden cards. `choose_action(level, game, observation, rng)` is the one entry point the
workers and the arena use.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from domain.game import Game

LEVELS = ("random", "basic", "strong")


class Observation(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    view: dict[str, Any]
    legal_actions: Sequence[Any]


Bot = Callable[[Game[Any, Any], Observation, random.Random], Any]


def observe(game: Game[Any, Any], state: Any, seat: int) -> Observation:
    """What a bot in `seat` is given: the seat's view and legal actions, nothing more."""
    return Observation(seat=seat, view=game.view(state, seat),
                       legal_actions=tuple(game.legal_actions(state, seat)))


def random_bot(game: Game[Any, Any], obs: Observation, rng: random.Random) -> Any:
    """`random`: uniform over the legal actions."""
    return rng.choice(list(obs.legal_actions))


def _bots() -> dict[str, Bot]:
    bots: dict[str, Bot] = {"random": random_bot}
    try:
        from domain.bots.levels import LEVEL_BOTS
    except ImportError:
        return bots
    bots.update(LEVEL_BOTS)
    return bots


def choose_action(level: str, game: Game[Any, Any], obs: Observation,
                  rng: random.Random) -> Any:
    """The action the bot of `level` plays; levels not built yet fall back to `random`."""
    if not obs.legal_actions:
        raise ValueError("a bot was asked to act with no legal action")
    bot = _bots().get(level, random_bot)
    return bot(game, obs, rng)
