"""The `peer` section's table (or its one line when it was skipped). `bench.report` lists
it among the sections' tables; the cells are formatted here as `bench.report` formats its
own (this module may not import that one back)."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from bench.peer.section import (
    DONKEYPOST,
    FLATFILE,
    GRANIAN,
    GRANIAN_PUSHED,
    MEMORY,
    OURS,
    PUSH_SHAPES,
    PUSHED,
)

TITLE = "7. Peer: donkeypost vs boardgame.io"
# Column names of donkeypost's systems (the web server, the client's shape).
SHORT = {DONKEYPOST: "gunicorn GET + POST", PUSHED: "gunicorn push",
         GRANIAN: "granian GET + POST", GRANIAN_PUSHED: "granian push"}


def peer_table(sec: dict[str, Any]) -> Table:
    if "skipped" in sec:
        line = Table.grid()
        line.add_row(f"{TITLE}: skipped ({sec['skipped']})")
        return line
    v = sec["versions"]
    present = {k for r in sec["rows"] for k in r["systems"]}
    ours = [k for k in OURS if k in present] or [DONKEYPOST, PUSHED]
    # Each of ours against boardgame.io in memory; the push shapes also against FlatFile.
    ratio_keys = [(k, MEMORY) for k in ours] + [(k, FLATFILE) for k in ours
                                                 if k in PUSH_SHAPES]
    t = _table(f"{TITLE} {v.get('boardgame.io')} (node {v.get('node')}): each stack pinned to "
               f"CPU {sec['cpus']['servers']}, the systems in {_f(sec['slice_s'])} s turns; "
               "per system: moves/s, a move's latency ms p50/p99, the stack's CPU ms per move",
               ["clients", *(SHORT[k] for k in ours),
                "boardgame.io in memory", "boardgame.io FlatFile",
                *(f"{SHORT[k]} / {'memory' if b == MEMORY else 'FlatFile'}: moves/s, CPU"
                  for k, b in ratio_keys), "errors"])
    for r in sec["rows"]:
        cells = [str(r["clients"])]
        for key in (*ours, MEMORY, FLATFILE):
            s = r["systems"].get(key)
            cells.append("–" if s is None else
                         f"{_f(s['moves_per_s'], 0)}, {_lat(s['latency_ms'], ('p50', 'p99'))},"
                         f" {_f(s['server_cpu_ms_per_move'], 2)}")
        for key, base in ratio_keys:
            q = r["ratios"].get(base if key == DONKEYPOST else f"{key}/{base}")
            cells.append("–" if q is None else
                         f"{_f(q['moves_per_s'], 2)}, {_f(q['cpu_per_move'], 2)}")
        cells.append(str(sum(sum(s["run_errors"].values()) for s in r["systems"].values())))
        t.add_row(*cells)
    systems = [s for r in sec["rows"] for s in r["systems"].values()]
    if systems:
        others = [s["others_cores"] for s in systems]
        waiting = [s.get("server_waiting_cores", 0.0) for s in systems]
        t.caption = (f"While measured, the machine's other jobs used {min(others):.2f}–"
                     f"{max(others):.2f} cores and the stacks waited for their CPU "
                     f"{min(waiting):.2f}–{max(waiting):.2f} cores' worth: read the ratios.")
        aof = [s["aof_bytes_per_move"] for r in sec["rows"]
               for k, s in r["systems"].items() if k in OURS
               and s.get("aof_bytes_per_move")]
        if aof:
            t.caption += (f" donkeypost's AOF grew {min(aof):,.0f}–{max(aof):,.0f} bytes per "
                          "move; "
                          f"Redis forked {sec.get('redis_forks_during_the_runs', '?')} "
                          "times during the runs (a background save or rewrite each).")
    return t


def _f(value: Any, digits: int = 1) -> str:
    if value is None:
        return "–"
    return f"{value:,.{digits}f}" if isinstance(value, float) else str(value)


def _lat(lat: dict[str, Any] | None, keys: tuple[str, ...]) -> str:
    return " / ".join(_f((lat or {}).get(k)) for k in keys) if lat else "–"


def _table(title: str, columns: list[str]) -> Table:
    table = Table(title=title, title_justify="left")
    for n, col in enumerate(columns):
        table.add_column(col, justify="left" if n == 0 else "right")
    return table
