"""The post-game analysis's cost: CPU seconds per game, with the analysis job's budget.

    python -m bench.analysis_cpu [--game ochs-und-esel] [--players 3] [--games 5]
        [--options '{}'] [--json out.json]

Each game is played through the service on the in-memory store (so its log is the one a
server keeps), a `random` seat against `basic` ones, then analysed as the analysis job does
(`domain.bots.analysis.analyse` with `workers.jobs.ANALYSIS_BUDGET`). Reported per game:
the decisions, those with a choice, the rollouts per decision, the CPU seconds, and the
moments named.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from typing import Any

import msgspec

from bench.stats import percentile
from domain.bots import choose_action, observe
from domain.bots.analysis import analyse
from domain.registry import installed
from domain.service import GameService
from domain.store.memory import MemoryEventStore
from domain.table import to_act
from workers.jobs import ANALYSIS_BUDGET


def played_log(game_type: str, players: int, options: dict[str, Any] | None,
               seed: int) -> list[Any]:
    """The whole log of one game of a `random` seat and `basic` ones."""
    games = installed()
    service = GameService(MemoryEventStore(), games)
    table = service.create(game_type, options, [{"kind": "human"}] * players,
                           deadline_s=None)
    for i in range(players):
        service.join(table.id, f"p{i}")
    game = games.game(game_type)
    rng = random.Random(seed)
    while True:
        table, _ = service.load(table.id)
        if table.status != "active":
            break
        seat = min(to_act(table, game))
        action = choose_action("random" if seat == 0 else "basic", game,
                               observe(game, table.game, seat), rng)
        service.act(table.id, seat, msgspec.to_builtins(action))
    return service.store.read(table.id)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.analysis_cpu", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="ochs-und-esel")
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--games", type=int, default=5)
    p.add_argument("--options", default=None)
    p.add_argument("--json", dest="json_file", default=None)
    args = p.parse_args(argv)
    options = json.loads(args.options) if args.options else None
    game = installed().game(args.game)
    rows = []
    for n in range(args.games):
        events = played_log(args.game, args.players, options, seed=n)
        doc = analyse(game, events, ANALYSIS_BUDGET, random.Random(n))
        row = {k: doc[k] for k in ("decisions", "choices", "weighed", "complete",
                                   "rollouts_per_decision", "cpu_seconds")}
        row["moments"] = len(doc["moments"])
        rows.append(row)
        print(f"game {n}: {row['decisions']} decisions, {row['choices']} with a choice, "
              f"{row['rollouts_per_decision']} rollouts each: {row['cpu_seconds']:.1f} CPU s, "
              f"{row['moments']} moments named", flush=True)
    cpu = [r["cpu_seconds"] for r in rows]
    print(f"CPU per game: p50 {percentile(cpu, 50):.1f} s, max {max(cpu):.1f} s "
          f"(budget {ANALYSIS_BUDGET.cpu_seconds:g} s)")
    if args.json_file:
        with open(args.json_file, "w") as f:
            json.dump({"command": "python -m bench.analysis_cpu " + " ".join(
                sys.argv[1:] if argv is None else argv), "budget": ANALYSIS_BUDGET.__dict__,
                "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
