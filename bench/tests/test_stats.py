"""The statistics the bench and the arena print: percentiles, Student-t intervals, and the
arena's per-level and head-to-head figures."""

from __future__ import annotations

import math

import pytest

from bench.arena.games import GameRecord, seating
from bench.arena.stats import level_stats, pair_stats, win_share
from bench.stats import mean_ci, percentile, t_quantile


def test_percentile_is_the_nearest_rank() -> None:
    values = [5.0, 1.0, 4.0, 2.0, 3.0]
    assert [percentile(values, q) for q in (0, 20, 50, 99, 100)] == [1.0, 1.0, 3.0, 5.0, 5.0]
    assert math.isnan(percentile([], 50))


@pytest.mark.parametrize("df, quantile", [(1, 12.706), (9, 2.262), (30, 2.042), (1000, 1.962)])
def test_t_quantiles_match_the_tables(df: int, quantile: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(quantile, abs=1e-3)
    assert t_quantile(0.025, df) == pytest.approx(-quantile, abs=1e-3)


def test_mean_and_its_interval() -> None:
    mean, half = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5 and half == pytest.approx(3.182 * math.sqrt(5 / 3 / 4), abs=1e-3)
    assert mean_ci([7.0])[0] == 7.0 and math.isnan(mean_ci([7.0])[1])


def test_a_shared_first_place_is_shared() -> None:
    assert [win_share([1, 1, 3], s) for s in range(3)] == [0.5, 0.5, 0.0]


def test_the_seating_rotates_one_seat_per_game() -> None:
    assert [seating(["a", "b", "c"], n) for n in range(3)] == [
        ["a", "b", "c"], ["c", "a", "b"], ["b", "c", "a"]]


def _record(number: int, levels: list[str], places: list[int],
            scores: list[float]) -> GameRecord:
    return GameRecord(number=number, levels=levels, places=places, scores=scores,
                      score_name="penalty", lower_is_better=True, moves=10, seconds=0.1,
                      move_times=[[0.001, 0.003]] * len(levels))


def test_levels_and_pairs_over_the_same_tables() -> None:
    records = [_record(0, ["strong", "basic", "random"], [1, 2, 3], [0.0, 10.0, 40.0]),
               _record(1, ["random", "strong", "basic"], [3, 1, 1], [50.0, 5.0, 5.0])]
    stats = {s.level: s for s in level_stats(records)}
    assert list(stats) == ["strong", "basic", "random"]
    assert stats["strong"].win_rate == 0.75 and stats["basic"].win_rate == 0.25  # 1, then 1/2
    assert stats["random"].mean_score == 45.0 and stats["basic"].mean_place == 1.5
    # places 2 then 1: sd 0.707 over 2 games, t(0.975, 1 df) = 12.706
    assert stats["basic"].place_ci == pytest.approx(12.706 * 0.5, abs=1e-2)
    assert stats["random"].place_ci == 0.0  # third both times
    assert stats["strong"].moves == 4 and stats["strong"].p50_move_ms == pytest.approx(1.0)
    pairs = {(p.first, p.second): p for p in pair_stats(records)}
    assert pairs["strong", "basic"].mean_diff == -5.0
    assert pairs["strong", "basic"].first_better == 0.75  # better once, tied once
    assert pairs["basic", "random"].games == 2
