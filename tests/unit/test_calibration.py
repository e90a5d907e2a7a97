"""The bots' calibration: levels rated by one fit of all their games among themselves,
`random` the anchor; where a game type's bot ratings come from."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from domain.ratings.bots import BOT_RATINGS
from domain.ratings.calibration import ANCHOR, PRIOR, bot_ratings, calibrate, shipped
from domain.ratings.standing import Standing
from donkeypost.calibrate import seatings

# Known strengths, on the Elo scale: the calibrations below draw their games from them.
TRUE = {"random": 1000.0, "basic": 1300.0, "strong": 1420.0, "expert": 1450.0}
LEVELS = list(TRUE)


def drawn(seated: list[list[str]], rng: random.Random) -> list[tuple[list[str], list[int]]]:
    """Each table's places from the model the fit assumes: each seat performs at its
    level's strength plus a Gumbel draw (so any two seats' order is Elo's logistic)."""
    out = []
    for levels in seated:
        perf = [TRUE[lv] * math.log(10) / 400 - math.log(-math.log(rng.random()))
                for lv in levels]
        order = sorted(range(len(levels)), key=lambda s: -perf[s])
        places = [0] * len(levels)
        for place, seat in enumerate(order, 1):
            places[seat] = place
        out.append((levels, places))
    return out


@pytest.mark.parametrize(("players", "games"), [(2, 600), (4, 200)])
def test_known_strengths_are_recovered_within_their_intervals(players: int,
                                                               games: int) -> None:
    standings = calibrate(drawn(seatings(LEVELS, players, games), random.Random(0)))
    assert standings["random"].rating == ANCHOR.rating
    for level in ("basic", "strong", "expert"):
        s = standings[level]
        assert abs(s.rating - TRUE[level]) <= 2 * s.deviation, (level, s)
        assert s.deviation < 60 and s.volatility == PRIOR.volatility
    assert standings["basic"].rating < min(standings["strong"].rating,
                                           standings["expert"].rating)


def test_the_deviations_match_the_spread_from_one_calibration_to_the_next() -> None:
    # Four seats: weighing a game's six pairs as six games would make the deviations too
    # narrow by a quarter; as one game, too wide by as much.
    seated = seatings(LEVELS, 4, 120)
    fits = [calibrate(drawn(seated, random.Random(i))) for i in range(150)]
    for level in ("basic", "strong", "expert"):
        spread = statistics.stdev(f[level].rating for f in fits)
        deviation = statistics.mean(f[level].deviation for f in fits)
        assert 0.85 < spread / deviation < 1.15, (level, spread, deviation)
        covered = sum(abs(f[level].rating - TRUE[level]) <= 2 * f[level].deviation
                      for f in fits)
        assert covered >= 0.9 * len(fits)


def test_more_games_give_smaller_deviations() -> None:
    games = drawn(seatings(LEVELS, 2, 1200), random.Random(7))
    deviations = [calibrate(games[:n])["strong"].deviation for n in (12, 60, 300, 1200)]
    assert deviations == sorted(deviations, reverse=True)
    assert deviations[-1] < 0.6 * deviations[-2] < 0.6 * 0.6 * deviations[-3]


def test_the_order_of_the_games_changes_nothing() -> None:
    games = drawn(seatings(LEVELS, 4, 120), random.Random(3))
    shuffled = games[:]
    random.Random(0).shuffle(shuffled)
    assert calibrate(shuffled) == calibrate(games)
    assert calibrate(games[::-1]) == calibrate(games)


def test_random_is_the_anchor_whatever_the_results() -> None:
    # random wins every game: the other level goes below it, random stays where it is.
    games = [(["basic", "random"], [2, 1]), (["random", "basic"], [1, 2])] * 20
    standings = calibrate(games)
    anchor = standings["random"]
    assert (anchor.rating, anchor.deviation) == (ANCHOR.rating, ANCHOR.deviation)
    assert (anchor.games, anchor.wins) == (40, 40)
    assert standings["basic"].rating < ANCHOR.rating - 200
    assert (standings["basic"].games, standings["basic"].wins) == (40, 0)


def test_a_level_that_always_wins_is_high_but_finite_and_mixed_results_land_between() -> None:
    always = calibrate([(["basic", "random"], [1, 2])] * 40)["basic"]
    assert ANCHOR.rating + 400 < always.rating < ANCHOR.rating + 1500
    assert always.deviation < PRIOR.deviation
    even = [(["basic", "random"], [1, 2] if i % 2 else [2, 1]) for i in range(60)]
    assert abs(calibrate(even)["basic"].rating - ANCHOR.rating) < 30
    ties = [(["basic", "random"], [1, 1])] * 60
    assert abs(calibrate(ties)["basic"].rating - ANCHOR.rating) < 30


def test_a_game_of_k_seats_weighs_as_k_minus_one_pairs() -> None:
    # basic first of four against three randoms, 20 times: 20 × 3 pairs of weight 1/2,
    # exactly 30 games of two seats won.
    four = calibrate([(["random", "basic", "random", "random"], [2, 1, 3, 4])] * 20)
    two = calibrate([(["basic", "random"], [1, 2])] * 30)
    assert (four["basic"].rating, four["basic"].deviation) == (
        two["basic"].rating, two["basic"].deviation)
    assert four["basic"].games == 20


def test_a_level_that_met_only_itself_keeps_the_prior() -> None:
    alone = calibrate([(["basic", "basic"], [1, 2])] * 5)
    assert alone["basic"] == PRIOR
    assert alone["random"] == ANCHOR


def test_the_ratings_of_a_game_type_the_deployments_first() -> None:
    ours = Standing(rating=1234.0, deviation=30.0)
    ratings = bot_ratings("trash", {"basic": ours})
    assert ratings["basic"].rating == 1234.0
    assert ratings["random"].rating == BOT_RATINGS["random"].rating
    for game_type, levels in shipped().items():  # the shipped calibration, when none
        for level, standing in levels.items():
            assert bot_ratings(game_type)[level].rating == standing.rating
    assert bot_ratings("no-such-game") == BOT_RATINGS


@pytest.mark.parametrize(("players", "first"), [(2, ["random", "basic"]),
                                                (4, ["random", "basic", "strong", "expert"]),
                                                (5, ["random", "basic", "strong", "expert",
                                                     "random"])])
def test_seatings_rotate_and_bring_every_level(players: int, first: list[str]) -> None:
    levels = ["random", "basic", "strong", "expert"]
    tables = seatings(levels, players, 12)
    assert tables[0] == first
    assert all(len(t) == players for t in tables)
    assert {t[0] for t in tables} == set(levels)  # no level keeps the first seat
    if players >= len(levels):
        assert all(set(t) == set(levels) for t in tables)
    else:  # each pair of levels meets
        assert {frozenset(t) for t in tables} == {
            frozenset((a, b)) for i, a in enumerate(levels) for b in levels[i + 1:]}
