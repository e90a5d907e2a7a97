"""`donkeypost arena`: bots against bots, in process, without HTTP or Redis.

    donkeypost arena --game ochs-und-esel --seats strong,basic,random --games 50 \
        [--seed 1] [--budget-ms 750] [--options '{"rounds": 2}'] [--jobs 2] [--json out.json]

Each game is pure domain: `new_state` / `setup` / `decide` / `evolve`, with RNGs derived
from the seed and the game's number, so a run is reproducible (up to the strong bot's
wall-clock budget: with `--iterations` instead of a time budget it is exact). The seat
order rotates from game to game so that no level keeps the first seat. In simultaneous
phases the acting seats move one at a time in a random order; each bot only ever gets its
`Observation` (`domain.bots.observe`).

Reported per level: the win rate (share of first places; a first place shared by k
players counts 1/k), the mean score (penalty, slots, points: whatever the game's outcome
reports) with its 95% confidence interval (Student t), and the move times; then, for each
pair of levels, the mean per-game score difference with its 95% interval and how often the
first placed better than the second (paired: both sat at the same table).
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from domain.bots import LEVELS, observe
from domain.bots.levels import make_bot
from domain.bots.mcts import Budget
from domain.game import resolve_options
from domain.registry import get_game
from domain.rng import rng_for

# ---------------------------------------------------------------------------------------
# One game
# ---------------------------------------------------------------------------------------


@dataclass
class GameRecord:
    """One finished arena game: who sat where and how it ended."""

    number: int
    levels: list[str]  # by seat
    places: list[int]
    scores: list[float]
    score_name: str
    lower_is_better: bool
    moves: int
    seconds: float
    move_times: list[list[float]] = field(default_factory=list)  # by seat, in seconds


def seating(levels: Sequence[str], number: int) -> list[str]:
    """The levels by seat in game `number`: the list rotated by one seat per game."""
    n = len(levels)
    return [levels[(s - number) % n] for s in range(n)]


def play_game(game_id: str, levels: Sequence[str], number: int, seed: int = 0,
              options: dict[str, Any] | None = None, budget: Budget | None = None,
              max_moves: int = 100_000) -> GameRecord:
    """Play arena game `number` to its end; the seating rotates with `number`."""
    game = get_game(game_id)
    seats = seating(levels, number)
    players = len(seats)
    opts = resolve_options(game.options, options, players)
    base = f"arena:{game_id}:{seed}"
    game_rng = rng_for(base, number)
    order_rng = rng_for(base + ":order", number)
    bot_rngs = [rng_for(f"{base}:bot:{number}", s) for s in range(players)]
    bots = [make_bot(level, budget) for level in seats]
    times: list[list[float]] = [[] for _ in range(players)]
    started = time.perf_counter()
    state = game.new_state(opts, players)
    for ev in game.setup(state, game_rng):
        state = game.evolve(state, ev)
    moves = 0
    while (out := game.outcome(state)) is None:
        if moves >= max_moves:
            raise RuntimeError(f"game {number} did not end in {max_moves} moves")
        acting = sorted(game.to_act(state))
        if not acting:
            raise RuntimeError(f"game {number}: nobody to act in an unfinished game")
        seat = acting[0] if len(acting) == 1 else order_rng.choice(acting)
        obs = observe(game, state, seat)
        t0 = time.perf_counter()
        action = bots[seat](game, obs, bot_rngs[seat])
        times[seat].append(time.perf_counter() - t0)
        if action not in obs.legal_actions:
            raise RuntimeError(f"game {number}: the {seats[seat]} bot in seat {seat} chose "
                               f"an illegal action {action!r}")
        for ev in game.decide(state, seat, action, game_rng):
            state = game.evolve(state, ev)
        moves += 1
    return GameRecord(number=number, levels=seats, places=list(out.places),
                      scores=[float(s) for s in out.scores], score_name=out.score_name,
                      lower_is_better=out.lower_is_better, moves=moves,
                      seconds=time.perf_counter() - started, move_times=times)


# ---------------------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------------------


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        for num in (m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
                    -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    ln = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
          + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(ln) * _betacf(a, b, x) / a
    return 1.0 - math.exp(ln) * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """Student's t distribution function."""
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The p-quantile of Student's t (bisection on `t_cdf`)."""
    if not 0.0 < p < 1.0:
        raise ValueError("p must be in (0, 1)")
    lo, hi = -1e3, 1e3
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def mean_ci(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float]:
    """The mean and the half-width of its two-sided confidence interval (Student t); the
    half-width is NaN for fewer than two values."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan
    mean = math.fsum(values) / n
    if n < 2:
        return mean, math.nan
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    q = t_quantile(0.5 + confidence / 2.0, n - 1)
    return mean, q * math.sqrt(var / n)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100), nearest rank."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100.0 * len(ordered)))
    return ordered[rank - 1]


def win_share(places: Sequence[int], seat: int) -> float:
    """1/k for a first place shared by k players, 0 otherwise."""
    if places[seat] != 1:
        return 0.0
    return 1.0 / sum(p == 1 for p in places)


@dataclass
class LevelStats:
    level: str
    samples: int  # seat-games
    win_rate: float
    win_ci: float
    mean_score: float
    score_ci: float
    mean_place: float
    moves: int
    mean_move_ms: float
    p50_move_ms: float
    p99_move_ms: float
    max_move_ms: float


@dataclass
class PairStats:
    first: str
    second: str
    games: int
    mean_diff: float  # first's score minus second's, per game
    diff_ci: float
    first_better: float  # share of games where first placed better (ties count 1/2)


def level_stats(records: Sequence[GameRecord]) -> list[LevelStats]:
    """Per level, over every seat it held in every game; levels in order of appearance."""
    order: list[str] = []
    wins: dict[str, list[float]] = {}
    scores: dict[str, list[float]] = {}
    places: dict[str, list[float]] = {}
    times: dict[str, list[float]] = {}
    for rec in records:
        for seat, level in enumerate(rec.levels):
            if level not in wins:
                order.append(level)
                wins[level], scores[level], places[level], times[level] = [], [], [], []
            wins[level].append(win_share(rec.places, seat))
            scores[level].append(rec.scores[seat])
            places[level].append(float(rec.places[seat]))
            if rec.move_times:
                times[level].extend(rec.move_times[seat])
    out: list[LevelStats] = []
    for level in order:
        w, wci = mean_ci(wins[level])
        s, sci = mean_ci(scores[level])
        ms = [t * 1000.0 for t in times[level]]
        out.append(LevelStats(
            level=level, samples=len(wins[level]), win_rate=w, win_ci=wci, mean_score=s,
            score_ci=sci, mean_place=math.fsum(places[level]) / len(places[level]),
            moves=len(ms), mean_move_ms=math.fsum(ms) / len(ms) if ms else math.nan,
            p50_move_ms=percentile(ms, 50), p99_move_ms=percentile(ms, 99),
            max_move_ms=max(ms) if ms else math.nan))
    return out


def pair_stats(records: Sequence[GameRecord]) -> list[PairStats]:
    """For each pair of distinct levels, per game: the mean score of the first's seats
    minus the second's, and whether the first's best place beat the second's."""
    order: list[str] = []
    for rec in records:
        for level in rec.levels:
            if level not in order:
                order.append(level)
    out: list[PairStats] = []
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            diffs: list[float] = []
            better: list[float] = []
            for rec in records:
                sa = [s for s, lv in enumerate(rec.levels) if lv == a]
                sb = [s for s, lv in enumerate(rec.levels) if lv == b]
                if not sa or not sb:
                    continue
                diffs.append(sum(rec.scores[s] for s in sa) / len(sa)
                             - sum(rec.scores[s] for s in sb) / len(sb))
                pa = min(rec.places[s] for s in sa)
                pb = min(rec.places[s] for s in sb)
                better.append(1.0 if pa < pb else 0.5 if pa == pb else 0.0)
            if diffs:
                m, ci = mean_ci(diffs)
                out.append(PairStats(first=a, second=b, games=len(diffs), mean_diff=m,
                                     diff_ci=ci, first_better=math.fsum(better) / len(better)))
    return out


