"""The bots' calibration: levels rated from games among themselves, `random` the anchor;
where a game type's bot ratings come from."""

from __future__ import annotations

import pytest

from domain.ratings.bots import BOT_RATINGS
from domain.ratings.calibration import ANCHOR, bot_ratings, calibrate, shipped
from domain.ratings.standing import Standing
from donkeypost.calibrate import seatings


def test_a_level_that_always_wins_climbs_and_random_stays_the_anchor() -> None:
    games = [(["basic", "random"], [1, 2]), (["random", "basic"], [2, 1])] * 20
    standings = calibrate(games)
    assert standings["random"] == ANCHOR
    assert standings["basic"].rating > 1400 and standings["basic"].games == 40
    assert standings["basic"].wins == 40
    assert standings["basic"].deviation < calibrate(games[:4])["basic"].deviation < 350


def test_levels_are_ordered_by_their_results_and_a_level_learns_nothing_from_itself() -> None:
    # strong beats basic beats random, three of four times; basic's seats against each
    # other say nothing.
    games = []
    for i in range(120):
        upset = i % 4 == 3
        games.append((["strong", "basic", "random"], [2, 1, 3] if upset else [1, 2, 3]))
        games.append((["basic", "random", "basic"], [1, 2, 1]))
    standings = calibrate(games)
    assert standings["strong"].rating > standings["basic"].rating > standings["random"].rating
    alone = calibrate([(["basic", "basic"], [1, 2])] * 5)
    assert alone["basic"] == Standing()  # never met another level


def test_a_mixed_result_lands_between() -> None:
    games = [(["basic", "random"], [1, 2] if i % 2 else [2, 1]) for i in range(60)]
    assert abs(calibrate(games)["basic"].rating - ANCHOR.rating) < 60


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
