"""The strong bot's search: the move to play from one seat's view, within a budget.

The method is the kit's: `ismcts` (`domain.bots.mcts`) walks a tree of the seat's own
decisions over sampled deals; `rollouts` (`domain.bots.rollouts`) plays the kit's policy
unless sampled futures show a clearly better move. Both sample the hidden cards from the
seat's view (`domain.bots.sampler`) and play their rollouts with `domain.play.play_on`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from domain.bots.mcts import ismcts
from domain.bots.rollouts import improve
from domain.bots.sampler import Sampler
from domain.bots.search_terms import Budget, Kit, SearchStats
from domain.game import Game


def search(game: Game[Any, Any], view: dict[str, Any], seat: int, legal: Sequence[Any],
           rng: random.Random, kit: Kit, budget: Budget,
           stats: SearchStats | None = None) -> Any | None:
    """The action the search chooses among `legal` (the only one, if there is one); None
    when no iteration could complete within the budget."""
    legal = list(legal)
    if len(legal) == 1:
        return legal[0]
    method = improve if kit.method == "rollouts" else ismcts
    return method(game, Sampler(game, view, seat, kit, rng), seat, legal, rng, kit, budget,
                  stats)
