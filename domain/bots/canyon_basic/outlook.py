"""The round's outlook from one seat's `Spot`: the chance that the donkey is overloaded
with a given load, what accepting and refusing would then win, and what the cards kept
in hand are worth later (`ALPHA` of their value, but only as many cards as the seat must
still load count: the others are spare, which makes a favour cheap).
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from domain.bots.canyon_basic.spot import Hidden, Spot
from domain.games.canyon_donkeys import donkeys as dk
from domain.games.canyon_donkeys import favours as fv
from domain.games.canyon_donkeys.state import CARD_VALUES

ALPHA = 0.5  # a card kept for a later round is worth about half its value
SAMPLES = 24  # draws for the donkeys whose overload test is not a plain total
ROLLOUT_SAMPLES = 8  # draws per outlook inside the search (rollouts, weighing)


@dataclass(slots=True)
class Outlook:
    p_over: float
    win_accept: float  # what accepting wins if the donkey is not overloaded
    win_refuse: float  # what refusing wins if it is

    @property
    def accept(self) -> float:
        return (1.0 - self.p_over) * self.win_accept

    @property
    def refuse(self) -> float:
        return self.p_over * self.win_refuse

    @property
    def best(self) -> float:
        return max(self.accept, self.refuse)


def outlook(spot: Spot, mine: Sequence[int], rng: random.Random,
            samples: int = SAMPLES) -> Outlook:
    """Chance of an overload with `mine` loaded, and what each side then wins."""
    if spot.effect in (dk.ATTACKED, dk.PICKY):
        return _sampled_outlook(spot, mine, rng, samples)
    mean = sum(mine) + spot.seen_sum + spot.hidden_mean
    count = len(mine) + len(spot.seen) + len(spot.hidden)
    if spot.effect == dk.PRECISION:
        fixed = [*mine, *(v for _, v in spot.seen)]
        p = 1.0 - _p_within_gap(fixed, spot.hidden, spot.limit)
    else:
        var = spot.hidden_var
        if var < 1e-9:
            p = 1.0 if mean > spot.limit else 0.0
        else:
            z = (spot.limit + 0.5 - mean) / math.sqrt(var)
            p = 0.5 * math.erfc(z / math.sqrt(2.0))
    pile = mean / count if count else 0.0
    win_accept = float(sum(mine))
    win_refuse = pile + 0.5  # an overloaded pile runs a little high
    if spot.favour[spot.seat] == fv.REWARD:
        top = max([*mine, *(v for _, v in spot.seen), *(max(h.values) for h in spot.hidden)],
                  default=0)
        best_other = max([v for _, v in spot.seen] + [h.mean + math.sqrt(h.var)
                                                     for h in spot.hidden], default=0.0)
        if mine:
            win_accept += max(0.0, best_other - min(mine))
        win_refuse = max(win_refuse, 0.5 * (top + pile))
    return Outlook(p, win_accept, win_refuse)


def _p_within_gap(fixed: Sequence[int], hidden: Sequence[Hidden], gap: int) -> float:
    """P(highest − lowest ≤ gap): sum over the lowest value m of P(all in [m, m + gap])
    − P(all in [m + 1, m + gap])."""

    low, high = min(fixed, default=99), max(fixed, default=0)
    top = CARD_VALUES[-1]

    def all_in(lo: int, hi: int) -> float:
        hi = min(hi, top)
        if lo > hi or lo > low or hi < high:
            return 0.0
        p = 1.0
        for h in hidden:
            p *= h.below[hi] - h.below[lo - 1]
        return p

    return sum(all_in(m, m + gap) - all_in(m + 1, m + gap) for m in CARD_VALUES)


def _sampled_outlook(spot: Spot, mine: Sequence[int], rng: random.Random,
                     samples: int) -> Outlook:
    """The attacked and picky donkeys remove cards at the reveal: draw the hidden cards."""
    me = spot.seat
    fixed = [(me, v) for v in mine] + list(spot.seen)
    if spot.draws is None or len(spot.draws) != samples:
        spot.draws = [[(h.owner, _draw(h, rng)) for h in spot.hidden] for _ in range(samples)]
    over = 0
    acc_sum = ref_sum = 0.0
    for drawn in spot.draws:
        cards = fixed + drawn
        removed = dk.removed_at_reveal(spot.effect, cards)
        counted = [c for c in cards if c not in removed]
        shut_out = spot.effect == dk.ATTACKED and any(c[0] == me for c in removed)
        if dk.is_overloaded(spot.effect, counted, spot.limit):
            over += 1
            if not shut_out and counted:
                ref_sum += sum(v for _, v in counted) / len(counted)
        elif not shut_out:
            acc_sum += sum(v for owner, v in counted if owner == me)
    fits = samples - over
    return Outlook(over / samples, acc_sum / fits if fits else 0.0,
                   ref_sum / over if over else 0.0)


def _draw(h: Hidden, rng: random.Random) -> int:
    """One value of a hidden card, at its weight."""
    return bisect.bisect_left(h.below, rng.random(), 1, len(h.below) - 1)


def future(hand: Sequence[int], needed: int) -> float:
    """What the hand is worth later: the `needed` best cards, at ALPHA a point."""
    if needed <= 0:
        return 0.0
    return ALPHA * sum(sorted(hand, reverse=True)[:needed])


def without(hand: Sequence[int], cards: Sequence[int]) -> list[int]:
    """The hand once `cards` have left it."""
    out = list(hand)
    for c in cards:
        out.remove(c)
    return out
