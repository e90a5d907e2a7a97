"""Two checkouts' application CPU per request of a move, measured in turns.

    python -m bench.app_ab ../other-checkout            # this checkout against that one
    python -m bench.app_ab ../other --rounds 20 --moves 300 --limits on

A change that saves a few percent of a request is lost in a shared machine's noise when
each side is measured in a run of its own. Here each side plays in a worker process started
in its checkout (`python -m bench.app_ab --worker`, so that it imports that checkout's
application), both on one embedded Redis, one block of moves at a time, in turns (the order
swapped each round): the machine's drift hits both alike, and the ratio of each round's
neighbouring blocks is the figure. The other checkout must hold this module and
`bench.app_cpu` (copy `bench/` into an older one).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

from rich.console import Console
from rich.table import Table

from bench import jsonfile
from bench.app_cpu import MODES, POOL, SEATS, Player, app_for
from bench.context import BenchContext
from bench.progress import Steps

HERE = Path(__file__).resolve().parent.parent


def _worker(redis_url: str, modes: list[str], moves: int, pool: int, seed: int) -> int:
    """Play a block of `moves` moves per mode for every `play` line read; answer each with
    one JSON line: mode -> [GET ms, POST ms] of CPU per request."""
    players = {mode: Player(app_for(redis_url, mode), pool, seed + n)
               for n, mode in enumerate(modes)}
    for player in players.values():
        player.fill()
        player.play(2 * SEATS * pool)  # every seat's token seen once (see bench.app_cpu)
    print("ready", flush=True)
    for line in sys.stdin:
        if line.strip() != "play":
            break
        print(json.dumps({mode: player.play(moves).per_move_ms()
                          for mode, player in players.items()}), flush=True)
    return 0


def _start(checkout: Path, redis_url: str, args: argparse.Namespace, seed: int
           ) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "bench.app_ab", "--worker", "--redis-url", redis_url,
         "--limits", ",".join(args.limits), "--moves", str(args.moves),
         "--pool", str(args.pool), "--seed", str(seed)],
        cwd=checkout, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    return proc


def _read(proc: subprocess.Popen[str]) -> str:
    out: IO[str] | None = proc.stdout
    assert out is not None
    line = out.readline()
    if not line:
        raise RuntimeError(f"a worker ended (exit {proc.wait()})")
    return line


def measure(other: Path, args: argparse.Namespace, steps: Steps) -> dict[str, Any]:
    sides = {"this": HERE, "other": other.resolve()}
    with BenchContext() as ctx:
        procs = {side: _start(path, ctx.redis.url, args, seed=n + 1)
                 for n, (side, path) in enumerate(sides.items())}
        try:
            with steps.step("app a/b: workers filling their games", total=len(procs)) as s:
                for proc in procs.values():
                    assert _read(proc).strip() == "ready"
                    s.advance()
            blocks: dict[str, list[dict[str, list[float]]]] = {side: [] for side in sides}
            with steps.step("app a/b: blocks in turns", total=args.rounds) as s:
                for r in range(args.rounds):
                    order = list(sides) if r % 2 == 0 else list(reversed(sides))
                    for side in order:
                        proc = procs[side]
                        assert proc.stdin is not None
                        proc.stdin.write("play\n")
                        proc.stdin.flush()
                        blocks[side].append(json.loads(_read(proc)))
                    s.advance()
        finally:
            for proc in procs.values():
                if proc.stdin is not None:
                    proc.stdin.close()
                proc.wait(timeout=60)
    rows = []
    for mode in args.limits:
        row: dict[str, Any] = {"rate_limits": mode}
        for n, what in enumerate(("get", "post")):
            for side in sides:
                row[f"{side}_{what}_ms"] = statistics.median(b[mode][n] for b in blocks[side])
            row[f"{what}_ratio"] = statistics.median(
                t[mode][n] / o[mode][n] for t, o in zip(blocks["this"], blocks["other"],
                                                        strict=True))
        rows.append(row)
    return {"this": str(sides["this"]), "other": str(sides["other"]), "rounds": args.rounds,
            "moves_per_block": args.moves, "pool": args.pool, "rows": rows}


def table(result: dict[str, Any]) -> Table:
    t = Table(title=f"App CPU per request, this checkout / {result['other']}: medians of "
                    f"{result['rounds']} rounds of {result['moves_per_block']} moves each",
              title_justify="left")
    for n, col in enumerate(("rate limits", "GET this ms", "GET other ms", "GET this/other",
                             "POST this ms", "POST other ms", "POST this/other")):
        t.add_column(col, justify="left" if n == 0 else "right")
    for r in result["rows"]:
        t.add_row(r["rate_limits"], *(
            f"{r[k]:.3f}" for k in ("this_get_ms", "other_get_ms", "get_ratio",
                                    "this_post_ms", "other_post_ms", "post_ratio")))
    return t


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.app_ab", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("other", type=Path, nargs="?", help="the other checkout")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--moves", type=int, default=500, help="moves per block and mode")
    parser.add_argument("--pool", type=int, default=POOL, help="games taking turns")
    parser.add_argument("--limits", type=lambda s: tuple(x for x in s.split(",") if x),
                        default=MODES, help="rate limit modes, of off,on (default both)")
    parser.add_argument("--json", dest="json_file", type=Path, default=None)
    parser.add_argument("--quiet", action="store_true", help="no progress display")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--redis-url", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not set(args.limits) <= set(MODES):
        parser.error(f"--limits: of {','.join(MODES)}")
    if args.worker:
        return _worker(args.redis_url, list(args.limits), args.moves, args.pool, args.seed)
    if args.other is None:
        parser.error("name the other checkout")
    console = Console()
    with Steps(console, args.quiet) as steps:
        result = measure(args.other, args, steps)
    console.print(table(result))
    if args.json_file:
        jsonfile.write(args.json_file, result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
