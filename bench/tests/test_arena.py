"""The arena's command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.arena.cli import main as arena
from bench.arena.combine import main as combine
from bench.stats import mean_ci


def test_the_arena_refuses_an_unknown_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert arena(["--game", "ochs-und-esel", "--seats", "basic,master,random", "--games", "1",
                  "--quiet"]) == 2
    assert "unknown level(s): master" in capsys.readouterr().out


def test_two_runs_of_one_table_read_as_one_sample(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    runs = []
    for seed in (0, 1):
        runs.append(str(tmp_path / f"seed{seed}.json"))
        assert arena(["--game", "trash", "--seats", "basic,random", "--games", "6", "--seed",
                      str(seed), "--quiet", "--json", runs[-1]]) == 0
    capsys.readouterr()
    both = tmp_path / "both.json"
    assert combine([*runs, "--json", str(both)]) == 0
    out = capsys.readouterr().out
    assert "12 games" in out and "p99 ms" not in out  # the move times are not in the files
    doc = json.loads(both.read_text())
    assert doc["seeds"] == [0, 1] and doc["games"] == 12 and len(doc["records"]) == 12
    firsts = {lv["level"]: lv["win_rate"] * lv["samples"] for lv in doc["levels"]}
    alone = [json.loads(Path(r).read_text()) for r in runs]
    for level, wins in firsts.items():
        assert wins == pytest.approx(sum(lv["win_rate"] * lv["samples"] for a in alone
                                         for lv in a["levels"] if lv["level"] == level))
    # The mean place and its interval are over the seats each level held in both runs.
    for lv in doc["levels"]:
        places = [float(r["places"][s]) for r in doc["records"]
                  for s, level in enumerate(r["levels"]) if level == lv["level"]]
        mean, half = mean_ci(places)
        assert len(places) == 12 and half > 0.0
        assert (lv["mean_place"], lv["place_ci"]) == pytest.approx((mean, half))
        assert f"{mean:.2f} ± {half:.2f}" in out
    # One seed twice is the same games twice; another table is another sample.
    assert combine([runs[0], runs[0]]) == 2
    other = tmp_path / "other.json"
    assert arena(["--game", "trash", "--seats", "random,basic", "--games", "2", "--seed", "2",
                  "--quiet", "--json", str(other)]) == 0
    assert combine([runs[0], str(other)]) == 2
