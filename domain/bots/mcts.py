"""Information-set Monte-Carlo tree search over determinized states.

The searching seat only ever holds its `Observation`. Each iteration draws a full state
consistent with that view (`game.determinize(view, seat, rng)`: the hidden cards are a
sample, not the truth), walks an open-loop tree of the seat's own decisions (children are
keyed by action; an action that is not legal in a sample is simply unavailable, so the
bandit counts availability as in single-observer ISMCTS), lets every other seat move with
the rollout policy (the opponent model: in simultaneous phases the other seats' choices are
sampled the same way), plays on with the rollout policy up to a horizon (the end of the
game, or of the current round for long games) and backs up the evaluation of that state.

Per-game knowledge comes in a `Kit`: the rollout policy (on states, so no view is built
inside the tree), the evaluation, the horizon, and optionally a weight that says how well a
sample agrees with the other seats' public choices (samples are then drawn from a weighted
pool: "bluff reading"). The search is bounded by a `Budget` (wall-clock and/or iterations);
when the clock runs out inside a rollout the iteration is dropped.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.errors import GameRuleError
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
    """1 for a first place, 0 for the last, linear between (dense places)."""
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
    # "ismcts" (this module) or "rollouts" (`domain.bots.rollouts`: improve on the policy)
    method: str = "ismcts"


@dataclass
class Node:
    """Statistics of one own action at one point of the open-loop tree."""

    visits: int = 0
    total: float = 0.0
    available: int = 0
    children: dict[Any, Node] = field(default_factory=dict)


@dataclass
class SearchStats:
    iterations: int = 0
    dropped: int = 0
    samples: int = 0
    seconds: float = 0.0
    visits: dict[Any, tuple[int, float]] = field(default_factory=dict)


class Sampler:
    """Determinizations of the seat's view; weighted by the kit when it can weigh."""

    def __init__(self, game: Any, view: dict[str, Any], seat: int, kit: Kit,
                 rng: random.Random) -> None:
        self.game, self.view, self.seat, self.kit, self.rng = game, view, seat, kit, rng
        self.count = 0
        self._pool: list[Any] = []
        self._cum: list[float] = []

    def draw(self) -> Any:
        self.count += 1
        if self.kit.weigh is None:
            return self.game.determinize(self.view, self.seat, self.rng)
        if not self._pool:
            self._fill()
        r = self.rng.random() * self._cum[-1]
        lo, hi = 0, len(self._cum) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if self._cum[mid] < r:
                lo = mid + 1
            else:
                hi = mid
        return self._pool[lo]

    def _fill(self) -> None:
        assert self.kit.weigh is not None
        total = 0.0
        for _ in range(self.kit.pool):
            sample = self.game.determinize(self.view, self.seat, self.rng)
            w = max(0.0, float(self.kit.weigh(self.game, sample, self.view, self.seat)))
            self._pool.append(sample)
            total += w
            self._cum.append(total)
        if total <= 0.0:  # nothing agrees: fall back to unweighted samples
            self._cum = [float(i + 1) for i in range(len(self._pool))]


def search(game: Game[Any, Any], view: dict[str, Any], seat: int, legal: Sequence[Any],
           rng: random.Random, kit: Kit, budget: Budget,
           stats: SearchStats | None = None) -> Any | None:
    """The most visited of `legal` after the search (the only one, if there is one);
    None when no iteration could complete within the budget."""
    legal = list(legal)
    if len(legal) == 1:
        return legal[0]
    if kit.method == "rollouts":
        from domain.bots.rollouts import improve

        return improve(game, Sampler(game, view, seat, kit, rng), seat, legal, rng, kit,
                       budget, stats)
    start = time.perf_counter()
    deadline = start + budget.seconds if budget.seconds is not None else math.inf
    max_iter = budget.iterations if budget.iterations is not None else 1 << 62
    root = Node()
    root_keys = set(legal)
    sampler = Sampler(game, view, seat, kit, rng)
    iterations = dropped = 0
    while iterations < max_iter:
        now = time.perf_counter()
        if now >= deadline:
            break
        if iterations and iterations % 32 == 0 and _decided(root, iterations, now - start,
                                                              deadline - now, max_iter):
            break
        sample = sampler.draw()
        try:
            done = _iterate(game, sample, seat, root, root_keys, rng, kit, deadline)
        except GameRuleError:
            done = False  # a sample the rules reject: skip it
        if done:
            iterations += 1
        else:
            dropped += 1
            if time.perf_counter() >= deadline:
                break
    best = _best(root, legal)
    if stats is not None:
        stats.iterations, stats.dropped, stats.samples = iterations, dropped, sampler.count
        stats.seconds = time.perf_counter() - start
        stats.visits = {a: (n.visits, n.total / n.visits if n.visits else 0.0)
                        for a, n in root.children.items()}
    return best


