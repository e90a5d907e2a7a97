"""The archive's figures: what a finished game costs before and after archiving, the bits
of each choice against the information in it, archiving and expansion times, the memory of
many finished games, and the first read of an archived game against a view.

    python -m bench.archive [--games 20] [--memory-games 1000] [--clock paced|post|wall]

Games are bots-only (`random` and `basic` seats), played through the service on an
embedded Redis exactly as `donkeypost serve` runs it (AOF on). `--clock paced` stamps the
moves 5 ms to 5 s apart (log-uniform: bots on busy workers, and people who answer at
once); `post` a second to a day apart (people playing by post); `wall` uses this
process's clock (moves a fraction of a millisecond apart: the times cost least). Bytes
before = `MEMORY USAGE` of every key of the game (log, snapshot, checkpoints, seed);
after = the record's `MEMORY USAGE` (and its length). Prints a Markdown table per figure.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import msgspec

from domain import bots
from domain.archive.archiving import archive_game
from domain.archive.explain import explain
from domain.archive.reading import expand_record
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
         seed: int) -> tuple[str, int]:
    service = components.service
    rng = random.Random(seed)
    seats = [{"kind": "bot", "level": ("random", "basic")[i % 2]} for i in range(players)]
    table = service.create(game_type, options, seats, deadline_s=None)
    game = components.service.games.game(game_type)
    moves = 0
    while table.status == "active":
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
            "entropy", "archive_ms", "expand_ms")}
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
    archived = int(client.info("memory")["used_memory"])
    return {"games": count, "base": base, "full": full, "archived": archived}


def first_read(redis_url: str, clock: Any) -> dict[str, float]:
    """A long game (Trash, 3 seats: several hundred moves): a view of it, and the first
    read of it archived by a process that never expanded it."""
    components = bootstrap(Settings(redis_url=redis_url), hooks=NoHooks(), clock=clock)
    best = ("", 0)
    for n in range(6):
        found = play(components, "trash", 3, {}, 1000 + n)
        best = max(best, found, key=lambda x: x[1])
    game_id, moves = best
    client = web_app(components, {"TESTING": True}).test_client()
    views = []
    for _ in range(20):
        started = time.perf_counter()
        assert client.get(f"/games/{game_id}").status_code == 200
        views.append(1000 * (time.perf_counter() - started))
    states = []
    version = components.service.load(game_id)[0].version
    for seq in range(version - 120, version, 12):
        started = time.perf_counter()
        assert client.get(f"/games/{game_id}/states/{seq}").status_code == 200
        states.append(1000 * (time.perf_counter() - started))
    archive_game(components.archives, components.service.games, game_id)
    firsts = []
    for _ in range(5):
        fresh = bootstrap(Settings(redis_url=redis_url), hooks=NoHooks(), clock=clock)
        client = web_app(fresh, {"TESTING": True}).test_client()
        started = time.perf_counter()
        assert client.get(f"/games/{game_id}").status_code == 200
        firsts.append(1000 * (time.perf_counter() - started))
    return {"moves": moves, "events": version, "view_ms": statistics.median(views),
            "state_ms": statistics.median(states), "first_read_ms": statistics.median(firsts)}


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
    args = parser.parse_args()
    clock = {"paced": PacedClock, "post": PostClock}[args.clock](args.seed) \
        if args.clock != "wall" else time.time
    with tempfile.TemporaryDirectory() as folder, \
            RedisProcess(Path(folder) / "redis") as redis_server:
        url = redis_server.server.url
        components = bootstrap(Settings(redis_url=url), hooks=NoHooks(), clock=clock)
        rows = per_type(components, args.games, args.seed)
        print(f"\n{args.games} bot games per row, clock {args.clock}\n")
        print("| game | seats | events p50 | moves p50 | before p50 / p95 B | after p50 / p95 B "
              "(record) | of which summary p50 B | B/event p50 | bits/choice p50 (entropy) | "
              "archive ms p50 | expand ms p50 |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            med = {k: statistics.median(v) for k, v in r.items() if isinstance(v, list)}
            per_event = statistics.median(a / e for a, e in zip(r["record"], r["events"],
                                                                  strict=True))
            bits = statistics.median(b / c for b, c in zip(r["bits"], r["choices"],
                                                         strict=True) if c)
            entropy = statistics.median(e / c for e, c in zip(r["entropy"], r["choices"],
                                                            strict=True) if c)
            print(f"| {r['game']} {r['options'] or ''} | {r['players']} | "
                  f"{med['events']:.0f} | {med['moves']:.0f} | "
                  f"{med['before']:,.0f} / {pct(r['before'], .95):,.0f} | "
                  f"{med['after']:,.0f} / {pct(r['after'], .95):,.0f} "
                  f"({med['record']:.0f} / {pct(r['record'], .95):.0f}) | "
                  f"{med['summary']:.0f} | {per_event:.2f} | "
                  f"{bits:.2f} ({entropy:.2f}) | {med['archive_ms']:.1f} | "
                  f"{med['expand_ms']:.1f} |")
        held = memory(url, args.memory_games, args.seed, clock)
        full = (held["full"] - held["base"]) / held["games"]
        archived = (held["archived"] - held["base"]) / held["games"]
        print(f"\nused_memory, {held['games']} finished 3-seat one-round Ochs & Esel games: "
              f"{held['base']:,} B empty, {held['full']:,} B before archiving, "
              f"{held['archived']:,} B after; per game {full:,.0f} B -> {archived:,.0f} B; "
              f"100,000 games (extrapolated): {full * 1e5 / 2**20:,.0f} MiB -> "
              f"{archived * 1e5 / 2**20:,.0f} MiB")
        page = listing(url, clock)
        print(f"\na page of {page['count']} finished Trash games (GET /games?status=finished):"
              f" live {page['live_ms']:.1f} ms; archived, a new process's first page "
              f"{page['first_ms']:.1f} ms, then {page['again_ms']:.1f} ms (medians)")
        read = first_read(url, clock)
        print(f"\nfirst read of an archived game of {read['events']} events "
              f"({read['moves']} moves) by a new process: {read['first_read_ms']:.1f} ms; "
              f"a view of it (GET /games/{{id}}) {read['view_ms']:.2f} ms, a replayed state "
              f"(GET /games/{{id}}/states/{{seq}}) {read['state_ms']:.2f} ms (medians)")


if __name__ == "__main__":
    main()
