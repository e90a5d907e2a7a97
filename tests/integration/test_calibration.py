"""`donkeypost calibrate` on a real Redis: the levels' ratings are kept per game type, the
leaderboard shows the bots at them, and a rated game against a bot counts with them."""

from __future__ import annotations

import json

from domain.ratings.glicko2 import Rating, Result, rate
from donkeypost.cli import main
from tests.support.workers import burst


def test_a_calibration_is_kept_shown_and_used(service, components, monkeypatch, tmp_path,
                                              redis_url, capsys):
    monkeypatch.setenv("REDIS_URL", redis_url)
    out = tmp_path / "calibration.json"
    assert main(["calibrate", "--game", "trash", "--games", "12", "--levels",
                 "random,basic", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "12 games of 2 seats" in printed
    written = json.loads(out.read_text())
    basic = written["ratings"]["trash"]["basic"]
    assert written["ratings"]["trash"]["random"]["rating"] == 1000.0
    assert basic["games"] == 12 and basic["rating"] > 1000.0
    # The games' results are in the file, and fit again to the same ratings without play.
    results = written["games"]["trash"]
    assert len(results) == 12 and {tuple(sorted(lv)) for lv, _ in results} == {
        ("basic", "random")}
    assert sum(places[levels.index("basic")] == 1 for levels, places in results) == \
        basic["wins"]
    again = tmp_path / "again.json"
    assert main(["calibrate", "--refit", str(out), "--dry-run", "--json", str(again)]) == 0
    refitted = json.loads(again.read_text())
    assert refitted["ratings"] == written["ratings"]
    assert refitted["games"] == written["games"]
    assert refitted["commands"] == written["commands"]
    assert "--games 12" in written["commands"]["trash"]
    kept = service.deps.ratings.bot_standings("trash")["basic"]
    assert round(kept.rating, 1) == basic["rating"] and kept.games == 12
    board, _ = service.leaderboard("trash", 0, 10)
    assert [(e["kind"], e["level"], e["rating"]) for e in board] == [
        ("bot", "basic", kept.rating), ("bot", "random", 1000.0)]
    # Another game type is untouched.
    assert all(e["kind"] != "bot" for e in service.leaderboard("canyon-donkeys", 0, 10)[0])

    # A new player who beats the calibrated basic bot is rated against that rating.
    ann, _ = service.register_player("Ann")
    table = service.create("trash", None, [{"kind": "human", "me": True},
                                           {"kind": "bot", "level": "basic"}],
                           deadline_s=None, by=ann)
    assert service.resign(table.id, 0).status == "finished"  # Ann loses to the bot
    burst(components, queues=["ratings"])
    board, _ = service.leaderboard("trash", 0, 10)
    ann_entry = next(e for e in board if e["kind"] == "player")
    expected = rate(Rating(), [Result(kept.glicko, 0.0)])
    assert ann_entry["rating"] == expected.rating


def test_a_dry_run_keeps_nothing(service, monkeypatch, redis_url, capsys):
    monkeypatch.setenv("REDIS_URL", redis_url)
    assert main(["calibrate", "--game", "trash", "--games", "4", "--levels", "random,basic",
                 "--dry-run"]) == 0
    assert "nothing kept" in capsys.readouterr().out
    assert service.leaderboard("trash", 0, 10) == ([], 0)


def test_a_refit_of_a_file_without_games_is_refused(monkeypatch, redis_url, tmp_path,
                                                     capsys):
    monkeypatch.setenv("REDIS_URL", redis_url)
    bad = tmp_path / "old.json"
    bad.write_text(json.dumps({"ratings": {"trash": {}}}))
    assert main(["calibrate", "--refit", str(bad), "--dry-run"]) == 2
    assert "--refit" in capsys.readouterr().out
