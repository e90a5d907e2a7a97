"""The `basic` bot (the heuristic on the seat's view), the search's rollout policy (the
same heuristic on a determinized state), its evaluation and horizon, and the kit."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from domain.bots.canyon_basic.bluff import weigh
from domain.bots.canyon_basic.decision import decide
from domain.bots.canyon_basic.outlook import ALPHA, ROLLOUT_SAMPLES, future
from domain.bots.canyon_basic.spot import spot_from_state, spot_from_view
from domain.bots.observation import Observation
from domain.bots.search_terms import Kit
from domain.games.canyon_donkeys import donkeys as dk
from domain.games.canyon_donkeys.state import LOAD, CanyonState


def basic(game: Any, obs: Observation, rng: random.Random) -> Any:
    """The `basic` bot: the heuristic on the seat's view."""
    return decide(spot_from_view(obs.view, obs.seat), obs.legal_actions, rng)


def policy(game: Any, state: CanyonState, seat: int, legal: Sequence[Any],
           rng: random.Random) -> Any:
    """The rollout policy: the same heuristic on a (determinized) state."""
    return decide(spot_from_state(state, seat), legal, rng, ROLLOUT_SAMPLES)


SCALE = 12.0  # points that move the reward from 0.5 to 0 or 1


def worth(state: CanyonState, seat: int) -> float:
    """Points won, plus what the seat's hand and set-aside loads should still bring."""
    needed = len(state.deck)
    if state.phase == LOAD:
        needed += dk.loads_each(state.effect) - len(state.loads[seat])
    set_aside = sum(v for loads in state.set_aside for _, v in loads[seat])
    return (sum(v for _, v in state.won[seat]) + future(state.hands[seat], needed)
            + ALPHA * set_aside)


def evaluate(game: Any, root: CanyonState, state: CanyonState, seat: int) -> float:
    """This seat's gain since the root against the mean gain of the others."""
    gains = [worth(state, s) - worth(root, s) for s in range(state.players)]
    others = (sum(gains) - gains[seat]) / (state.players - 1)
    r = 0.5 + (gains[seat] - others) / (2.0 * SCALE)
    return 0.0 if r < 0.0 else 1.0 if r > 1.0 else r


def horizon(root: CanyonState, state: CanyonState) -> bool:
    """Rollouts stop at the end of the round."""
    return state.round != root.round


def points_gained(game: Any, root: CanyonState, state: CanyonState, seat: int) -> float:
    """The analysis's points: what the seat won since the root, and what its hand and
    set-aside loads should still bring."""
    return worth(state, seat) - worth(root, seat)


KIT = Kit(policy=policy, evaluate=evaluate, horizon=horizon, weigh=weigh, exploration=0.35,
          max_depth=5, pool=48, points=points_gained, points_unit="points")
