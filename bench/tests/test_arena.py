"""The arena's command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.arena.cli import main as arena
from bench.arena.combine import main as combine
from bench.arena.search_budgets import look, regret, report
from bench.stats import mean_ci
from domain.bots.levels import kit_for
from domain.registry import installed


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


def test_the_search_budgets_look_searches_each_decision_at_every_budget() -> None:
    game = installed().game("canyon-donkeys")
    looks = look(game, players=3, games=1, seed=0, budgets=[10, 40], reference=80,
                 pool_scale=2)
    assert looks and all(x.legal >= 2 for x in looks)
    runs = {"10", "40", "10 again", "reference", "reference, wide pool"}
    for x in looks:
        assert set(x.choices) == runs and all(c is not None for c in x.choices.values())
        assert x.stats["10"].iterations <= 10 and x.stats["reference"].iterations <= 80
        assert 1.0 <= x.effective <= 48.0  # the canyon kit weighs a pool of 48 deals
        # The same choice as the reference's gives up nothing by the reference's figures.
        assert all(regret(x, run, "reference") == 0.0 for run in runs
                   if x.choices[run] == x.choices["reference"])
    assert any(regret(x, "10", "reference") != 0.0 for x in looks)
    assert len(report(looks, [10, 40], kit_for(game))) == 1 + 5 + 3 + 4  # header, runs, judges


def test_the_search_budgets_look_plays_the_other_seats_at_their_levels_in_a_trick_game(
        ) -> None:
    game = installed().game("ochs-und-esel")
    looks = look(game, players=4, games=1, seed=0, budgets=[10, 40], reference=80,
                 pool_scale=2, others=["basic", "random", "random"],
                 options={"rounds": 1, "ox_variant": False})
    assert looks and all(x.legal >= 2 and x.basic is not None for x in looks)
    runs = {"10", "40", "10 again", "reference", "reference again"}  # no weighing: no pool
    for x in looks:
        assert set(x.choices) == runs
        assert x.stats["10"].playouts <= 10 and x.stats["reference"].playouts <= 80
    lines = report(looks, [10, 40], kit_for(game))
    assert len(lines) == 1 + 5 + 3 + 4 and "effective deals" not in lines[0]
    # The rollouts keep the heuristic's move unless a better one is clear: at 10 rollouts
    # nearly always.
    assert sum(x.choices["10"] == x.basic for x in looks) >= 0.8 * len(looks)
    with pytest.raises(ValueError, match="4 players need 3"):
        look(game, players=4, games=1, seed=0, budgets=[10], reference=20, pool_scale=1,
             others=["basic"])
