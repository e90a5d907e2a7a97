"""The heuristic's decision at every step of a round: load the card with the best
round-plus-future score, call a favour when the round is uncertain enough to pay for the
card, look at the cards least known, take the side with the higher expected win.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from domain.bots.canyon_basic.outlook import SAMPLES, future, outlook, without
from domain.bots.canyon_basic.spot import Spot
from domain.games.canyon_donkeys import favours as fv
from domain.games.canyon_donkeys.actions import (
    CanyonAdjust,
    CanyonContract,
    CanyonExchange,
    CanyonFavour,
    CanyonKeep,
    CanyonLoad,
    CanyonLook,
    CanyonNoFavour,
    CanyonSwap,
    CanyonTake,
)

# Favours: the share of the round's stake each one can swing when the round is a toss-up.
FAVOUR_SWING = {fv.LAST_WORD: 0.35, fv.EXCHANGE: 0.9, fv.ADJUST: 0.6, fv.LOOK: 0.5}
FAVOUR_THRESHOLD = 0.5


def decide(spot: Spot, legal: Sequence[Any], rng: random.Random,
           samples: int = SAMPLES) -> Any:
    first = legal[0]
    if isinstance(first, CanyonLoad):
        return _load(spot, legal, rng, samples)
    if isinstance(first, CanyonNoFavour | CanyonFavour):
        return _favour(spot, legal, rng, samples)
    if isinstance(first, CanyonLook):
        # Looking is free information: never stop early.
        looks = [a for a in legal if isinstance(a, CanyonLook)]
        return max(looks, key=lambda a: _look_value(spot, a))
    if isinstance(first, CanyonContract):
        out = outlook(spot, spot.mine, rng, samples)
        accept = out.accept >= out.refuse
        return next(a for a in legal if a.accept == accept)
    if isinstance(first, CanyonAdjust):
        # Favour 6: make room when accepting, squeeze when refusing.
        up = bool(spot.contract[spot.seat])
        return next(a for a in legal if (a.delta > 0) == up)
    if isinstance(first, CanyonKeep | CanyonExchange | CanyonSwap):
        if any(isinstance(a, CanyonExchange) for a in legal):
            return _exchange(spot, legal, rng, samples)
        return _swap(legal)
    if isinstance(first, CanyonTake):
        return max(legal, key=lambda a: a.card[1])
    return first


def _load(spot: Spot, legal: Sequence[Any], rng: random.Random, samples: int) -> Any:
    best, best_score = legal[0], -math.inf
    for action in legal:
        out = outlook(spot, action.cards, rng, samples)
        score = out.best + future(without(spot.hand, action.cards), spot.needed)
        if score > best_score:
            best, best_score = action, score
    return best


def favour_scores(spot: Spot, rng: random.Random,
                  samples: int = SAMPLES) -> dict[int, float]:
    """What calling each favour card in hand is worth now, its card's cost taken off."""
    out = outlook(spot, spot.mine, rng, samples)
    toss_up = 2.0 * min(out.p_over, 1.0 - out.p_over)
    stake = max(out.win_accept, out.win_refuse, 1.0)
    keep = future(spot.hand, spot.needed)
    scores: dict[int, float] = {}
    for card in set(spot.hand) & set(fv.FAVOUR_CARDS):
        if card == fv.REWARD:
            others = [v for _, v in spot.seen] + [h.mean for h in spot.hidden]
            mine = min(spot.mine, default=0)
            gain = max(0.0, max(others, default=0.0) + 1.5 - mine)
            benefit = 0.5 * max(out.p_over, 1.0 - out.p_over) * gain
        else:
            benefit = FAVOUR_SWING[card] * toss_up * stake
        scores[card] = benefit - (keep - future(without(spot.hand, [card]), spot.needed))
    return scores


def _favour(spot: Spot, legal: Sequence[Any], rng: random.Random, samples: int) -> Any:
    scores = favour_scores(spot, rng, samples)
    callable_ = [a for a in legal if isinstance(a, CanyonFavour) and a.card in scores]
    if not callable_:
        return next(a for a in legal if isinstance(a, CanyonNoFavour))
    best = max(callable_, key=lambda a: scores[a.card])
    if scores[best.card] > FAVOUR_THRESHOLD:
        return best
    return next(a for a in legal if isinstance(a, CanyonNoFavour))


def _look_value(spot: Spot, action: CanyonLook) -> float:
    """Look where the least is known: the owner whose unseen cards spread the most."""
    spread = [h.var for h in spot.hidden if h.owner == action.seat]
    return max(spread, default=0.0) - 0.01 * action.slot


def _exchange(spot: Spot, legal: Sequence[Any], rng: random.Random, samples: int) -> Any:
    """Favour 4, after every decision: the load that serves the side taken best."""
    accepted = bool(spot.contract[spot.seat])

    def score(action: Any) -> float:
        mine, hand = list(spot.mine), list(spot.hand)
        if isinstance(action, CanyonExchange):
            mine.remove(action.load)
            mine.append(action.card)
            hand.remove(action.card)
            hand.append(action.load)
        out = outlook(spot, mine, rng, samples)
        return (out.accept if accepted else out.refuse) + future(hand, spot.needed)

    return max(legal, key=score)


def _swap(legal: Sequence[Any]) -> Any:
    """Favour 8, accepted and right: trade my lowest counted card for the highest other."""
    swaps = [a for a in legal if isinstance(a, CanyonSwap)]
    best = max(swaps, key=lambda a: a.take[1] - a.give[1], default=None)
    if best is None or best.take[1] <= best.give[1]:
        return next(a for a in legal if isinstance(a, CanyonKeep))
    return best

