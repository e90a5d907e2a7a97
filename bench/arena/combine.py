"""Several arena runs of one table read as one: the same tables over all their games.

    python -m bench.arena.combine run-seed0.json run-seed1.json [--json all.json]

Each file is what `python -m bench.arena ... --json FILE` wrote. The runs must be of the same
game, seats, options and budgets, with different seeds (different deals): their games are
then one larger sample of the same table. The move times are not in the files: the
combined tables show the win rates, scores and places, and each run's own table keeps its
times.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from bench import jsonfile
from bench.arena.games import GameRecord
from bench.arena.report import document, tables

SAME = ("game", "seats", "options", "budget_ms", "iterations", "expert_budget_ms",
        "expert_iterations")


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.arena.combine", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("runs", nargs="+")
    p.add_argument("--json", dest="json_file", default=None)
    args = p.parse_args(argv)
    docs = [json.loads(Path(path).read_text()) for path in args.runs]
    first = docs[0]
    for path, doc in zip(args.runs, docs, strict=True):
        differs = [k for k in SAME if doc.get(k) != first.get(k)]
        if differs:
            print(f"{path} is another table ({', '.join(differs)} differ)", file=sys.stderr)
            return 2
    seeds = [doc["seed"] for doc in docs]
    if len(set(seeds)) != len(seeds):
        print("two runs have one seed: the same games twice", file=sys.stderr)
        return 2
    records = [GameRecord(**r) for doc in docs for r in doc["records"]]
    from rich.console import Console

    console = Console(width=150)
    title = (f"{first['game']}: {len(records)} games, seats {','.join(first['seats'])}, "
             f"seeds {','.join(map(str, seeds))}")
    for table in tables(records, title):
        console.print(table)
    if args.json_file:
        jsonfile.write(args.json_file, document(records, {
            "commands": [doc["command"] for doc in docs],
            **{k: first.get(k) for k in SAME}, "seeds": seeds, "games": len(records)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
