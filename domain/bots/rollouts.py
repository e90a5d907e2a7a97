"""Rollout improvement: the kit's policy, unless sampled futures show a clearly better move.

A one-step improvement of a policy: for each determinization of the seat's view (hidden
cards drawn consistently with what the seat has seen, never the truth), every candidate
action is played and then everyone — this seat included — follows the kit's policy to the
horizon (the other seats with a share `kit.epsilon` of random moves: a model of opponents
that are not this policy). The candidates share their samples, and on a sample their
rollouts draw the same random numbers (the opponents' slips, the game's chance), so two
actions are compared on the same deals and the same luck, pair by pair: the comparison's
noise is the difference's, far below either value's. A candidate clearly behind the leader
is dropped (racing), which leaves the budget to the close calls. At the end the leader is
played only if it beats the policy's own choice by a margin the samples support; otherwise
the policy's choice is played, so searching with few samples costs nothing against the
policy.
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections.abc import Sequence
from typing import Any

from domain.bots.sampler import Sampler
from domain.bots.search_terms import Budget, Kit, SearchStats
from domain.errors import GameRuleError
from domain.game import Game
from domain.play import Chooser, advance, play_on

MIN_PAIRS = 4  # samples before a candidate may be dropped
DROP_Z = 2.0  # dropped when its pairwise gap to the leader is this many standard errors
KEEP_Z = 2.5


def improve(game: Game[Any, Any], sampler: Sampler, seat: int, legal: Sequence[Any],
            rng: random.Random, kit: Kit, budget: Budget,
            stats: SearchStats | None = None) -> Any | None:
    """The action to play (None when not one sample could be completed)."""
    ranked = compare(game, sampler, seat, legal, rng, kit, budget, None, stats)
    if ranked is None:
        return None
    if ranked.leader is not ranked.anchor and ranked.gap > KEEP_Z * ranked.error:
        return ranked.leader.action
    return ranked.anchor.action


class Candidate:
    """One action compared: its reward in each sample it was played in."""

    __slots__ = ("action", "rewards")

    def __init__(self, action: Any) -> None:
        self.action = action
        self.rewards: dict[int, float] = {}  # sample number -> reward

    @property
    def mean(self) -> float:
        return _mean(self.rewards.values())


class Ranked:
    """A comparison's answer: the leader (best mean), the anchor, the leader's paired gap
    over the anchor and its standard error, and every candidate still in the race."""

    def __init__(self, leader: Candidate, anchor: Candidate, alive: list[Candidate],
                 samples: int) -> None:
        self.leader, self.anchor, self.alive, self.samples = leader, anchor, alive, samples
        self.gap, self.error = _gap(leader, anchor)


def compare(game: Game[Any, Any], sampler: Sampler, seat: int, legal: Sequence[Any],
            rng: random.Random, kit: Kit, budget: Budget, anchor_action: Any | None = None,
            stats: SearchStats | None = None) -> Ranked | None:
    """Compare the actions of `legal` on shared samples, racing the clearly worse ones
    away; `anchor_action` is never dropped (default: the kit policy's choice). None when
    not one sample could be completed."""
    start = time.perf_counter()
    deadline = start + budget.seconds if budget.seconds is not None else math.inf
    max_rollouts = budget.iterations if budget.iterations is not None else 1 << 62
    anchor: Candidate | None = None
    alive = [Candidate(a) for a in legal]
    rollouts = samples = dropped = 0
    shared = random.Random()  # each candidate's rollout on a sample draws the same numbers
    choose = _policy_with_noisy_opponents(game, seat, kit, shared)
    while rollouts + len(alive) <= max_rollouts and time.perf_counter() < deadline:
        sample = sampler.draw()
        if anchor is None:
            # The policy reads only what the seat sees: its choice is the same in every sample.
            choice = anchor_action if anchor_action is not None else \
                kit.policy(game, sample, seat, legal, rng)
            anchor = next(c for c in alive if c.action == choice)
        got: list[float] = []
        numbers = rng.getrandbits(64)
        try:
            for cand in alive:
                if time.perf_counter() >= deadline:
                    raise _OutOfTime  # a sample of many candidates must not overrun
                shared.seed(numbers)
                got.append(_rollout(game, sample, seat, cand.action, shared, kit, choose,
                                    deadline))
        except (GameRuleError, _OutOfTime):
            dropped += 1  # a sample the rules reject, or the clock ran out: unused
            continue
        finally:
            rollouts += len(got)
        for cand, reward in zip(alive, got, strict=True):
            cand.rewards[samples] = reward
        samples += 1
        alive = _race(alive, anchor)
        if len(alive) == 1:
            break  # only the anchor is left
    if stats is not None:
        stats.iterations, stats.dropped, stats.samples = samples, dropped, sampler.count
        stats.seconds = time.perf_counter() - start
        stats.playouts = rollouts
        stats.visits = {c.action: (len(c.rewards), c.mean) for c in alive}
    if anchor is None or not samples:
        return None
    return Ranked(_leader(alive, anchor), anchor, alive, samples)


class _OutOfTime(Exception):
    pass


def _policy_with_noisy_opponents(game: Game[Any, Any], seat: int, kit: Kit,
                                 rng: random.Random) -> Chooser[Any, Any]:
    """Every seat plays the kit's policy; the others take a random move with probability
    `kit.epsilon` (the opponents may play worse)."""
    policy, eps = kit.policy, kit.epsilon

    def choose(state: Any, mover: int, legal: Sequence[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        if mover != seat and eps and rng.random() < eps:
            return legal[rng.randrange(len(legal))]
        return policy(game, state, mover, legal, rng)

    return choose


def _rollout(game: Game[Any, Any], root: Any, seat: int, action: Any, rng: random.Random,
             kit: Kit, choose: Chooser[Any, Any], deadline: float) -> float:
    """The evaluation of `action` played on `root`, everyone following `choose` after it."""
    state, _ = advance(game, root, seat, action, rng)
    stop = functools.partial(kit.horizon, root) if kit.horizon is not None else None
    state, _, end = play_on(game, state, choose, rng, stop=stop, max_moves=kit.max_steps,
                            deadline=deadline)
    if end == "late":
        raise _OutOfTime
    return kit.evaluate(game, root, state, seat)


def _race(alive: list[Candidate], anchor: Candidate) -> list[Candidate]:
    """Drop the candidates clearly behind the leader (never the policy's own choice)."""
    leader = _leader(alive, anchor)
    kept = []
    for cand in alive:
        if cand is not anchor and cand is not leader and len(cand.rewards) >= MIN_PAIRS:
            gap, err = _gap(leader, cand)
            if gap > DROP_Z * err:
                continue
        kept.append(cand)
    return kept


def _leader(alive: Sequence[Candidate], anchor: Candidate) -> Candidate:
    """The candidate with the best mean over all its samples (ties: the policy's choice)."""
    return max(alive, key=lambda c: (_mean(c.rewards.values()), c is anchor))


def _gap(a: Candidate, b: Candidate) -> tuple[float, float]:
    """Mean of a's reward minus b's over their common samples, and its standard error."""
    diffs = [a.rewards[k] - b.rewards[k] for k in a.rewards.keys() & b.rewards.keys()]
    n = len(diffs)
    if n < 2:
        return 0.0, math.inf
    mean = math.fsum(diffs) / n
    var = math.fsum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def _mean(values: Any) -> float:
    values = list(values)
    return math.fsum(values) / len(values) if values else -math.inf
