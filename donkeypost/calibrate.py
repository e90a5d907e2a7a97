"""`donkeypost calibrate`: the bot levels play rated games against each other, and each level
gets a Glicko-2 rating per game type (`domain.ratings.calibration`), kept in the rating
store and shown on the leaderboards.

    donkeypost calibrate [--game ochs-und-esel ...] [--games 60] [--players 4]
        [--options '{"rounds": 1}'] [--iterations 2000 --expert-iterations 8000]
        [--jobs 2] [--seed 0] [--dry-run] [--json calibration.json]
    donkeypost calibrate --refit calibration.json [--refit more.json] [--game trash]
        [--dry-run] [--json refitted.json]

The searching levels think with this deployment's budgets (`DONKEYPOST_STRONG_MS`,
`DONKEYPOST_EXPERT_MS`) unless iteration budgets are given: their strength, and so their
rating, is the deployment's. Each game seats the levels in turn: every level at the table
when there are seats enough (the others filled in turn), else each combination of levels in
turn; the seats rotate from game to game. `--dry-run` plays and prints without writing;
`--json` also writes the ratings in the shape of the calibration shipped with the code
(`domain/ratings/calibration.json`), with every game's result (the levels by seat, the
places) and the command that played it. `--refit` fits those results again without
playing (the games of several files for one game type are fitted together).
"""

from __future__ import annotations

import argparse
import itertools
import json
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from domain.bots.levels import LEVELS
from domain.bots.match import play_matches
from domain.bots.search_terms import Budget
from domain.ratings.calibration import ANCHOR_LEVEL, calibrate
from domain.ratings.standing import Standing
from domain.registry import installed

# A table of the size people usually play each game at (else the game's smallest).
USUAL_PLAYERS = {"ochs-und-esel": 4, "crazy-donkey": 4, "trash": 2, "canyon-donkeys": 4}


def register(sub: argparse._SubParsersAction) -> Callable[[argparse.Namespace], int]:
    p = sub.add_parser("calibrate", help="rate the bot levels: they play rated games against "
                                         "each other, per game type (REDIS_URL: where the "
                                         "ratings are kept)")
    p.add_argument("--game", action="append", dest="games_of",
                   help="a game type (repeatable; default: every game)")
    p.add_argument("--games", type=int, default=60, help="games per game type (default 60)")
    p.add_argument("--players", type=int, default=None,
                   help="seats per table (default: the game's usual table)")
    p.add_argument("--options", default=None, help="game options as a JSON object")
    p.add_argument("--iterations", type=int, default=None,
                   help="the strong level's iteration budget per move (default: its time)")
    p.add_argument("--expert-iterations", type=int, default=None,
                   help="the expert level's iteration budget per move (default: its time)")
    p.add_argument("--levels", default=",".join(LEVELS),
                   help=f"the levels rated (default {','.join(LEVELS)})")
    p.add_argument("--jobs", type=int, default=1, help="games played in parallel processes")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--dry-run", action="store_true", help="play and print, keep nothing")
    p.add_argument("--json", dest="json_file", type=Path, default=None,
                   help="also write the ratings and the games' results to this file")
    p.add_argument("--refit", action="append", type=Path, default=None,
                   help="fit the games' results of a file --json wrote, without playing "
                        "(repeatable: the files' games of one game type fitted together)")
    return cmd_calibrate


def seatings(levels: Sequence[str], players: int, games: int) -> list[list[str]]:
    """The levels by seat of each game: every level at each table when there are seats
    enough (the extra seats filled in turn), else each combination in turn; the seats
    rotate by one from game to game."""
    if players >= len(levels):
        tables = [[*levels, *(levels[(g + i) % len(levels)] for i in range(players
                                                                            - len(levels)))]
                  for g in range(games)]
    else:
        combos = list(itertools.combinations(levels, players))
        tables = [list(combos[g % len(combos)]) for g in range(games)]
    return [[t[(s - g) % players] for s in range(players)] for g, t in enumerate(tables)]