def _iterate(game: Any, state: Any, seat: int, root: Node, root_keys: set[Any],
             rng: random.Random, kit: Kit, deadline: float) -> bool:
    sample = state
    node: Node | None = root
    path: list[Node] = []
    depth = 0
    steps = 0
    horizon = kit.horizon
    policy = kit.policy
    eps = kit.epsilon
    while game.outcome(state) is None and not (horizon is not None and horizon(sample, state)):
        steps += 1
        if steps > kit.max_steps:
            break
        if steps % 64 == 0 and time.perf_counter() >= deadline:
            return False
        acting = game.to_act(state)
        if not acting:
            return False
        if seat in acting:
            mover = seat
        else:
            mover = min(acting) if len(acting) == 1 else rng.choice(sorted(acting))
        legal = game.legal_actions(state, mover)
        if not legal:
            return False
        if mover == seat and node is not None and depth < kit.max_depth:
            if depth == 0:
                legal = [a for a in legal if a in root_keys] or legal
            action, child, expanded = _select(node, legal, rng, kit.exploration)
            path.append(child)
            node = None if expanded else child
            depth += 1
        elif eps and rng.random() < eps:
            action = legal[rng.randrange(len(legal))]
        else:
            action = policy(game, state, mover, legal, rng) if len(legal) > 1 else legal[0]
        for ev in game.decide(state, mover, action, rng):
            state = game.evolve(state, ev)
    reward = kit.evaluate(game, sample, state, seat)
    for child in path:
        child.visits += 1
        child.total += reward
    return True


def _select(node: Node, legal: Sequence[Any], rng: random.Random,
            c: float) -> tuple[Any, Node, bool]:
    """UCB over the available children; an untried action first (then it is expanded)."""
    children = node.children
    untried = [a for a in legal if a not in children or children[a].visits == 0]
    for a in legal:
        child = children.get(a)
        if child is None:
            child = children[a] = Node()
        child.available += 1
    if untried:
        action = untried[rng.randrange(len(untried))]
        return action, children[action], True
    best_score = -math.inf
    best: Any = legal[0]
    for a in legal:
        child = children[a]
        score = child.total / child.visits + c * math.sqrt(
            math.log(child.available) / child.visits)
        if score > best_score:
            best_score, best = score, a
    return best, children[best], False


def _decided(root: Node, iterations: int, spent: float, left: float, max_iter: int) -> bool:
    """True when no remaining iteration could change the most visited root action."""
    if len(root.children) < 2:
        return False
    rate = iterations / spent if spent > 0 else math.inf
    remaining = min(max_iter - iterations, rate * left if rate != math.inf else max_iter)
    top = sorted((n.visits for n in root.children.values()), reverse=True)
    return top[0] - top[1] > remaining


def _best(root: Node, legal: Sequence[Any]) -> Any:
    """The most visited legal root action (mean reward breaks ties)."""
    best: Any = None
    key: tuple[int, float] = (-1, -math.inf)
    for a in legal:
        child = root.children.get(a)
        if child is None:
            continue
        k = (child.visits, child.total / child.visits if child.visits else -math.inf)
        if k > key:
            best, key = a, k
    return best
