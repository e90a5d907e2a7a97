"""`python -m bench`: measure the speed targets in one run; print tables, write JSON.

    python -m bench                         # every section, full sizes (several minutes)
    python -m bench --quick                 # every section on tiny sizes (a smoke test)
    python -m bench --sections http,state --clients 8,32 --duration 15 --profile

Sections: http (moves over HTTP vs the stack's ceiling), state (state load vs log
length), replay, engine (random games in process), bots (move time per level, the strong
bot's playouts/s), timers (the workers' hooks after a move vs the move), peer (donkeypost
against boardgame.io, both pinned to one CPU; needs node and npm), inbox (a player's inbox
page vs a view, as their games grow), cluster (moves on one Redis vs a three-master Redis
Cluster, and each part's cost per move), app (the WSGI app's CPU per request of a move, in
process, rate limits off and on). The JSON goes to bench/results/ unless --json names
a file.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rich.console import Console

from bench import jsonfile, report
from bench.config import SECTIONS, BenchConfig
from bench.context import BenchContext, load_average, machine
from bench.progress import Steps
from donkeypost.embedded_redis import APPENDFSYNC_CHOICES

RESULTS = Path(__file__).resolve().parent / "results"
Section = Callable[[BenchConfig, BenchContext, Steps], dict[str, Any]]


def _sections() -> dict[str, Section]:
    from bench import aof, app_cpu, bots, cluster, engine, inbox, logs, moves, soak, timers
    from bench.peer import section as peer

    return {"http": moves.run, "state": logs.run_state_load, "replay": logs.run_replay,
            "engine": engine.run, "bots": bots.run, "timers": timers.run, "aof": aof.run,
            "peer": peer.run, "inbox": inbox.run, "cluster": cluster.run, "app": app_cpu.run,
            "soak": soak.run}


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split(",") if x.strip())


def _web_servers(text: str) -> tuple[str, ...]:
    from donkeypost.web_servers import WEB_SERVERS

    servers = tuple(dict.fromkeys(x.strip() for x in text.split(",") if x.strip()))
    unknown = sorted(set(servers) - set(WEB_SERVERS))
    if unknown or not servers:
        raise argparse.ArgumentTypeError(f"use some of {','.join(WEB_SERVERS)}")
    return servers


def register(subparsers: argparse._SubParsersAction) -> Callable[[argparse.Namespace], int]:
    """Add the `bench` command; returns its function."""
    p = subparsers.add_parser("bench", help="run the benchmarks and check the speed targets",
                              description=__doc__,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true",
                   help="tiny sizes: every section in seconds (figures mean nothing)")
    p.add_argument("--sections", type=lambda s: tuple(x for x in s.split(",") if x),
                   default=None, help=f"comma-separated, of {','.join(SECTIONS)} (default all)")
    p.add_argument("--clients", type=_ints, default=None,
                   help="concurrent HTTP clients, comma-separated (default 1,8,32,64)")
    p.add_argument("--duration", dest="duration_s", type=float, default=None,
                   help="measured seconds per HTTP run (default 10)")
    p.add_argument("--warmup", dest="warmup_s", type=float, default=None,
                   help="seconds before each HTTP measurement (default 2)")
    p.add_argument("--slice", dest="slice_s", type=float, default=None,
                   help="seconds the ceiling and the moves each run in turn (default 1)")
    p.add_argument("--web-workers", type=int, default=None, help="gunicorn workers (default 2)")
    p.add_argument("--rate-limits", choices=("off", "on"), default=None,
                   help="the server's rate limits (default off: one load generator plays "
                        "far more moves a second from one address than they allow)")
    p.add_argument("--appendfsync", type=lambda s: tuple(x for x in s.split(",") if x),
                   default=None, help="the embedded Redis's appendfsync for the HTTP runs, "
                                      "comma-separated: everysec, always (default everysec); "
                                      "with both, each number of clients runs under each")
    p.add_argument("--no-reuse-port", action="store_true",
                   help="gunicorn without --reuse-port (one shared socket), to compare")
    p.add_argument("--loadgen-cpu", type=int, default=None,
                   help="the CPU the load generator is pinned to (default the last one)")
    p.add_argument("--sizes", type=_ints, default=None,
                   help="log lengths for the state section (default 10,1000,10000)")
    p.add_argument("--load-samples", type=int, default=None,
                   help="timed state loads per size (default 300)")
    p.add_argument("--replays", type=int, default=None, help="seqs replayed (default 300)")
    p.add_argument("--engine-seconds", dest="engine_s", type=float, default=None,
                   help="seconds of random games per game type (default 3)")
    p.add_argument("--bot-samples", type=int, default=None,
                   help="positions per game for random and basic (default 40)")
    p.add_argument("--strong-samples", type=int, default=None,
                   help="positions per game for strong (default 10)")
    p.add_argument("--strong-ms", type=float, default=None,
                   help="the strong bot's budget per move (default: its own)")
    p.add_argument("--search-iterations", type=int, default=None,
                   help="the search's iteration budget per strong position when counting its "
                        "playouts per second (default 300)")
    p.add_argument("--timer-moves", type=int, default=None, help="moves timed (default 300)")
    p.add_argument("--aof-moves", type=int, default=None,
                   help="moves per mode in the aof section (default 2000)")
    p.add_argument("--soak-minutes", type=float, default=None,
                   help="how long the soak section runs (default 30)")
    p.add_argument("--soak-unstarted-ttl", dest="soak_unstarted_ttl_s", type=float,
                   default=None, help="seconds before a never-started game is swept in the "
                                      "soak (default 120)")
    p.add_argument("--soak-sample", dest="soak_sample_s", type=float, default=None,
                   help="seconds between the soak's memory samples (default 30)")
    p.add_argument("--rebuild-games", type=int, default=None,
                   help="games whose timers a worker's rebuild re-arms (default 1000)")
    p.add_argument("--peer-slice", dest="peer_slice_s", type=float, default=None,
                   help="seconds of each system's turn in the peer section (default 5)")
    p.add_argument("--peer-duration", dest="peer_duration_s", type=float, default=None,
                   help="measured seconds per system and number of clients (default 15)")
    p.add_argument("--peer-web", type=_web_servers, default=None,
                   help="donkeypost's web servers in the peer section, each measured as a "
                        "system of its own (default gunicorn,granian)")
    p.add_argument("--server-cpu", dest="peer_server_cpu", type=int, default=None,
                   help="the CPU the peer section pins both servers to (default: one "
                        "other than the load generator's)")
    p.add_argument("--inbox-sizes", type=_ints, default=None,
                   help="games of the player in the inbox section (default 10,1000)")
    p.add_argument("--inbox-samples", type=int, default=None,
                   help="inbox pages and views timed per size (default 300)")
    p.add_argument("--cluster-clients", type=_ints, default=None,
                   help="concurrent HTTP clients of the cluster section (default 32,128)")
    p.add_argument("--cluster-duration", dest="cluster_duration_s", type=float, default=None,
                   help="measured seconds per store and number of clients (default 10)")
    p.add_argument("--app-moves", type=int, default=None,
                   help="moves per round and rate-limit mode in the app section (default 2000)")
    p.add_argument("--app-rounds", type=int, default=None,
                   help="rounds of the app section, limits off and on in turns (default 3)")
    p.add_argument("--profile", action="store_true",
                   help="after the HTTP runs, profile the web workers with py-spy")
    p.add_argument("--profile-seconds", dest="profile_s", type=float, default=None)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--json", dest="json_file", type=Path, default=None,
                   help="where to write the results (default bench/results/bench-<time>.json)")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    return cmd_bench


def config_from(args: argparse.Namespace) -> BenchConfig:
    cfg = BenchConfig.quick() if args.quick else BenchConfig()
    overrides = {name: getattr(args, name) for name in (
        "sections", "clients", "duration_s", "warmup_s", "slice_s", "web_workers", "loadgen_cpu",
        "appendfsync", "sizes", "load_samples", "replays", "engine_s", "bot_samples",
        "strong_samples", "strong_ms", "search_iterations", "timer_moves", "rebuild_games",
        "aof_moves", "soak_minutes", "soak_unstarted_ttl_s", "soak_sample_s", "profile_s",
        "seed", "peer_slice_s", "peer_duration_s", "peer_server_cpu", "peer_web",
        "inbox_sizes", "inbox_samples", "rate_limits", "cluster_clients",
        "cluster_duration_s", "app_moves", "app_rounds")
        if getattr(args, name) is not None}
    if args.profile:
        overrides["profile"] = True
    if args.no_reuse_port:
        overrides["reuse_port"] = False
    cfg = replace(cfg, **overrides)
    unknown = [s for s in cfg.sections if s not in SECTIONS]
    if unknown:
        raise SystemExit(f"unknown section(s): {', '.join(unknown)}; known: {', '.join(SECTIONS)}")
    wrong = [m for m in cfg.appendfsync if m not in APPENDFSYNC_CHOICES]
    if wrong or not cfg.appendfsync:
        raise SystemExit(f"--appendfsync: use {', '.join(APPENDFSYNC_CHOICES)}, not {wrong}")
    return cfg


def run_bench(cfg: BenchConfig, console: Console, quiet: bool = False) -> dict[str, Any]:
    """Run the chosen sections; the results document."""
    started = time.perf_counter()
    doc: dict[str, Any] = {
        "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "note": "figures taken on a machine shared with other jobs: compare ratios within "
                "one run; `cpu_cores.others_cores` says how busy the rest of it was",
        "config": asdict(cfg),
        "sections": {},
    }
    sections = _sections()
    with BenchContext(cfg.web_workers, cfg.reuse_port, cfg.rate_limits) as ctx, \
            Steps(console, quiet) as steps:
        for name in [s for s in SECTIONS if s in cfg.sections]:
            t0 = time.perf_counter()
            result = sections[name](cfg, ctx, steps)
            result["seconds"] = time.perf_counter() - t0
            result["loadavg_after"] = load_average()
            doc["sections"][name] = result
        if cfg.profile and "http" in cfg.sections:
            from bench import profile

            doc["sections"]["profile"] = profile.run(cfg, ctx, steps)
    doc["targets"] = report.targets(doc["sections"])
    doc["seconds"] = time.perf_counter() - started
    return doc


def cmd_bench(args: argparse.Namespace) -> int:
    console = Console() if sys.stdout.isatty() else Console(width=160)
    cfg = config_from(args)
    doc = run_bench(cfg, console, quiet=args.quiet)
    doc["command"] = (command_line(sys.argv) if Path(sys.argv[0]).parent.name == "bench"
                      else "python -m bench (called from Python)")
    for table in report.tables(doc["sections"]):
        console.print(table)
    console.print(report.targets_table(doc["targets"]))
    path = args.json_file or RESULTS / f"bench-{datetime.now():%Y%m%d-%H%M%S}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    jsonfile.write(path, doc)
    console.print(f"results: {path}")
    return 0


def command_line(argv: Sequence[str]) -> str:
    args = list(argv[1:])
    return " ".join(shlex.quote(a) for a in ["python", "-m", "bench", *args])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m")
    sub = parser.add_subparsers(dest="command", required=True)
    cmd = register(sub)
    return cmd(parser.parse_args(["bench", *(argv if argv is not None else sys.argv[1:])]))


if __name__ == "__main__":
    raise SystemExit(main())