def cmd_calibrate(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    levels = [lv.strip() for lv in args.levels.split(",") if lv.strip()]
    unknown = [lv for lv in levels if lv not in LEVELS]
    if unknown or ANCHOR_LEVEL not in levels or len(levels) < 2:
        console.print(f"[red]levels: two or more of {', '.join(LEVELS)}, with "
                      f"{ANCHOR_LEVEL} (the anchor)")
        return 2
    games = installed()
    if args.refit:
        try:
            played = _read_runs(args.refit)
        except (OSError, ValueError, KeyError, TypeError) as err:
            console.print(f"[red]--refit: {err}")
            return 2
        if args.games_of:
            played = {g: played[g] for g in args.games_of if g in played}
        game_ids = sorted(played)
    else:
        game_ids = args.games_of or sorted(games)
    missing = [g for g in game_ids if g not in games]
    if missing or not game_ids:
        console.print(f"[red]unknown game type(s): {', '.join(missing) or 'none given'}")
        return 2
    service = None
    from donkeypost.settings import Settings, SettingsError

    try:
        settings = Settings.from_env()
        if not args.dry_run:
            settings.store_url  # noqa: B018 - raises SettingsError when unset
    except SettingsError as err:
        print(f"{err} (or --dry-run: keep nothing)", file=sys.stderr)
        return 2
    if not args.dry_run:
        from domain.service import NoHooks
        from donkeypost.bootstrap import bootstrap

        service = bootstrap(settings, hooks=NoHooks()).service
    if not args.refit:
        played = _play(args, console, games, game_ids, levels, settings)
    out: dict[str, dict[str, Any]] = {}
    for game_id in game_ids:
        run = played[game_id]
        seen = {lv for lvs, _ in run.games for lv in lvs}
        rated = [lv for lv in LEVELS if lv in seen]
        standings = calibrate(run.games)
        if service is not None:
            service.calibrated(game_id, {lv: standings[lv] for lv in rated})
        out[game_id] = {lv: _fields(standings[lv]) for lv in rated}
        console.print(_table(Table, games.game(game_id).title, rated, standings, run.games,
                             run.run))
    if args.json_file is not None:
        args.json_file.write_text(_dump(
            {"commands": {g: played[g].command for g in game_ids},
             "runs": {g: played[g].run for g in game_ids}, "ratings": out},
            {g: played[g].games for g in game_ids}))
    if service is None:
        console.print("dry run: nothing kept")
    return 0


class _Run(NamedTuple):
    """One game type's calibration games: their results, the command, how long it took."""

    games: list[tuple[list[str], list[int]]]  # the levels by seat, the places
    command: str
    run: str


def _play(args: argparse.Namespace, console: Any, games: Any, game_ids: Sequence[str],
          levels: Sequence[str], settings: Any) -> dict[str, _Run]:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    options = json.loads(args.options) if args.options else None
    # The deployment's budgets per move, unless iteration budgets are given.
    budgets = {**settings.bot_budgets, **{
        level: Budget(seconds=None, iterations=n) for level, n in
        (("strong", args.iterations), ("expert", args.expert_iterations)) if n is not None}}
    out: dict[str, _Run] = {}
    for game_id in game_ids:
        game = games.game(game_id)
        players = args.players or USUAL_PLAYERS.get(game_id, game.min_players)
        players = max(game.min_players, min(game.max_players, players))
        seated = seatings(levels, players, args.games)
        started = time.perf_counter()
        with Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                      MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
                      console=console) as progress:
            task = progress.add_task(f"{game_id}, {players} seats", total=len(seated))
            matches = play_matches(game, seated, f"calibrate:{game_id}:{args.seed}",
                                   options, budgets, args.jobs,
                                   lambda _m, t=task: progress.advance(t))
        out[game_id] = _Run([(m.levels, m.places) for m in matches],
                            _command(args, game_id, players, levels),
                            f"{len(matches)} games of {players} seats in "
                            f"{time.perf_counter() - started:.0f} s")
    return out


def _command(args: argparse.Namespace, game_id: str, players: int,
             levels: Sequence[str]) -> str:
    """The command that plays these games of one game type again (the same games, with
    iteration budgets; with the deployment's time budgets, games of the same strength)."""
    words = ["donkeypost", "calibrate", "--game", game_id, "--games", str(args.games),
             "--players", str(players), "--levels", ",".join(levels), "--seed", str(args.seed)]
    for flag, value in (("--options", args.options), ("--iterations", args.iterations),
                        ("--expert-iterations", args.expert_iterations)):
        if value is not None:
            words += [flag, str(value)]
    return shlex.join([*words, "--jobs", str(args.jobs)])


def _read_runs(files: Sequence[Path]) -> dict[str, _Run]:
    """The games' results of the files `--json` wrote, per game type (the games of several
    files for one game type one after the other)."""
    out: dict[str, _Run] = {}
    for path in files:
        data = json.loads(path.read_text())
        for game_id, results in data["games"].items():
            found = [([str(lv) for lv in levels], [int(p) for p in places])
                     for levels, places in results]
            for levels, places in found:
                if len(levels) != len(places) or not set(levels) <= set(LEVELS):
                    raise ValueError(f"{path}: {game_id}: not a game's result: "
                                     f"{levels} {places}")
            command = data.get("commands", {}).get(game_id) or data.get("command", "")
            run = data.get("runs", {}).get(game_id, f"{len(found)} games")
            if game_id in out:
                before = out[game_id]
                out[game_id] = _Run(before.games + found, f"{before.command}; {command}",
                                    f"{before.run}; {run}")
            else:
                out[game_id] = _Run(found, command, run)
    return out


def _dump(head: dict[str, Any], results: dict[str, list[tuple[list[str], list[int]]]]) -> str:
    """The calibration file: `head` indented, then each game's result on a line of its own."""
    text = json.dumps(head, indent=1)[:-2]
    blocks = [f"  {json.dumps(game_id)}: [\n" + ",\n".join(
        "   " + json.dumps([levels, places], separators=(",", ":"))
        for levels, places in games) + "\n  ]" for game_id, games in results.items()]
    return text + ',\n "games": {\n' + ",\n".join(blocks) + "\n }\n}\n"


def _fields(s: Standing) -> dict[str, Any]:
    return {"rating": round(s.rating, 1), "deviation": round(s.deviation, 1),
            "volatility": round(s.volatility, 6), "games": s.games, "wins": s.wins}


def _table(table_type: Any, title: str, levels: Sequence[str],
           standings: dict[str, Standing],
           results: Sequence[tuple[Sequence[str], Sequence[int]]], run: str) -> Any:
    table = table_type(title=f"{title}: {run}", caption=f"{ANCHOR_LEVEL} is the anchor "
                       "(fixed); ± is two deviations")
    for col in ("level", "rating", "games", "first places"):
        table.add_column(col, justify="left" if col == "level" else "right")
    for level in sorted(levels, key=lambda lv: -standings[lv].rating):
        s = standings[level]
        seats = sum(lvs.count(level) for lvs, _ in results)
        firsts = sum(p == 1 for lvs, places in results
                     for lv, p in zip(lvs, places, strict=True) if lv == level)
        shown = f"{s.rating:.0f}" if level == ANCHOR_LEVEL else \
            f"{s.rating:.0f} ± {2 * s.deviation:.0f}"
        table.add_row(level, shown, str(seats), f"{firsts / seats:.2f}" if seats else "-")
    return table
