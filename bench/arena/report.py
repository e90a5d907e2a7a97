"""What an arena run shows: two rich tables (per level, per pair of levels) and the JSON
document with the statistics and every game's result."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from rich.table import Table

from bench.arena.games import GameRecord
from bench.arena.stats import level_stats, pair_stats

WIN_RATE = "share of first places; a first place shared by k players counts 1/k"


def _fmt(x: float, ci: float, digits: int = 2) -> str:
    if math.isnan(ci):
        return f"{x:.{digits}f}"
    return f"{x:.{digits}f} ± {ci:.{digits}f}"


def tables(records: Sequence[GameRecord], title: str) -> tuple[Table, Table]:
    """The two tables: per level, and per pair of levels."""
    score_name = records[0].score_name if records else "score"
    better = "lower" if records and records[0].lower_is_better else "higher"
    levels = Table(title=title, caption="win rate: share of first places, a first place "
                   f"shared by k players counting 1/k; ± is the 95% CI; {better} "
                   f"{score_name} is better")
    timed = any(r.move_times for r in records)  # runs read back from JSON have no times
    for col in ("level", "seat-games", "win rate", f"mean {score_name}", "mean place",
                *(("moves", "mean ms", "p50 ms", "p99 ms", "max ms") if timed else ())):
        levels.add_column(col, justify="left" if col == "level" else "right")
    for st in level_stats(records):
        times = (str(st.moves), f"{st.mean_move_ms:.1f}", f"{st.p50_move_ms:.1f}",
                 f"{st.p99_move_ms:.1f}", f"{st.max_move_ms:.1f}") if timed else ()
        levels.add_row(st.level, str(st.samples), _fmt(st.win_rate, st.win_ci, 3),
                       _fmt(st.mean_score, st.score_ci), _fmt(st.mean_place, st.place_ci),
                       *times)
    pairs = Table(title="head to head (same table)")
    for col in ("first", "second", "games", f"{score_name} first − second",
                "first placed better"):
        pairs.add_column(col, justify="left" if col in ("first", "second") else "right")
    for p in pair_stats(records):
        pairs.add_row(p.first, p.second, str(p.games), _fmt(p.mean_diff, p.diff_ci),
                      f"{p.first_better:.3f}")
    return levels, pairs


def document(records: Sequence[GameRecord], run: dict[str, Any]) -> dict[str, Any]:
    """The run's description (`run`: command, game, seats, sizes...) with the statistics
    and every game's result (without the move times)."""
    return {
        **run,
        "win_rate": WIN_RATE,
        "levels": [asdict(s) for s in level_stats(records)],
        "pairs": [asdict(p) for p in pair_stats(records)],
        "records": [{k: v for k, v in asdict(r).items() if k != "move_times"}
                    for r in records],
    }
