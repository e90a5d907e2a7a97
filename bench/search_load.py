"""The searching bots under load: the time a move takes, against its budget, when 1, 8 or 32
games are searched at once (as that many workers would), and what the search still gets
done (rollouts per move).

    python -m bench.search_load [--game ochs-und-esel] [--players 3] [--budget-ms 750]
        [--parallel 1,8,32] [--seconds 30] [--json out.json]

For each level of parallelism, that many processes each play games whose every seat is the
searching bot with a wall-clock budget (the deployment's way), for `--seconds`; each move's
wall time and rollouts are recorded. A search stops at its deadline whatever the machine's
load (it looks at the clock between rollouts, and every 64 moves inside one), so the time
per move must stay at the budget; with more games than cores each search simply gets fewer
rollouts done. Reported: p50, p99 and max of the time per move, its excess over the budget,
the CPU time the move's process got (on a machine shared with other work a search may wait
for a core: its wall time then includes the wait, its CPU time does not), and the rollouts
per move.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from bench.stats import percentile
from domain.bots.levels import kit_for
from domain.bots.observation import observe
from domain.bots.search import search
from domain.bots.search_terms import Budget, SearchStats
from domain.game import Game
from domain.play import begin, play_on
from domain.registry import installed
from domain.rng import rng_for


def _searcher(game_id: str, players: int, budget_s: float, until: float, number: int,
              out: Any) -> None:
    """Play all-searching games until `until`; put (wall seconds, CPU seconds, rollouts)
    of each move."""
    game: Game[Any, Any] = installed().game(game_id)
    kit = kit_for(game)
    budget = Budget(seconds=budget_s)
    moves: list[tuple[float, float, int]] = []
    played = 0

    def choose(state: Any, seat: int, legal: Sequence[Any]) -> Any:
        if len(legal) == 1:
            return legal[0]
        obs = observe(game, state, seat, legal)
        stats = SearchStats()
        t0, c0 = time.perf_counter(), time.process_time()
        action = search(game, obs.view, seat, obs.legal_actions, rng, kit, budget, stats)
        moves.append((time.perf_counter() - t0, time.process_time() - c0, stats.playouts))
        return action if action is not None else legal[0]

    while time.time() < until:
        rng = rng_for(f"search-load:{number}", played)
        state, _ = begin(game, None, players, rng)
        play_on(game, state, choose, rng, stop=lambda _s: time.time() >= until)
        played += 1
    out.put(moves)


def run_level(game_id: str, players: int, budget_s: float, parallel: int,
              seconds: float) -> dict[str, Any]:
    """`parallel` searching processes for `seconds`: the moves' figures."""
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    until = time.time() + seconds
    procs = [ctx.Process(target=_searcher, args=(game_id, players, budget_s, until, n, out))
             for n in range(parallel)]
    for p in procs:
        p.start()
    moves: list[tuple[float, float, int]] = []
    for _ in procs:
        moves += out.get(timeout=seconds + 60 + 10 * budget_s)
    for p in procs:
        p.join(timeout=30)
    ms = [s * 1000.0 for s, _, _ in moves]
    cpu_ms = [c * 1000.0 for _, c, _ in moves]
    rollouts = [float(r) for _, _, r in moves]
    budget_ms = budget_s * 1000.0
    # The moves that searched until the deadline (the others stopped early, their choice
    # settled): what the budget buys when it is all used.
    full = [float(r) for s, _, r in moves if s >= 0.95 * budget_s]
    return {"parallel": parallel, "moves": len(moves), "budget_ms": budget_ms,
            "p50_ms": percentile(ms, 50), "p99_ms": percentile(ms, 99),
            "max_ms": max(ms) if ms else None,
            "p99_over_budget_ms": percentile(ms, 99) - budget_ms if ms else None,
            "cpu_p50_ms": percentile(cpu_ms, 50), "cpu_p99_ms": percentile(cpu_ms, 99),
            "rollouts_p50": percentile(rollouts, 50), "rollouts_p1": percentile(rollouts, 1),
            "full_moves": len(full), "full_rollouts_p50": percentile(full, 50) if full else None}


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.search_load", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="ochs-und-esel")
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--budget-ms", type=float, default=750.0)
    p.add_argument("--parallel", default="1,8,32")
    p.add_argument("--seconds", type=float, default=30.0, help="per level of parallelism")
    p.add_argument("--json", dest="json_file", default=None)
    args = p.parse_args(argv)
    rows = []
    for n in (int(x) for x in args.parallel.split(",")):
        print(f"{n} games searched at once, {args.seconds:g} s ...", file=sys.stderr,
              flush=True)
        row = run_level(args.game, args.players, args.budget_ms / 1000.0, n, args.seconds)
        rows.append(row)
        print(f"  {row['moves']} moves: p50 {row['p50_ms']:.0f} ms, p99 {row['p99_ms']:.0f} "
              f"ms, max {row['max_ms']:.0f} ms (budget {row['budget_ms']:.0f} ms); CPU p50 "
              f"{row['cpu_p50_ms']:.0f} ms, p99 {row['cpu_p99_ms']:.0f} ms; rollouts "
              f"per move p50 {row['rollouts_p50']:.0f}, p1 {row['rollouts_p1']:.0f}; "
              f"{row['full_moves']} moves used the whole budget: rollouts p50 "
              f"{row['full_rollouts_p50'] or 0:.0f}",
              flush=True)
    doc = {"command": "python -m bench.search_load " + " ".join(
        sys.argv[1:] if argv is None else argv), "game": args.game, "players": args.players,
        "cores": len(os.sched_getaffinity(0)), "load_average": os.getloadavg(), "rows": rows}
    if args.json_file:
        with open(args.json_file, "w") as f:
            json.dump(doc, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
