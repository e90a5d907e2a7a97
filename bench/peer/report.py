"""The `peer` section's table (or its one line when it was skipped)."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from bench.peer.section import DONKEYPOST, FLATFILE, MEMORY
from bench.report import _f, _lat, _table

TITLE = "7. Peer: donkeypost vs boardgame.io"


def peer_table(sec: dict[str, Any]) -> Table:
    if "skipped" in sec:
        line = Table.grid()
        line.add_row(f"{TITLE}: skipped ({sec['skipped']})")
        return line
    v = sec["versions"]
    t = _table(f"{TITLE} {v.get('boardgame.io')} (node {v.get('node')}), every stack pinned "
               f"to CPU {sec['cpus']['servers']}, in {_f(sec['slice_s'])} s turns; "
               "ms = a move's latency, CPU = the stack's per move",
               ["clients", "donkeypost moves/s", "ms p50/p99", "CPU ms",
                "bgio memory moves/s", "ms p50/p99", "CPU ms",
                "bgio FlatFile moves/s", "ms p50/p99", "CPU ms",
                "donkeypost / memory: moves/s, CPU", "donkeypost / FlatFile: moves/s, CPU",
                "errors"])
    for r in sec["rows"]:
        cells = [str(r["clients"])]
        for key in (DONKEYPOST, MEMORY, FLATFILE):
            s = r["systems"][key]
            cells += [_f(s["moves_per_s"], 0), _lat(s["latency_ms"], ("p50", "p99")),
                      _f(s["server_cpu_ms_per_move"], 2)]
        for key in (MEMORY, FLATFILE):
            q = r["ratios"][key]
            cells.append(f"{_f(q['moves_per_s'], 2)}, {_f(q['cpu_per_move'], 2)}")
        cells.append(str(sum(sum(s["errors"].values()) for s in r["systems"].values())))
        t.add_row(*cells)
    return t
