"""The arena's figures: per level over every seat it held, and per pair of levels over
the games where both sat at the same table."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from bench.arena.games import GameRecord
from bench.stats import mean_ci, percentile


@dataclass
class LevelStats:
    level: str
    samples: int  # seat-games
    win_rate: float
    win_ci: float
    mean_score: float
    score_ci: float
    mean_place: float
    place_ci: float
    moves: int
    mean_move_ms: float
    p50_move_ms: float
    p99_move_ms: float
    max_move_ms: float


@dataclass
class PairStats:
    first: str
    second: str
    games: int
    mean_diff: float  # first's score minus second's, per game
    diff_ci: float
    first_better: float  # share of games where first placed better (ties count 1/2)


def win_share(places: Sequence[int], seat: int) -> float:
    """1/k for a first place shared by k players, 0 otherwise."""
    if places[seat] != 1:
        return 0.0
    return 1.0 / sum(p == 1 for p in places)


def level_stats(records: Sequence[GameRecord]) -> list[LevelStats]:
    """Per level, over every seat it held in every game; levels in order of appearance."""
    order: list[str] = []
    wins: dict[str, list[float]] = {}
    scores: dict[str, list[float]] = {}
    places: dict[str, list[float]] = {}
    times: dict[str, list[float]] = {}
    for rec in records:
        for seat, level in enumerate(rec.levels):
            if level not in wins:
                order.append(level)
                wins[level], scores[level], places[level], times[level] = [], [], [], []
            wins[level].append(win_share(rec.places, seat))
            scores[level].append(rec.scores[seat])
            places[level].append(float(rec.places[seat]))
            if rec.move_times:
                times[level].extend(rec.move_times[seat])
    out: list[LevelStats] = []
    for level in order:
        w, wci = mean_ci(wins[level])
        s, sci = mean_ci(scores[level])
        pl, plci = mean_ci(places[level])
        ms = [t * 1000.0 for t in times[level]]
        out.append(LevelStats(
            level=level, samples=len(wins[level]), win_rate=w, win_ci=wci, mean_score=s,
            score_ci=sci, mean_place=pl, place_ci=plci,
            moves=len(ms), mean_move_ms=math.fsum(ms) / len(ms) if ms else math.nan,
            p50_move_ms=percentile(ms, 50), p99_move_ms=percentile(ms, 99),
            max_move_ms=max(ms) if ms else math.nan))
    return out


def pair_stats(records: Sequence[GameRecord]) -> list[PairStats]:
    """For each pair of distinct levels, per game: the mean score of the first's seats
    minus the second's, and whether the first's best place beat the second's."""
    order: list[str] = []
    for rec in records:
        for level in rec.levels:
            if level not in order:
                order.append(level)
    out: list[PairStats] = []
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            diffs: list[float] = []
            better: list[float] = []
            for rec in records:
                sa = [s for s, lv in enumerate(rec.levels) if lv == a]
                sb = [s for s, lv in enumerate(rec.levels) if lv == b]
                if not sa or not sb:
                    continue
                diffs.append(sum(rec.scores[s] for s in sa) / len(sa)
                             - sum(rec.scores[s] for s in sb) / len(sb))
                pa = min(rec.places[s] for s in sa)
                pb = min(rec.places[s] for s in sb)
                better.append(1.0 if pa < pb else 0.5 if pa == pb else 0.0)
            if diffs:
                m, ci = mean_ci(diffs)
                out.append(PairStats(first=a, second=b, games=len(diffs), mean_diff=m,
                                     diff_ci=ci, first_better=math.fsum(better) / len(better)))
    return out
