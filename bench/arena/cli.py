"""The `python -m bench.arena` command (see `bench.arena`)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from collections.abc import Callable, Sequence

from bench import jsonfile
from bench.arena.games import run_arena
from bench.arena.report import document, tables
from domain.bots import LEVELS
from domain.bots.search_terms import Budget
from domain.registry import installed


def register(subparsers: argparse._SubParsersAction) -> Callable[[argparse.Namespace], int]:
    """Add the `arena` command; returns its function."""
    p = subparsers.add_parser(
        "arena", help="play bot games in process (no HTTP, no Redis) and compare the levels")
    p.add_argument("--game", required=True, help="game id (see GET /games/types)")
    p.add_argument("--seats", required=True,
                   help="comma-separated bot levels, one per seat, e.g. strong,basic,random")
    p.add_argument("--games", type=int, default=20, help="number of games (default 20)")
    p.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    p.add_argument("--budget-ms", type=float, default=None,
                   help="the strong bot's time budget per move (default: its own, 750 ms)")
    p.add_argument("--iterations", type=int, default=None,
                   help="the strong bot's iteration budget per move (alone: no time limit)")
    p.add_argument("--expert-budget-ms", type=float, default=None,
                   help="the expert bot's time budget per move (default: its own, 5000 ms)")
    p.add_argument("--expert-iterations", type=int, default=None,
                   help="the expert bot's iteration budget per move (alone: no time limit)")
    p.add_argument("--options", default=None, help="game options as a JSON object")
    p.add_argument("--jobs", type=int, default=1, help="games played in parallel processes")
    p.add_argument("--json", dest="json_file", default=None,
                   help="also write the statistics and every game's result to this file")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return cmd_arena


def cmd_arena(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console()
    if not console.is_terminal:
        console = Console(width=150)
    levels = [s.strip() for s in args.seats.split(",") if s.strip()]
    bad = [lv for lv in levels if lv not in LEVELS]
    if bad:
        console.print(f"[red]unknown level(s): {', '.join(bad)}; known: {', '.join(LEVELS)}")
        return 2
    game = installed().game(args.game)
    if not game.min_players <= len(levels) <= game.max_players:
        console.print(f"[red]{game.title} is for {game.min_players}-{game.max_players} players")
        return 2
    options = json.loads(args.options) if args.options else None
    budgets = {level: budget for level, ms, iterations in (
        ("strong", args.budget_ms, args.iterations),
        ("expert", args.expert_budget_ms, args.expert_iterations))
        if (budget := budget_of(ms, iterations)) is not None}
    started = time.perf_counter()
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=console,
                  disable=args.quiet) as progress:
        task = progress.add_task(f"{args.game} {','.join(levels)}", total=args.games)
        records = run_arena(game, levels, args.games, args.seed, options, budgets,
                            args.jobs, on_game=lambda _rec: progress.advance(task))
    elapsed = time.perf_counter() - started
    title = (f"{game.title}: {args.games} games, seats {','.join(levels)}, seed {args.seed}, "
             f"{elapsed:.0f} s")
    for table in tables(records, title):
        console.print(table)
    if args.json_file:
        jsonfile.write(args.json_file, document(records, {
            "command": command_line(args), "game": args.game, "seats": levels,
            "games": args.games, "seed": args.seed, "options": options,
            "budget_ms": args.budget_ms, "iterations": args.iterations,
            "expert_budget_ms": args.expert_budget_ms,
            "expert_iterations": args.expert_iterations, "seconds": elapsed}))
    return 0


def budget_of(ms: float | None, iterations: int | None) -> Budget | None:
    """A budget from a time (ms) and an iteration count; None when neither is given."""
    if ms is None and iterations is None:
        return None
    return Budget(seconds=ms / 1000.0 if ms is not None else None, iterations=iterations)


def command_line(args: argparse.Namespace) -> str:
    """The command that repeats this run."""
    parts = ["python", "-m", "bench.arena", "--game", args.game, "--seats", args.seats,
             "--games", str(args.games), "--seed", str(args.seed)]
    for flag, value in (("--budget-ms", args.budget_ms), ("--iterations", args.iterations),
                        ("--expert-budget-ms", args.expert_budget_ms),
                        ("--expert-iterations", args.expert_iterations),
                        ("--options", args.options), ("--jobs", args.jobs if args.jobs != 1
                                                      else None),
                        ("--json", args.json_file)):
        if value is not None:
            parts += [flag, str(value)]
    return " ".join(shlex.quote(p) for p in parts)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="arena")
    sub = parser.add_subparsers(dest="command", required=True)
    cmd = register(sub)
    return cmd(parser.parse_args(["arena", *(argv if argv is not None else sys.argv[1:])]))


if __name__ == "__main__":
    raise SystemExit(main())