# ---------------------------------------------------------------------------------------
# Runs
# ---------------------------------------------------------------------------------------


def _play_job(job: tuple[str, list[str], int, int, dict[str, Any] | None,
                         Budget | None]) -> GameRecord:
    game_id, levels, number, seed, options, budget = job
    return play_game(game_id, levels, number, seed, options, budget)


def run_arena(game_id: str, levels: Sequence[str], games: int, seed: int = 0,
              options: dict[str, Any] | None = None, budget: Budget | None = None,
              jobs: int = 1,
              on_game: Callable[[GameRecord], None] | None = None) -> list[GameRecord]:
    """Play `games` games (in `jobs` processes), in order of their numbers."""
    work = [(game_id, list(levels), i, seed, options, budget) for i in range(games)]
    records: list[GameRecord] = []
    results: Iterable[GameRecord]
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = pool.map(_play_job, work)
            for rec in results:
                records.append(rec)
                if on_game is not None:
                    on_game(rec)
    else:
        for job in work:
            rec = _play_job(job)
            records.append(rec)
            if on_game is not None:
                on_game(rec)
    return records


def _fmt(x: float, ci: float, digits: int = 2) -> str:
    if math.isnan(ci):
        return f"{x:.{digits}f}"
    return f"{x:.{digits}f} ± {ci:.{digits}f}"


