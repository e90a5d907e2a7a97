"""The bots' ratings per game type: measured by a calibration, so that a new player's first
games against bots put them where they belong.

A calibration (`donkeypost calibrate`) plays games of bots against each other; `calibrate`
then rates the levels from all those games at once, as one fit (not game after game):

- The model is Glicko's (and Elo's): a level of rating `r` scores against one of rating `r'`
  `E = 1 / (1 + 10^(-(r - r') / 400))` on average, and the ratings are the most likely ones
  given every pairwise result of every game (`glicko2.pairwise`: 1 against a worse place,
  1/2 against the same, 0 against a better one); a level meeting itself learns nothing.
- A game of `k` seats gives `k(k-1)/2` pairs, but they come from one game, not from that
  many: its `k` places say what `k - 1` independent pairs would (the neighbouring places),
  so each of its pairs weighs `2/k` (a game of two seats is one pair of weight 1; one of
  four, six pairs of 1/2, three pairs' worth). All a calibration's games have the same
  number of seats, so the weight moves no rating; it keeps the deviations honest. Checked
  on games drawn from the model (the places of `k` performances, each a level's strength
  plus logistic noise; 400 calibrations of 120 games): at 3, 4 and 5 seats the deviations
  it gives are 1 to 9 % wider than the spread of the fitted ratings from one calibration to
  the next (at four seats, weight 1 would make them 26 % too narrow, `1/(k-1)` 28 % too
  wide).
- `random` is the anchor: it stays at `ANCHOR` (the scale must hang on something, and the
  weakest level changes least from one version of the bots to the next). Every other level
  starts from a new player's prior, 1500 with a deviation of 350 (the Glicko-2 start, worth
  about one even game), so that a level that won every game still gets a finite rating.
- A level's deviation is the curvature's: the square root of its diagonal term in the
  inverse of the fit's information matrix (the negative Hessian of the log-posterior, the
  anchor fixed). It narrows as games are added, about as one over the square root of
  their number; its volatility is Glicko-2's default (the fit takes each level's strength
  as constant over the calibration, and does not measure how erratic it is).

The ratings depend on the games, not on their order: the results are summed exactly
(fractions) before the fit, so shuffled games give the very same standings.

Where the bots' ratings come from, first found first:
1. the deployment's own calibration, kept in the rating store (the budgets of its searching
   levels are its own, and so is their strength);
2. the calibration shipped with the code (`calibration.json`: the game types it holds, the
   commands that made it, with iteration budgets, and every game's result, so that it can
   be fitted again without playing: `donkeypost calibrate --refit`; see docs/bots.md);
3. the fixed ratings of `domain.ratings.bots` (a level or a game never calibrated).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import cache
from importlib import resources

import msgspec

from domain.ratings.bots import BOT_DEVIATION, BOT_RATINGS
from domain.ratings.glicko2 import GLICKO2_SCALE, Rating, pairwise
from domain.ratings.standing import Standing

ANCHOR_LEVEL = "random"
ANCHOR = Standing(rating=BOT_RATINGS[ANCHOR_LEVEL].rating, deviation=BOT_DEVIATION)
# A level's rating before the calibration's games: a new player's.
PRIOR = Standing()
SHIPPED = "calibration.json"
_STEPS = 100  # Newton steps at most (a handful are enough: the fit has a few unknowns)


def calibrate(games: Iterable[tuple[Sequence[str], Sequence[int]]]) -> dict[str, Standing]:
    """Each level's standing fitted from all `games` at once (each: the levels by seat,
    the places): see the module's text. Every level seen is in the result, `random` too
    (at `ANCHOR`); `games` counts the games a level played against another level,
    `wins` its seats' first places in them."""
    weight: Counter[tuple[str, str]] = Counter()  # (a, b), a < b: the pairs' total weight
    score: Counter[tuple[str, str]] = Counter()  # a's weighted score against b
    played: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    seen: set[str] = {ANCHOR_LEVEL}
    for levels, places in games:
        seen.update(levels)
        if len(set(levels)) < 2:
            continue  # a level meeting only itself
        share = Fraction(2, len(levels))
        played.update(set(levels))
        wins.update(lv for lv, place in zip(levels, places, strict=True) if place == 1)
        for seat, results in enumerate(pairwise(places)):
            for other, result in results:
                a, b = levels[seat], levels[other]
                if a < b:  # each pair once, from the side of the level named first
                    weight[a, b] += share
                    score[a, b] += share * Fraction(result)
    free = sorted(seen - {ANCHOR_LEVEL})
    pairs = sorted(weight)  # in an order of their own, not the games'
    mus, deviations = _fit(free, {k: float(weight[k]) for k in pairs},
                           {k: float(score[k]) for k in pairs})
    out = {ANCHOR_LEVEL: msgspec.structs.replace(ANCHOR, games=played[ANCHOR_LEVEL],
                                                 wins=wins[ANCHOR_LEVEL])}
    for level in free:
        out[level] = Standing(rating=PRIOR.rating + GLICKO2_SCALE * mus[level],
                              deviation=GLICKO2_SCALE * deviations[level],
                              volatility=PRIOR.volatility, games=played[level],
                              wins=wins[level])
    return out


