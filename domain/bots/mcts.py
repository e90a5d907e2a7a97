"""Information-set Monte-Carlo tree search over determinized states.

The searching seat only ever holds its view. Each iteration draws a full state consistent
with that view (`domain.bots.sampler`), walks an open-loop tree of the seat's own decisions
(children are keyed by action; an action that is not legal in a sample is simply
unavailable, so the bandit counts availability as in single-observer ISMCTS), lets every
other seat move with the kit's rollout policy (the opponent model: in simultaneous phases
the searching seat moves first and the others in a random order), plays on with the policy
up to the kit's horizon (the end of the game, or of the current round for long games) and
backs up the evaluation of that state. When the clock runs out inside a rollout the
iteration is dropped.
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.bots.sampler import Sampler
from domain.bots.search_terms import Budget, Kit, SearchStats
from domain.errors import GameRuleError
from domain.game import Game
from domain.play import Pick, play_on


@dataclass(slots=True)
class Node:
    """Statistics of one own action at one point of the open-loop tree."""

    visits: int = 0
    total: float = 0.0
    available: int = 0
    children: dict[Any, Node] = field(default_factory=dict)


def ismcts(game: Game[Any, Any], sampler: Sampler, seat: int, legal: Sequence[Any],
           rng: random.Random, kit: Kit, budget: Budget,
           stats: SearchStats | None = None) -> Any | None:
    """The most visited of `legal` after the search; None when no iteration could
    complete within the budget."""
    start = time.perf_counter()
    deadline = start + budget.seconds if budget.seconds is not None else math.inf
    max_iter = budget.iterations if budget.iterations is not None else 1 << 62
    root = Node()
    walk = _Walk(game, seat, root, set(legal), kit, rng)
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
            done = walk.playout(sample, deadline)
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
        stats.playouts = iterations
        stats.visits = {a: (n.visits, n.total / n.visits if n.visits else 0.0)
                        for a, n in root.children.items()}
    return best


class _Walk:
    """One search's playouts. In each, the searching seat's decisions walk down the tree
    (an untried action first, then UCB) as far as it reaches; every other move, and the
    seat's own below the tree, follows the kit's policy (with `kit.epsilon` of random
    moves). Built once per search: a playout is the hot path."""

    def __init__(self, game: Any, seat: int, root: Node, root_keys: set[Any], kit: Kit,
                 rng: random.Random) -> None:
        self.game, self.seat, self.root, self.root_keys = game, seat, root, root_keys
        self.kit, self.rng = kit, rng
        self.policy, self.eps = kit.policy, kit.epsilon
        self.max_depth, self.c = kit.max_depth, kit.exploration
        self.pick: Pick = lambda acting: seat if seat in acting else rng.choice(acting)
        self.choose_ = self.choose  # bound once, not at every playout
        self.node: Node | None = root
        self.depth = 0
        self.path: list[Node] = []

    def playout(self, sample: Any, deadline: float) -> bool:
        """One walk down the tree and on to the horizon, its reward backed up along the
        path; False when it was dropped (out of time, or a stuck game)."""
        kit = self.kit
        self.node, self.depth, self.path = self.root, 0, []
        stop = functools.partial(kit.horizon, sample) if kit.horizon is not None else None
        # In a simultaneous phase the searching seat moves first, the others in a random order.
        state, _, end = play_on(self.game, sample, self.choose_, self.rng, pick=self.pick,
                                stop=stop, max_moves=kit.max_steps, deadline=deadline)
        if end == "late" or end == "stuck":
            return False
        reward = kit.evaluate(self.game, sample, state, self.seat)
        for child in self.path:
            child.visits += 1
            child.total += reward
        return True

    def choose(self, state: Any, mover: int, legal: Sequence[Any]) -> Any:
        node = self.node
        if mover == self.seat and node is not None and self.depth < self.max_depth:
            if self.depth == 0:
                legal = [a for a in legal if a in self.root_keys] or legal
            action, child, expanded = _select(node, legal, self.rng, self.c)
            self.path.append(child)
            self.node = None if expanded else child
            self.depth += 1
            return action
        rng = self.rng
        if self.eps and rng.random() < self.eps:
            return legal[rng.randrange(len(legal))]
        return self.policy(self.game, state, mover, legal, rng) if len(legal) > 1 else legal[0]


def _select(node: Node, legal: Sequence[Any], rng: random.Random,
            c: float) -> tuple[Any, Node, bool]:
    """UCB over the available children; an untried action first (then it is expanded)."""
    children = node.children
    untried = []
    for a in legal:
        child = children.get(a)
        if child is None:
            child = children[a] = Node()
        child.available += 1
        if not child.visits:
            untried.append(a)
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