def report(records: Sequence[GameRecord], title: str) -> tuple[Any, Any]:
    """The two rich tables: per level, and per pair of levels."""
    from rich.table import Table

    score_name = records[0].score_name if records else "score"
    better = "lower" if records and records[0].lower_is_better else "higher"
    levels = Table(title=title, caption="win rate: share of first places, a first place "
                   f"shared by k players counting 1/k; ± is the 95% CI; {better} "
                   f"{score_name} is better")
    for col in ("level", "seat-games", "win rate", f"mean {score_name}", "mean place",
                "moves", "mean ms", "p50 ms", "p99 ms", "max ms"):
        levels.add_column(col, justify="left" if col == "level" else "right")
    for st in level_stats(records):
        levels.add_row(st.level, str(st.samples), _fmt(st.win_rate, st.win_ci, 3),
                       _fmt(st.mean_score, st.score_ci), f"{st.mean_place:.2f}",
                       str(st.moves), f"{st.mean_move_ms:.1f}", f"{st.p50_move_ms:.1f}",
                       f"{st.p99_move_ms:.1f}", f"{st.max_move_ms:.1f}")
    pairs = Table(title="head to head (same table)")
    for col in ("first", "second", "games", f"{score_name} first − second",
                "first placed better"):
        pairs.add_column(col, justify="left" if col in ("first", "second") else "right")
    for p in pair_stats(records):
        pairs.add_row(p.first, p.second, str(p.games), _fmt(p.mean_diff, p.diff_ci),
                      f"{p.first_better:.3f}")
    return levels, pairs


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
    game = get_game(args.game)
    if not game.min_players <= len(levels) <= game.max_players:
        console.print(f"[red]{game.title} is for {game.min_players}-{game.max_players} players")
        return 2
    options = json.loads(args.options) if args.options else None
    budget: Budget | None = None
    if args.budget_ms is not None or args.iterations is not None:
        budget = Budget(seconds=args.budget_ms / 1000.0 if args.budget_ms is not None else None,
                        iterations=args.iterations)
    command = _command_line(args)
    started = time.perf_counter()
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=console,
                  disable=args.quiet) as progress:
        task = progress.add_task(f"{args.game} {','.join(levels)}", total=args.games)
        records = run_arena(args.game, levels, args.games, args.seed, options, budget,
                            args.jobs, on_game=lambda _rec: progress.advance(task))
    elapsed = time.perf_counter() - started
    title = (f"{game.title}: {args.games} games, seats {','.join(levels)}, seed {args.seed}, "
             f"{elapsed:.0f} s")
    for table in report(records, title):
        console.print(table)
    if args.json_file:
        doc = {
            "command": command, "game": args.game, "seats": levels, "games": args.games,
            "seed": args.seed, "options": options, "budget_ms": args.budget_ms,
            "iterations": args.iterations, "seconds": elapsed,
            "win_rate": "share of first places; a first place shared by k players counts 1/k",
            "levels": [asdict(s) for s in level_stats(records)],
            "pairs": [asdict(p) for p in pair_stats(records)],
            "records": [{k: v for k, v in asdict(r).items() if k != "move_times"}
                        for r in records],
        }
        with open(args.json_file, "w", encoding="utf-8") as fh:
            json.dump(_nan_free(doc), fh, indent=2, allow_nan=False)
    return 0


def _command_line(args: argparse.Namespace) -> str:
    parts = ["donkeypost", "arena", "--game", args.game, "--seats", args.seats,
             "--games", str(args.games), "--seed", str(args.seed)]
    for flag, value in (("--budget-ms", args.budget_ms), ("--iterations", args.iterations),
                        ("--options", args.options), ("--jobs", args.jobs if args.jobs != 1
                                                      else None),
                        ("--json", args.json_file)):
        if value is not None:
            parts += [flag, str(value)]
    return " ".join(shlex.quote(p) for p in parts)


def _nan_free(obj: Any) -> Any:
    """JSON has no NaN: undefined figures (a CI of one sample) become null."""
    if isinstance(obj, float):
        return None if math.isnan(obj) or math.isinf(obj) else obj
    if isinstance(obj, dict):
        return {k: _nan_free(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_nan_free(v) for v in obj]
    return obj


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="arena")
    sub = parser.add_subparsers(dest="command", required=True)
    cmd = register(sub)
    return cmd(parser.parse_args(["arena", *(argv if argv is not None else sys.argv[1:])]))


if __name__ == "__main__":
    raise SystemExit(main())
