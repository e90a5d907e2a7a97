"""Glicko-2 against the worked example of Glickman's paper, the pairwise results, and the
standings one game gives its players."""

from __future__ import annotations

import pytest

from domain.ratings.bots import BOT_RATINGS
from domain.ratings.glicko2 import Rating, Result, pairwise, rate
from domain.ratings.outcome import new_standings
from domain.ratings.standing import Standing


def test_the_papers_worked_example() -> None:
    # A player rated 1500 (RD 200, σ 0.06), τ = 0.5, beats a 1400 (RD 30) and loses to a
    # 1550 (RD 100) and a 1700 (RD 300).
    player = Rating(1500, 200, 0.06)
    after = rate(player, [Result(Rating(1400, 30), 1), Result(Rating(1550, 100), 0),
                          Result(Rating(1700, 300), 0)], tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_player_who_does_not_play_only_grows_less_certain() -> None:
    after = rate(Rating(1500, 200, 0.06), [])
    assert after.rating == 1500
    assert after.deviation == pytest.approx(200.2714, abs=0.001)  # √(200² + (0.06·173.7178)²)
    assert after.volatility == 0.06


def test_winning_against_an_equal_raises_and_losing_lowers() -> None:
    equal = Rating()
    assert rate(Rating(), [Result(equal, 1)]).rating > 1500
    assert rate(Rating(), [Result(equal, 0)]).rating < 1500
    assert rate(Rating(), [Result(equal, 0.5)]).rating == pytest.approx(1500)


def test_a_large_surprise_takes_the_other_branch_of_the_volatility_search() -> None:
    # Δ² > φ² + v: a confident player loses to a far weaker one; the volatility rises.
    after = rate(Rating(2200, 50, 0.06), [Result(Rating(1000, 30), 0)] * 5)
    assert after.volatility > 0.06
    assert after.rating < 2200


def test_pairwise_results_from_competition_places() -> None:
    # Places 1, 1, 3: the two winners draw, each beats the third.
    assert pairwise([1, 1, 3]) == [[(1, 0.5), (2, 1.0)], [(0, 0.5), (2, 1.0)],
                                   [(0, 0.0), (1, 0.0)]]


def test_a_game_rates_players_against_players_and_bots_but_not_anonymous_seats() -> None:
    newcomer = Standing()
    # Ann first, a basic bot second, Bob third, an anonymous seat last.
    after = new_standings([1, 2, 3, 4], ["ann", "bot:basic", "bob", None],
                          {"ann": newcomer, "bob": newcomer})
    assert sorted(after) == ["ann", "bob"]
    expected_ann = rate(newcomer.glicko, [Result(BOT_RATINGS["basic"], 1),
                                          Result(newcomer.glicko, 1)])
    assert after["ann"].rating == pytest.approx(expected_ann.rating)
    assert (after["ann"].games, after["ann"].wins) == (1, 1)
    expected_bob = rate(newcomer.glicko, [Result(newcomer.glicko, 0),
                                          Result(BOT_RATINGS["basic"], 0)])
    assert after["bob"].rating == pytest.approx(expected_bob.rating)
    assert (after["bob"].games, after["bob"].wins) == (1, 0)
    # Alone with anonymous seats: counted as played, the rating unchanged.
    alone = new_standings([2, 1], ["ann", None], {"ann": newcomer})
    assert alone["ann"].glicko == newcomer.glicko and alone["ann"].games == 1
