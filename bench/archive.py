"""The archive's figures: what a finished game costs before and after archiving, the bits
of each choice against the information in it, archiving and expansion times, the memory of
many finished games, and the first read of an archived game against a view.

    python -m bench.archive [--games 20] [--memory-games 1000] [--clock paced|post|wall]
                            [--sections sizes,memory,listing,first-read,cold,expand]

Games are bots-only (`random` and `basic` seats), played through the service on an
embedded Redis exactly as `donkeypost serve` runs it (AOF on). `--clock paced` stamps the
moves 5 ms to 5 s apart (log-uniform: bots on busy workers, and people who answer at
once); `post` a second to a day apart (people playing by post); `wall` uses this
process's clock (moves a fraction of a millisecond apart: the times cost least). Bytes
before = `MEMORY USAGE` of every key of the game (log, snapshot, checkpoints, seed);
after = the record's `MEMORY USAGE` (and its length). Prints a Markdown table per figure.
The first read of an archived game of about 500 moves is timed in new processes (a
restart), against a live game's view in the same process (`first_read`); the expansion of
such games alone, in CPU time per event and per move (`expansion`).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import msgspec

from domain import bots
from domain.archive.archiving import archive_game
from domain.archive.explain import explain
from domain.archive.reading import DEFAULT_COPIES, ReadCopies, expand_record
from domain.archive.record import decode as decode_record
from domain.service import NoHooks
from domain.store import keys
from domain.table import to_act
from donkeypost.bootstrap import Components, bootstrap, web_app
from donkeypost.settings import Settings
from tests.support.redis_process import RedisProcess

TYPES: list[tuple[str, int, dict[str, Any]]] = [
    ("ochs-und-esel", 3, {"rounds": 1}),
    ("ochs-und-esel", 4, {}),
    ("ochs-und-esel", 6, {}),
    ("crazy-donkey", 3, {}),
    ("crazy-donkey", 4, {}),
    ("canyon-donkeys", 3, {}),
    ("canyon-donkeys", 4, {}),
    ("trash", 2, {}),
    ("trash", 3, {}),
]


class PacedClock:
    """Each reading 5 ms to 5 s after the one before (log-uniform)."""

    low_s, high_s = 0.005, 5.0

    def __init__(self, seed: int) -> None:
        self.now = 1_764_000_000.0
        self.rng = random.Random(seed)

    def __call__(self) -> float:
        self.now += math.exp(self.rng.uniform(math.log(self.low_s), math.log(self.high_s)))
        return self.now


class PostClock(PacedClock):
    """Each reading a second to a day after the one before (log-uniform): people playing
    by post."""

    low_s, high_s = 1.0, 86_400.0


def play(components: Components, game_type: str, players: int, options: dict[str, Any],
         seed: int, stop_after: int | None = None) -> tuple[str, int]:
    """A bots-only game played to its end (or for `stop_after` moves): its id and moves."""
    service = components.service
    rng = random.Random(seed)
    seats = [{"kind": "bot", "level": ("random", "basic")[i % 2]} for i in range(players)]
    table = service.create(game_type, options, seats, deadline_s=None)
    game = components.service.games.game(game_type)
    moves = 0
    while table.status == "active" and (stop_after is None or moves < stop_after):
        seat = rng.choice(sorted(to_act(table, game)))
        level = table.seats[seat].bot_level or "random"
        action = bots.choose_action(level, game, bots.observe(game, table.game, seat), rng)
        table = service.act(table.id, seat, msgspec.to_builtins(action), by="bot").table
        moves += 1
    return table.id, moves


def game_bytes(components: Components, game_id: str) -> int:
    client = components.store_redis
    return sum(client.memory_usage(k) or 0 for k in keys.archived_away(game_id)
               if client.exists(k))


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


def per_type(components: Components, games: int, seed: int) -> list[dict[str, Any]]:
    rows = []
    for game_type, players, options in TYPES:
        found: dict[str, list[float]] = {k: [] for k in (
            "events", "moves", "before", "after", "record", "summary", "choices", "bits",
            "entropy", "archive_ms", "expand_ms", "copy", "copy_len")}
        for n in range(games):
            game_id, moves = play(components, game_type, players, options, seed + n)
            stored = components.archives.stored_game(game_id)
            assert stored is not None
            record = explain(stored, components.service.games)
            found["events"].append(len(stored.events))
            found["moves"].append(moves)
            found["before"].append(game_bytes(components, game_id))
            found["choices"].append(record.chosen)
            found["entropy"].append(record.entropy_bits)
            found["bits"].append(record.choices.bit_length())
            started = time.perf_counter()
            outcome = archive_game(components.archives, components.service.games, game_id)
            assert outcome == "archived"
            found["archive_ms"].append(1000 * (time.perf_counter() - started))
            data = components.archives.archived(game_id)
            assert data is not None
            found["record"].append(len(data))
            found["summary"].append(len(decode_record(data).summary or b""))
            found["after"].append(components.store_redis.memory_usage(keys.archive(game_id)))
            found["copy"].append(
                components.store_redis.memory_usage(keys.archive_read(game_id)) or 0)
            found["copy_len"].append(len(components.archives.archived_and_read(game_id)[1] or b""))
            started = time.perf_counter()
            expand_record(data, components.service.games)
            found["expand_ms"].append(1000 * (time.perf_counter() - started))
        rows.append({"game": game_type, "players": players, "options": options, **found})
    return rows


def memory(redis_url: str, count: int, seed: int, clock: Any) -> dict[str, float]:
    components = bootstrap(Settings(redis_url=redis_url), hooks=NoHooks(), clock=clock)
    client = components.store_redis
    client.flushdb()
    base = int(client.info("memory")["used_memory"])
    ids = [play(components, "ochs-und-esel", 3, {"rounds": 1}, seed + n)[0]
           for n in range(count)]
    full = int(client.info("memory")["used_memory"])
    for game_id in ids:
        archive_game(components.archives, components.service.games, game_id)
    archived = int(client.info("memory")["used_memory"])  # (with the day's copies)
    copies = [client.memory_usage(keys.archive_read(i)) or 0 for i in ids]
    client.delete(*(keys.archive_read(i) for i in ids))  # (as when they expire)
    expired = int(client.info("memory")["used_memory"])
    return {"games": count, "base": base, "full": full, "archived": archived,
            "expired": expired, "copy": statistics.median(copies)}


# Games of about 500 moves, and the game beside each whose views are timed (a live one of
# the same type, half played).
LONG_GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("trash", 3, {}),
    ("ochs-und-esel", 6, {"rounds": 6}),
    ("crazy-donkey", 4, {"deals": 11}),
]
LONG_MOVES = 500


def first_read(redis_url: str, clock: Any, runs: int = 3) -> list[dict[str, Any]]:
    """For each of `LONG_GAMES`: a game of about 500 moves archived, read first by a new
    process (`read_in_new_process`: after its imports and its app's start) against the
    median view of a live game of the same type in that process: `runs` times right after
    its archiving (the copy the archiving kept for its reads), `runs` times with no copy
    (the process expands it: what a game this long costs when its copy was not kept for
    ever), then `runs` times with the copy the first of those left."""
    components = bootstrap(Settings(redis_url=redis_url), hooks=NoHooks(), clock=clock)
    rows = []
    for n, (game_type, players, options) in enumerate(LONG_GAMES):
        tried = [play(components, game_type, players, options, 3000 + 10 * n + i)
                 for i in range(3)]
        game_id, moves = min(tried, key=lambda x: abs(x[1] - LONG_MOVES))
        live, _ = play(components, game_type, players, options, 3100 + n,
                       stop_after=LONG_MOVES // 2)
        events = components.service.store.version(game_id)
        # (the same reads of the game before its archiving: its log is read as stored)
        before = [read_in_new_process(redis_url, game_id, live) for _ in range(runs)]
        assert archive_game(components.archives, components.service.games,
                            game_id) == "archived"
        copy = keys.archive_read(game_id)
        copy_bytes = components.store_redis.memory_usage(copy)
        archived, cold, warm = [], [], []
        for _ in range(runs):
            archived.append(read_in_new_process(redis_url, game_id, live))
            assert not archived[-1]["expanded"]
        for _ in range(runs):
            components.store_redis.delete(copy)
            cold.append(read_in_new_process(redis_url, game_id, live))
            assert cold[-1]["expanded"]
        for _ in range(runs):
            warm.append(read_in_new_process(redis_url, game_id, live))
            assert not warm[-1]["expanded"]
        rows.append({"game": game_type, "players": players, "options": options,
                     "moves": moves, "events": events, "archived": archived, "cold": cold,
                     "warm": warm, "before": before, "copy_bytes": copy_bytes})
    return rows


def cold_reads(redis_url: str, clock: Any, runs: int = 3) -> list[dict[str, Any]]:
    """For each of the usual games (`TYPES`): one archived and its copy deleted (archived
    over a day ago, not read since), read first by `runs` new processes (each expands it)
    against a live game's view in that process: which games a first read expands within
    about 10 views, and so which need their copy kept."""
    components = bootstrap(Settings(redis_url=redis_url), hooks=NoHooks(), clock=clock)
    rows = []
    for n, (game_type, players, options) in enumerate(TYPES):
        game_id, moves = play(components, game_type, players, options, 4000 + n)
        live, _ = play(components, game_type, players, options, 4100 + n, stop_after=20)
        events = components.service.store.version(game_id)
        assert archive_game(components.archives, components.service.games, game_id,
                            ReadCopies(ttl_s=0)) == "archived"
        cold = []
        for _ in range(runs):
            components.store_redis.delete(keys.archive_read(game_id))  # (what a read left)
            cold.append(read_in_new_process(redis_url, game_id, live))
            assert cold[-1]["expanded"]
        rows.append({"game": game_type, "players": players, "options": options,
                     "moves": moves, "events": events, "cold": cold})
    return rows


def expansion(redis_url: str, clock: Any, runs: int = 30) -> list[dict[str, Any]]:
    """For each of `LONG_GAMES`: a game of about 500 moves archived, then its record
    expanded `runs` times (`expand_record`: decode, replay, the final table as read); the
    median CPU time (this process's)."""
    components = bootstrap(Settings(redis_url=redis_url), hooks=NoHooks(), clock=clock)
    games = components.service.games
    rows = []
    for n, (game_type, players, options) in enumerate(LONG_GAMES):
        tried = [play(components, game_type, players, options, 3000 + 10 * n + i)
                 for i in range(3)]
        game_id, moves = min(tried, key=lambda x: abs(x[1] - LONG_MOVES))
        assert archive_game(components.archives, games, game_id) == "archived"
        data = components.archives.archived(game_id)
        assert data is not None
        times = []
        for _ in range(runs):
            started = time.process_time()
            found = expand_record(data, games)
            times.append(time.process_time() - started)
        rows.append({"game": game_type, "players": players, "options": options,
                     "moves": moves, "events": found.version,
                     "ms": 1000 * statistics.median(times)})
    return rows


def read_in_new_process(redis_url: str, archived: str, live: str) -> dict[str, Any]:
    """`in_new_process` run by a new Python process, its figures."""
    spec = json.dumps({"url": redis_url, "archived": archived, "live": live})
    done = subprocess.run([sys.executable, "-m", "bench.archive", "--read-in-new-process",
                           spec], capture_output=True, text=True, timeout=300, check=True,
                          cwd=Path(__file__).resolve().parent.parent)
    found: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return found


def in_new_process(spec: dict[str, str], views: int = 30) -> dict[str, Any]:
    """What a restart costs a read (this process has just imported the service): the
    app's start, the process's first request (an unknown game: its connection to the
    store opens), the first read of the archived game (`GET /games/{id}`, a spectator),
    the same read again, then a live game's first view and the median of `views` more."""
    started = time.perf_counter()
    components = bootstrap(Settings(redis_url=spec["url"]), hooks=NoHooks())
    client = web_app(components, {"TESTING": True}).test_client()
    app_ms = 1000 * (time.perf_counter() - started)

    def timed(path: str, status: int = 200) -> float:
        started = time.perf_counter()
        answer = client.get(path)
        assert answer.status_code == status, answer.get_json()
        return 1000 * (time.perf_counter() - started)

    first_request = timed("/games/no-such-game", 404)
    first_read = timed(f"/games/{spec['archived']}")
    expanded = len(components.service.store.cache) > 0
    again = timed(f"/games/{spec['archived']}")
    live_first = timed(f"/games/{spec['live']}")
    view = statistics.median(timed(f"/games/{spec['live']}") for _ in range(views))
    # Then the game's log, as the web table's replay reads it (its first page of 1,000
    # events, with their sentences): the first such read of an archived game expands it.
    log_first = timed(f"/games/{spec['archived']}/events?limit=1000&words=true")
    log_again = timed(f"/games/{spec['archived']}/events?limit=1000&words=true")
    return {"app_ms": app_ms, "first_request_ms": first_request, "first_read_ms": first_read,
            "again_ms": again, "live_first_ms": live_first, "view_ms": view,
            "log_first_ms": log_first, "log_again_ms": log_again, "expanded": expanded}


def listing(redis_url: str, clock: Any, count: int = 20) -> dict[str, float]:
    """A page of `count` finished games (GET /games?status=finished), live, then archived
    and read by a new process (its first page, then again)."""
    components = bootstrap(Settings(redis_url=redis_url), hooks=NoHooks(), clock=clock)
    components.store_redis.flushdb()
    ids = [play(components, "trash", 3, {}, 2000 + n)[0] for n in range(count)]
    path = f"/games?status=finished&page_size={count}"
    client = web_app(components, {"TESTING": True}).test_client()
    live = []
    for _ in range(20):
        started = time.perf_counter()
        assert len(client.get(path).get_json()) == count
        live.append(1000 * (time.perf_counter() - started))
    for game_id in ids:
        archive_game(components.archives, components.service.games, game_id)
    firsts, again = [], []
    for _ in range(5):
        fresh = bootstrap(Settings(redis_url=redis_url), hooks=NoHooks(), clock=clock)
        client = web_app(fresh, {"TESTING": True}).test_client()
        client.get("/games/types")  # (the app's own first request: not the listing's)
        started = time.perf_counter()
        assert len(client.get(path).get_json()) == count
        firsts.append(1000 * (time.perf_counter() - started))
        assert len(fresh.service.store.cache) == 0  # nothing expanded
        for _ in range(4):
            started = time.perf_counter()
            client.get(path)
            again.append(1000 * (time.perf_counter() - started))
    return {"count": count, "live_ms": statistics.median(live),
            "first_ms": statistics.median(firsts), "again_ms": statistics.median(again)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per type")
    parser.add_argument("--memory-games", type=int, default=1000)
    parser.add_argument("--clock", choices=("paced", "post", "wall"), default="paced")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sections", default="sizes,memory,listing,first-read,cold,expand",
                        help="which figures (comma-separated)")
    parser.add_argument("--runs", type=int, default=3,
                        help="first-read: new processes for each case")
    parser.add_argument("--read-in-new-process", metavar="SPEC", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.read_in_new_process:
        print(json.dumps(in_new_process(json.loads(args.read_in_new_process))))
        return
    sections = set(args.sections.split(","))
    clock = {"paced": PacedClock, "post": PostClock}[args.clock](args.seed) \
        if args.clock != "wall" else time.time
    with tempfile.TemporaryDirectory() as folder, \
            RedisProcess(Path(folder) / "redis") as redis_server:
        url = redis_server.server.url
        if "sizes" in sections:
            sizes(url, clock, args.games, args.seed)
        if "memory" in sections:
            held = memory(url, args.memory_games, args.seed, clock)
            full = (held["full"] - held["base"]) / held["games"]
            archived = (held["archived"] - held["base"]) / held["games"]
            expired = (held["expired"] - held["base"]) / held["games"]
            print(f"\nused_memory, {held['games']} finished 3-seat one-round Ochs & Esel "
                  f"games: {held['base']:,} B empty, {held['full']:,} B before archiving, "
                  f"{held['archived']:,} B archived with the copies for their reads (their "
                  f"first day), {held['expired']:,} B once the copies expired; per game "
                  f"{full:,.0f} B -> {archived:,.0f} B the first day -> {expired:,.0f} B "
                  f"(a copy's MEMORY USAGE p50 {held['copy']:,.0f} B); 100,000 games "
                  f"(extrapolated): {full * 1e5 / 2**20:,.0f} MiB -> "
                  f"{expired * 1e5 / 2**20:,.0f} MiB")
        if "listing" in sections:
            page = listing(url, clock)
            print(f"\na page of {page['count']} finished Trash games (GET /games?status="
                  f"finished): live {page['live_ms']:.1f} ms; archived, a new process's "
                  f"first page {page['first_ms']:.1f} ms, then {page['again_ms']:.1f} ms "
                  f"(medians)")
        if "first-read" in sections:
            print_first_reads(first_read(url, clock, args.runs))
        if "cold" in sections:
            print("\nFirst read of an archived game with no copy (the record expanded) by "
                  "a new process, against a view of a live game of the same type in that "
                  "process; medians of the runs\n")
            print("| game | seats | moves | events | cold first read ms | a view ms | "
                  "cold / view | its copy, by default |")
            print("|---|---|---|---|---|---|---|---|")
            for r in cold_reads(url, clock, args.runs):
                cold = statistics.median(x["first_read_ms"] for x in r["cold"])
                view = statistics.median(x["view_ms"] for x in r["cold"])
                print(f"| {r['game']} {r['options'] or ''} | {r['players']} | {r['moves']} "
                      f"| {r['events']:,} | {cold:.2f} | {view:.2f} | {cold / view:.1f} | "
                      f"{kept_for(r['events'])} |")
        if "expand" in sections:
            print("\nExpanding an archived game of about 500 moves (the record decoded, "
                  "every step replayed, the final table as read), median CPU time of 30\n")
            print("| game | moves | events | expand ms | µs an event | µs a move |")
            print("|---|---|---|---|---|---|")
            for r in expansion(url, clock):
                print(f"| {r['game']} {r['options'] or ''} | {r['players']} seats, "
                      f"{r['moves']} | {r['events']:,} | {r['ms']:.2f} | "
                      f"{1000 * r['ms'] / r['events']:.1f} | "
                      f"{1000 * r['ms'] / r['moves']:.1f} |")


def kept_for(events: int) -> str:
    """How long a game of `events` events keeps its copy for reads, by default."""
    return "for ever" if math.isinf(DEFAULT_COPIES.ttl_for(events)) else "a day"


def print_first_reads(rows: list[dict[str, Any]]) -> None:
    print("\nFirst read of an archived game by a new process (after its imports, its app's "
          "start and a first request), against a view of a live game of the same type in "
          "that process; medians of the runs. Archived: read first right after its "
          "archiving (the copy kept with the record: for these long games, by default, "
          "as long as the record); cold: no copy (the record is expanded: a game this "
          "long whose copy is kept only a day, archived over a day ago and not read "
          "since); read: read before the restart (the copy its "
          "expansion kept).\n")
    print("| game | moves | events | app start ms | first request ms | first read, "
          "archived ms | first read, cold ms | first read, read ms | again ms | a view of "
          "a live game ms | archived / view | cold / view | read / view | copy B |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        def med(runs: list[dict[str, Any]], key: str) -> float:
            return statistics.median(x[key] for x in runs)
        runs = r["archived"] + r["cold"] + r["warm"]
        view = med(runs, "view_ms")
        archived = med(r["archived"], "first_read_ms")
        cold, warm = med(r["cold"], "first_read_ms"), med(r["warm"], "first_read_ms")
        print(f"| {r['game']} {r['options'] or ''} | {r['players']} seats, {r['moves']} | "
              f"{r['events']:,} | {med(runs, 'app_ms'):.0f} | "
              f"{med(runs, 'first_request_ms'):.1f} | {archived:.2f} | {cold:.1f} | "
              f"{warm:.2f} | {med(runs, 'again_ms'):.2f} | {view:.2f} | "
              f"{archived / view:.1f} | {cold / view:.0f} | {warm / view:.1f} | "
              f"{r['copy_bytes']:,} |")
    print("\nThe same processes then read the game's log as the replay does (GET "
          "/games/{id}/events?limit=1000&words=true: its first 1,000 events with their "
          "sentences): the first such read, and the next, before archiving (the log as "
          "stored) and archived with the copy (the first such read expands the record).\n")
    print("| game | events | first log read, before archiving ms | again ms | first log read, "
          "archived ms | again ms | archived / before | in views |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        def median_of(runs: list[dict[str, Any]], key: str) -> float:
            return statistics.median(x[key] for x in runs)
        view = median_of(r["archived"] + r["cold"] + r["warm"], "view_ms")
        before = median_of(r["before"], "log_first_ms")
        archived = median_of(r["archived"], "log_first_ms")
        print(f"| {r['game']} {r['options'] or ''} | {r['events']:,} | {before:.1f} | "
              f"{median_of(r['before'], 'log_again_ms'):.1f} | {archived:.1f} | "
              f"{median_of(r['archived'], 'log_again_ms'):.1f} | {archived / before:.2f} | "
              f"{archived / view:.0f} |")


def sizes(url: str, clock: Any, games: int, seed: int) -> None:
    """The bytes of each type's games before and after archiving (a table)."""
    components = bootstrap(Settings(redis_url=url), hooks=NoHooks(), clock=clock)
    rows = per_type(components, games, seed)
    print(f"\n{games} bot games per row\n")
    print("| game | seats | events p50 | moves p50 | before p50 / p95 B | after p50 / p95 B "
          "(record) | of which summary p50 B | B/event p50 | bits/choice p50 (entropy) | "
          "archive ms p50 | expand ms p50 | copy for reads p50 B (first day) | "
          "records within the goal (events + 200) | "
          "kept: record + copy kept for ever p50 B (goal: events + 200) | within the goal "
          "| all copies kept for ever: record + copy p50 B | within the goal |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        med = {k: statistics.median(v) for k, v in r.items() if isinstance(v, list)}
        per_event = statistics.median(a / e for a, e in zip(r["record"], r["events"],
                                                              strict=True))
        bits = statistics.median(b / c for b, c in zip(r["bits"], r["choices"],
                                                     strict=True) if c)
        entropy = statistics.median(e / c for e, c in zip(r["entropy"], r["choices"],
                                                        strict=True) if c)
        # What stays: the record, and the copy of a game long enough to keep it as long as
        # the record (the default); with `DONKEYPOST_ARCHIVE_READ_TTL_S=forever`, every
        # game's copy (their lengths).
        long = DEFAULT_COPIES.kept_from_events or math.inf
        kept = [a + (b if e >= long else 0)
                for a, b, e in zip(r["record"], r["copy_len"], r["events"], strict=True)]
        forever = [a + b for a, b in zip(r["record"], r["copy_len"], strict=True)]
        goal = [e + 200 for e in r["events"]]
        print(f"| {r['game']} {r['options'] or ''} | {r['players']} | "
              f"{med['events']:.0f} | {med['moves']:.0f} | "
              f"{med['before']:,.0f} / {pct(r['before'], .95):,.0f} | "
              f"{med['after']:,.0f} / {pct(r['after'], .95):,.0f} "
              f"({med['record']:.0f} / {pct(r['record'], .95):.0f}) | "
              f"{med['summary']:.0f} | {per_event:.2f} | "
              f"{bits:.2f} ({entropy:.2f}) | {med['archive_ms']:.1f} | "
              f"{med['expand_ms']:.1f} | {med['copy']:,.0f} ({med['copy_len']:,.0f}) | "
              f"{sum(k <= g for k, g in zip(r['record'], goal, strict=True))}/{len(goal)} | "
              f"{statistics.median(kept):,.0f} ({statistics.median(goal):,.0f}) | "
              f"{sum(k <= g for k, g in zip(kept, goal, strict=True))}/{len(kept)} | "
              f"{statistics.median(forever):,.0f} | "
              f"{sum(k <= g for k, g in zip(forever, goal, strict=True))}/{len(kept)} |")


if __name__ == "__main__":
    main()
