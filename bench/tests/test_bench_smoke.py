"""`python -m bench --quick` runs every section end to end and writes a complete JSON
document. Timings are not asserted: they are the benchmark's figures, not test results."""

from __future__ import annotations

import json

from bench.cli import main
from bench.config import SECTIONS
from domain.bots import LEVELS


def test_quick_run_writes_every_section_and_every_target(tmp_path):
    out = tmp_path / "bench.json"
    assert main(["--quick", "--quiet", "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert set(doc["sections"]) == set(SECTIONS)
    assert doc["machine"]["nproc"] >= 1 and doc["machine"]["cpu_model"] is not None
    http = doc["sections"]["http"]
    assert [r["clients"] for r in http["rows"]] == [1, 4]
    for r in http["rows"]:
        # Every move was a legal action posted over real HTTP, and nothing failed.
        assert r["moves_per_s"] > 0 and r["ceiling_per_s"] > 0
        assert r["errors"] == {}
    state = doc["sections"]["state"]
    assert [r["size"] for r in state["rows"]] == [10, 200]
    assert state["rows"][-1]["events"] >= 200
    assert doc["sections"]["replay"]["seqs"] > 0
    engine = {r["game"]: r for r in doc["sections"]["engine"]["rows"]}
    assert all(r.get("games", 0) >= 1 for r in engine.values()), engine
    bots = doc["sections"]["bots"]["rows"]
    assert {(r["game"], r["level"]) for r in bots} == {
        (g, lv) for g in engine for lv in LEVELS}
    assert all("error" in r or r["moves"] >= 1 for r in bots)
    assert doc["sections"]["timers"]["moves"] == 10
    soak = doc["sections"]["soak"]
    assert soak["games_finished"] >= 1 and soak["samples"]
    aof = doc["sections"]["aof"]
    assert [r["moves"] for r in aof["rows"]] == [50, 50]
    assert all(r["aof_bytes_per_move"] > r["event_bytes_per_move"] > 0 for r in aof["rows"])
    peer = doc["sections"]["peer"]
    if "skipped" in peer:  # no node, or boardgame.io not installed: one line says so
        assert peer["skipped"] and "\n" not in peer["skipped"]
    else:
        assert [r["clients"] for r in peer["rows"]] == [1, 4]
        for r in peer["rows"]:
            for system in r["systems"].values():
                assert system["moves"] > 0 and system["errors"] == {}, system
                assert system["server_cpu_ms_per_move"] >= 0
        # CPU is read in clock ticks (10 ms): a stack that got little of a busy core in a
        # quick slice of 0.3 s may read none, but the run as a whole must have counted some.
        assert sum(system["server_cpu_ms_per_move"] for r in peer["rows"]
                   for system in r["systems"].values()) > 0
    inbox = doc["sections"]["inbox"]
    assert [r["games"] for r in inbox["rows"]] == [3, 30]
    assert all(r["page_entries"] == min(r["my_turn"], 10) for r in inbox["rows"])
    cluster = doc["sections"]["cluster"]
    assert [(r["clients"], r["store"]) for r in cluster["rows"]] == [(4, "one"), (4, "cluster")]
    for r in cluster["rows"]:  # moves were played on each store, and their costs counted
        assert r["moves_in_run"] > 0 and r["errors"] == {}, r
        assert r["redis_commands_per_move"] > 1 and r["redis_us_per_move"] > 0
    assert [(n["store"], n["received"]) for n in cluster["notices"]] == [
        ("one", 200), ("cluster", 200)]
    app = doc["sections"]["app"]  # both requests of a move timed, limits off and on
    assert [r["rate_limits"] for r in app["rows"]] == ["off", "on"]
    assert all(r["get_ms"]["median"] > 0 and r["post_ms"]["median"] > 0 for r in app["rows"])
    names = {t["target"] for t in doc["targets"]}
    assert {"moves/ceiling", "move p99 ms", "state load ratio", "replay max ms",
            "strong bot p99 ms", "deadline / move", "inbox page / view",
            "inbox page, many games / few"} <= names
