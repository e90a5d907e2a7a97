"""The Glicko-2 rating system, as Glickman's "Example of the Glicko-2 system" (2013) sets it out.

A rating is `(r, RD, σ)`: the rating, its deviation (how unsure we are of it) and its
volatility (how erratic the player's results are). One *rating period* updates a rating
from the games played in it against opponents whose ratings are taken as they were at the
period's start. The step numbers below are the paper's.

donkeypost rates after every finished game: that game is one rating period for each of its
players, and a game of N players is N − 1 pairwise results for each (see `pairwise`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# The scale factor between the Glicko scale (r, RD) and the Glicko-2 scale (μ, φ).
GLICKO2_SCALE = 173.7178
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
# τ constrains how fast the volatility changes; the paper suggests 0.3 to 1.2.
DEFAULT_TAU = 0.5
CONVERGENCE = 0.000001  # ε of step 5


@dataclass(frozen=True)
class Rating:
    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY


@dataclass(frozen=True)
class Result:
    """One game against `opponent`: `score` is 1 for a win, 0.5 for a draw, 0 for a loss."""

    opponent: Rating
    score: float


def rate(player: Rating, results: Sequence[Result], tau: float = DEFAULT_TAU) -> Rating:
    """The player's rating after one rating period with these results."""
    # Step 2: convert to the Glicko-2 scale.
    mu = (player.rating - DEFAULT_RATING) / GLICKO2_SCALE
    phi = player.deviation / GLICKO2_SCALE
    sigma = player.volatility
    if not results:
        # A player who did not compete only grows less certain (step 6 alone).
        return Rating(player.rating, GLICKO2_SCALE * math.sqrt(phi * phi + sigma * sigma),
                      sigma)
    opponents = [((r.opponent.rating - DEFAULT_RATING) / GLICKO2_SCALE,
                  r.opponent.deviation / GLICKO2_SCALE, r.score) for r in results]
    # Step 3: the estimated variance of the rating from the game outcomes alone.
    v_inverse = 0.0
    improvement = 0.0  # Σ g(φj) (sj − E), shared by steps 4 and 7
    for mu_j, phi_j, score in opponents:
        g_j = _g(phi_j)
        e_j = _expected(mu, mu_j, g_j)
        v_inverse += g_j * g_j * e_j * (1.0 - e_j)
        improvement += g_j * (score - e_j)
    v = 1.0 / v_inverse
    # Step 4: the estimated improvement in rating.
    delta = v * improvement
    # Step 5: the new volatility.
    new_sigma = _volatility(phi, sigma, v, delta, tau)
    # Step 6: the pre-period deviation grows by the new volatility.
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    # Step 7: the new deviation and rating.
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    # Step 8: back to the Glicko scale.
    return Rating(GLICKO2_SCALE * new_mu + DEFAULT_RATING, GLICKO2_SCALE * new_phi, new_sigma)


def pairwise(places: Sequence[int]) -> list[list[tuple[int, float]]]:
    """For each seat, its results against every other seat from the game's places:
    1 against a worse place, 0.5 against the same place, 0 against a better one."""
    return [
        [(j, 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0)
         for j, theirs in enumerate(places) if j != i]
        for i, mine in enumerate(places)
    ]


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: solve f(x) = 0 by the Illinois algorithm; σ' = e^(A/2)."""
    a = math.log(sigma * sigma)
    phi2, delta2 = phi * phi, delta * delta

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2)
                - (x - a) / (tau * tau))

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > CONVERGENCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)
