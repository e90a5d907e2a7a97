"""What the strong bot's search is given: a game's `Kit` (what it knows about the game), a
`Budget` (how long it may search), and what it reports back (`SearchStats`).

A kit's rollout policy reads states, not views, so no view is built inside the search; it
must still read only what its seat could see. Its evaluation scores where a rollout stopped
(the end of the game, or the kit's horizon); its optional `weigh` says how well a sampled
deal agrees with the other seats' public choices ("bluff reading", see `domain.bots.sampler`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from domain.game import Game

# (game, state, seat, legal actions, rng) -> action; must read only what `seat` could see.
Policy = Callable[[Game[Any, Any], Any, int, Sequence[Any], random.Random], Any]
# (game, root sample, final state, seat) -> reward for `seat`, roughly in [0, 1].
Evaluate = Callable[[Game[Any, Any], Any, Any, int], float]
# (root sample, state) -> True when rollouts stop there.
Horizon = Callable[[Any, Any], bool]
# (game, sample, view, seat) -> likelihood of the other seats' public choices in this sample.
Weigh = Callable[[Game[Any, Any], Any, dict[str, Any], int], float]


@dataclass(frozen=True)
class Budget:
    """A search bound: stop at whichever of the two comes first (None = unbounded)."""

    seconds: float | None = 0.75
    iterations: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is None and self.iterations is None:
            raise ValueError("a budget needs a time limit or an iteration limit")


def random_policy(game: Game[Any, Any], state: Any, seat: int, legal: Sequence[Any],
                  rng: random.Random) -> Any:
    return legal[rng.randrange(len(legal))]


def outcome_reward(game: Game[Any, Any], root: Any, state: Any, seat: int) -> float:
    """1 for a first place, 0 for the last, linear between."""
    out = game.outcome(state)
    if out is None:
        return 0.5
    worst = max(out.places)
    if worst == 1:
        return 1.0
    return (worst - out.places[seat]) / (worst - 1)


@dataclass(frozen=True)
class Kit:
    """What the search knows about one game (or family)."""

    policy: Policy = random_policy
    evaluate: Evaluate = outcome_reward
    horizon: Horizon | None = None
    weigh: Weigh | None = None
    exploration: float = 0.7  # UCB constant, rewards being in [0, 1]
    epsilon: float = 0.0  # share of random moves in rollouts (with "rollouts": others only)
    max_depth: int = 6  # own decisions kept in the tree
    pool: int = 48  # samples drawn at once when they are weighted
    max_steps: int = 2000  # safety cap on one rollout's length
    # "ismcts" (`domain.bots.mcts`: a tree over the seat's own decisions), "rollouts"
    # (`domain.bots.rollouts`: improve on the policy by one step), or "policy" (no search:
    # the game's choices leave nothing to gain over the heuristic; its kit says why)
    method: Literal["ismcts", "rollouts", "policy"] = "ismcts"
    # The post-game analysis (`domain.bots.analysis`): what a decision won or lost, in the
    # game's own points (higher is better for the seat; None: the evaluation's reward),
    # what they are called, and where its rollouts stop (None: `horizon`).
    points: Evaluate | None = None
    points_unit: str = "reward"
    points_horizon: Horizon | None = None


@dataclass
class SearchStats:
    iterations: int = 0
    dropped: int = 0
    samples: int = 0
    seconds: float = 0.0
    playouts: int = 0  # rollouts played to their end (or horizon)
    visits: dict[Any, tuple[int, float]] = field(default_factory=dict)
