"""Bots: pure functions of what one seat may see.

A bot receives an `Observation` — its seat, the game's view for that seat and its legal
actions — and never the game's state. `choose_action(level, game, observation, rng)` is
the one entry point the workers use; `LEVELS` names the levels (`random`, `basic`,
`strong`), and any other level is an error (`UnknownLevel`), never a silent fallback.

Layout: `observation` (what a bot sees), `levels` (the levels and the bot of each),
`<family>_basic` (each game family's heuristic and search kit), `kit` / `sampler` /
`search` / `mcts` / `rollouts` (the strong bot's search).
"""

from domain.bots.levels import LEVELS, UnknownLevel, choose_action
from domain.bots.observation import Bot, Observation, observe

__all__ = ["LEVELS", "Bot", "Observation", "UnknownLevel", "choose_action", "observe"]