def _fit(free: Sequence[str], weight: Mapping[tuple[str, str], float],
         score: Mapping[tuple[str, str], float]) -> tuple[dict[str, float], dict[str, float]]:
    """The most probable ratings of the `free` levels on the Glicko-2 scale (μ), the anchor
    fixed, and their deviations (φ): Newton's method on the log-posterior, which the prior
    makes strictly concave (one maximum, found from anywhere)."""
    anchor = (ANCHOR.rating - PRIOR.rating) / GLICKO2_SCALE
    prior_mu = 0.0
    prior_precision = (GLICKO2_SCALE / PRIOR.deviation) ** 2
    index = {level: i for i, level in enumerate(free)}
    n = len(free)

    def mu_of(level: str, x: Sequence[float]) -> float:
        return anchor if level == ANCHOR_LEVEL else x[index[level]]

    def objective(x: Sequence[float]) -> float:  # the negative log-posterior
        total = sum(0.5 * prior_precision * (xi - prior_mu) ** 2 for xi in x)
        for (a, b), w in weight.items():
            d = mu_of(a, x) - mu_of(b, x)
            s = score[a, b]
            total += s * _softplus(-d) + (w - s) * _softplus(d)
        return total

    def gradient_and_hessian(x: Sequence[float]) -> tuple[list[float], list[list[float]]]:
        grad = [prior_precision * (xi - prior_mu) for xi in x]
        hess = [[prior_precision if i == j else 0.0 for j in range(n)] for i in range(n)]
        for (a, b), w in weight.items():
            p = _logistic(mu_of(a, x) - mu_of(b, x))
            g, h = w * p - score[a, b], w * p * (1.0 - p)
            for level, sign in ((a, 1.0), (b, -1.0)):
                if level in index:
                    grad[index[level]] += sign * g
                    hess[index[level]][index[level]] += h
            if a in index and b in index:
                hess[index[a]][index[b]] -= h
                hess[index[b]][index[a]] -= h
        return grad, hess

    x = [prior_mu] * n
    for _ in range(_STEPS):
        grad, hess = gradient_and_hessian(x)
        inverse = _inverse(hess)
        step = [-sum(inverse[i][j] * grad[j] for j in range(n)) for i in range(n)]
        before, scale = objective(x), 1.0
        while True:  # halve the step until it does not make things worse
            trial = [xi + scale * si for xi, si in zip(x, step, strict=True)]
            if objective(trial) <= before or scale < 1e-6:
                break
            scale /= 2.0
        x = trial
        if max((abs(si) for si in step), default=0.0) * scale < 1e-12:
            break
    _, hess = gradient_and_hessian(x)
    inverse = _inverse(hess)
    return ({level: x[i] for level, i in index.items()},
            {level: math.sqrt(inverse[i][i]) for level, i in index.items()})


def _logistic(d: float) -> float:
    return 1.0 / (1.0 + math.exp(-d)) if d >= 0 else math.exp(d) / (1.0 + math.exp(d))


def _softplus(d: float) -> float:
    """log(1 + e^d), -log of the logistic of -d, without overflow."""
    return d + math.log1p(math.exp(-d)) if d > 0 else math.log1p(math.exp(d))


def _inverse(matrix: Sequence[Sequence[float]]) -> list[list[float]]:
    """The inverse of a small symmetric positive definite matrix (Gauss-Jordan)."""
    n = len(matrix)
    a = [[*row, *(1.0 if i == j else 0.0 for j in range(n))] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        head = a[col][col]
        a[col] = [v / head for v in a[col]]
        for r in range(n):
            if r != col and a[r][col] != 0.0:
                f = a[r][col]
                a[r] = [v - f * c for v, c in zip(a[r], a[col], strict=True)]
    return [row[n:] for row in a]


@cache
def shipped() -> dict[str, dict[str, Standing]]:
    """The calibration shipped with the code: game type -> level -> standing."""
    try:
        raw = resources.files("domain.ratings").joinpath(SHIPPED).read_text()
    except FileNotFoundError:
        return {}
    data = json.loads(raw)
    return {game: {level: Standing(**fields) for level, fields in levels.items()}
            for game, levels in data.get("ratings", {}).items()}


def bot_ratings(game_type: str,
                calibrated: Mapping[str, Standing] | None = None) -> dict[str, Rating]:
    """Each bot level's rating in `game_type`: the deployment's calibration (`calibrated`,
    from the rating store), else the shipped one, else the fixed ratings."""
    out = dict(BOT_RATINGS)
    for level, standing in shipped().get(game_type, {}).items():
        out[level] = standing.glicko
    for level, standing in (calibrated or {}).items():
        out[level] = standing.glicko
    return out
