"""Clocks: a simulated week of correspondence play, and what a clock costs a move.

    python -m bench.clocks [--games 1000] [--players 300] [--days 7] [--step-min 7]
                           [--cost-moves 1500] [--json F] [--quiet]

`week` — `--games` 3-seat Ochs & Esel games between `--players` players, each game on a
correspondence clock (a bank of 2 days, 1 day more each time a seat's turn passes, vacations
stopping it), played for `--days` days of a fake clock moved `--step-min` minutes at a time,
in process on an embedded Redis: the service with the hooks `donkeypost serve` wires (the
timers armed by the appends themselves), and after each step a real RQ worker in burst mode
(`donkeypost worker`'s, on the fake clock) runs what the timers released. The players: most
answer within hours, some take days (and miss some turns), some never come (their seats
time out, then are away and played by the bot), some go on vacation for 2 to 4 days (a
third of them come back early), and now and then one takes a move back (when the game
allows). Then every game's log is folded again, independently of the simulation's own
bookkeeping, seat by seat and stretch by stretch of waiting: each stretch whose deadline
passed must end with exactly one `turn_timed_out`, not before the deadline and not while its
player was on vacation (checked against the vacations the players really took); a stretch
that ended later than its deadline plus one step without one is a missed clock.

`cost` — one-round games of 3-seat Ochs & Esel, every seat human, through `GameService.act`
and the hooks `donkeypost serve` wires (the timers changed by the append itself), each game
played under each time control in turn with the same deal and the same moves (so what
differs is the clock's): this process's CPU per move, Redis's CPU per move (`INFO cpu`),
round trips to Redis per move (counted on the connections), and the bytes a move adds to
the append-only file (parsed back: by command and kind of key, the timers' share apart).

`undo` — what a move that may still be taken back costs a snapshot: its size after each
move of one game of each kind as written (the take-back's marks only), as it would be with
the table before the move in it (as snapshots were written before they left that to the
log), and with no take-back at all; and how many moves leave one (snapshots are written
every `SNAPSHOT_EVERY` events).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import redis
from redis.connection import AbstractConnection
from rich.console import Console
from rich.table import Table as RichTable
from rq.registry import FinishedJobRegistry

import domain.service.create as creating
from bench import jsonfile
from bench.aof_commands import breakdown
from bench.context import BenchContext
from bench.progress import Steps
from bench.stats import percentile
from domain.players.records import Player
from domain.service import GameService
from domain.table import Table, encode_table, evolve_table, may_take_back, to_act
from donkeypost.bootstrap import Components, bootstrap, rq_worker
from donkeypost.settings import Settings
from workers.hooks import DEADLINES
from workers.jobs import CLOCK_TOLERANCE_S
from workers.plan import Duty

GAME = "ochs-und-esel"
SEATS = 3
HOUR, DAY = 3600.0, 86400.0
T0 = 1_800_000_000.0  # a Friday in 2027
CORRESPONDENCE = {"kind": "correspondence", "bank_s": 2 * DAY, "increment_s": DAY,
                  "vacation": True}
CONTROLS: dict[str, dict[str, Any]] = {
    "per_move (3 days)": {"kind": "per_move", "deadline_s": 3 * DAY},
    "correspondence (3 days + 1)": {"kind": "correspondence", "bank_s": 3 * DAY,
                                    "increment_s": DAY},
    "none": {"kind": "none"},
}


class FakeClock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


# --- counting round trips ------------------------------------------------------------------
class RoundTrips:
    """Round trips to Redis from this process: each request sent on a connection (a
    pipeline is one)."""

    def __init__(self) -> None:
        self.count = 0

    @contextmanager
    def counting(self) -> Iterator[None]:
        send = AbstractConnection.send_packed_command

        def counted(conn: AbstractConnection, command: Any, check_health: bool = True) -> None:
            self.count += 1
            send(conn, command, check_health)

        AbstractConnection.send_packed_command = counted  # type: ignore[method-assign]
        try:
            yield
        finally:
            AbstractConnection.send_packed_command = send  # type: ignore[method-assign]


# --- the week ------------------------------------------------------------------------------
@dataclass
class Person:
    player: Player
    kind: str  # "prompt", "slow", "absent"
    vacation_at: float | None = None  # when they will go (None: they will not)
    vacation_days: int = 0
    back_early_after: float | None = None  # days into the vacation they come back
    vacations: list[tuple[float, float]] = field(default_factory=list)  # [start, end)


@dataclass
class Week:
    moves: int = 0
    take_backs: int = 0
    refused_out_of_time: int = 0
    vacations: int = 0
    vacations_ended_early: int = 0
    jobs: Counter[str] = field(default_factory=Counter)


def _people(service: GameService, count: int, rng: random.Random, days: float) -> list[Person]:
    people = []
    for n in range(count):
        player, _key = service.register_player(f"Player {n}")
        roll = rng.random()
        kind = "prompt" if roll < 0.7 else "slow" if roll < 0.9 else "absent"
        person = Person(player, kind)
        if kind != "absent" and rng.random() < 0.25:
            person.vacation_at = T0 + rng.uniform(0.2, days - 1.0) * DAY
            person.vacation_days = rng.randint(2, 4)
            if rng.random() < 1 / 3:
                person.back_early_after = rng.uniform(0.3, person.vacation_days - 0.5)
        people.append(person)
    return people


def _think_s(person: Person, rng: random.Random) -> float | None:
    if person.kind == "absent":
        return None
    if person.kind == "prompt":
        return rng.expovariate(1 / (4 * HOUR))
    return rng.expovariate(1 / (40 * HOUR))  # slow: a bank of two days is often too little


def _create_games(service: GameService, people: list[Person], games: int,
                  rng: random.Random) -> list[str]:
    ids = []
    for _ in range(games):
        at_table = rng.sample(people, SEATS)
        table = service.create(GAME, {"rounds": 3}, [
            {"kind": "human", "me": True},
            *({"kind": "human", "invite": p.player.name} for p in at_table[1:])],
            time_control=CORRESPONDENCE, by=at_table[0].player)
        for p in at_table[1:]:
            service.join(table.id, None, p.player)
        ids.append(table.id)
    return ids


def simulate_week(components: Components, clock: FakeClock, games: int, players: int,
                  days: float, step_s: float, seed: int, steps: Steps) -> dict[str, Any]:
    service = components.service
    game = service.games.game(GAME)
    rng = random.Random(seed)
    people = _people(service, players, rng, days)
    by_id = {p.player.id: p for p in people}
    with steps.step("week: games", total=1):
        ids = _create_games(service, people, games, rng)
    worker = rq_worker(components, [DEADLINES])
    finished = FinishedJobRegistry(queue=components.rq_hooks.queues[DEADLINES])
    week = Week()
    plans: dict[tuple[str, int], float] = {}  # (game, seat) -> when its player acts
    planned_at: dict[tuple[str, int], int] = {}  # the version the plan was made at

    def plan(table: Table) -> None:
        if table.status != "active":
            return
        for seat in to_act(table, game):
            key = (table.id, seat)
            if planned_at.get(key) == table.version or table.seats[seat].player is None:
                continue
            think = _think_s(by_id[table.seats[seat].player], rng)
            planned_at[key] = table.version
            if think is None:
                plans.pop(key, None)
            elif key not in plans:
                plans[key] = clock.now + think

    for game_id in ids:
        plan(service.load(game_id)[0])
    end = T0 + days * DAY
    total_steps = int((end - T0) / step_s)
    with steps.step(f"week: {days:g} days of {step_s / 60:g} minutes", total=total_steps) as step:
        while clock.now < end:
            clock.now += step_s
            _vacations(service, people, clock.now, week)
            for key in sorted(k for k, due in plans.items() if due <= clock.now):
                game_id, seat = key
                del plans[key]
                table, _ = service.load(game_id)
                person = by_id[table.seats[seat].player or ""]
                if person.vacations and person.vacations[-1][1] > clock.now:
                    plans[key] = person.vacations[-1][1] + rng.uniform(0, 2 * HOUR)
                    continue
                if table.status != "active" or seat not in to_act(table, game):
                    continue
                deadline = table.deadline(seat)
                if deadline is not None and clock.now > deadline:
                    week.refused_out_of_time += 1  # too late: the clock's job plays it
                    continue
                legal = game.legal_actions(table.game, seat)
                action = msgspec.to_builtins(rng.choice(legal))
                table = service.act(game_id, seat, action).table
                week.moves += 1
                if may_take_back(table, seat) and rng.random() < 0.05:
                    table = service.take_back(game_id, seat)
                    week.take_backs += 1
                    planned_at.pop(key, None)
                plan(table)
            components.rq_hooks.release_due()
            worker.work(burst=True, logging_level="WARNING")
            for job_id in finished.get_job_ids():
                job = worker.queue_class(DEADLINES, connection=worker.connection) \
                    .fetch_job(job_id)
                week.jobs[f"{job_id.split('-')[0]} {job.return_value() if job else '?'}"] += 1
                finished.remove(job_id, delete_job=True)
                plan(service.load(Duty.from_job_id(job_id, 0.0).game_id)[0])
            step.advance()
    checked = check_clocks(service, ids, people, end, step_s)
    return {"games": games, "players": players, "days": days, "step_s": step_s,
            "moves_by_players": week.moves, "take_backs": week.take_backs,
            "late_moves_not_sent": week.refused_out_of_time, "vacations": week.vacations,
            "vacations_ended_early": week.vacations_ended_early,
            "jobs": dict(sorted(week.jobs.items())), **checked}


def _vacations(service: GameService, people: list[Person], now: float, week: Week) -> None:
    for person in people:
        if person.vacation_at is not None and person.vacation_at <= now:
            person.vacation_at = None
            service.start_vacation(person.player, person.vacation_days)
            person.vacations.append((now, now + person.vacation_days * DAY))
            week.vacations += 1
            if person.back_early_after is not None:
                person.back_early_after = now + person.back_early_after * DAY
        elif person.back_early_after is not None and not person.vacation_at and \
                person.vacations and person.back_early_after <= now:
            person.back_early_after = None
            service.end_vacation(person.player)
            start, _end = person.vacations[-1]
            person.vacations[-1] = (start, now)
            week.vacations_ended_early += 1


def check_clocks(service: GameService, ids: list[str], people: list[Person], end: float,
                 step_s: float) -> dict[str, Any]:
    """Every game's log folded again, seat by seat, stretch by stretch of waiting."""
    on_vacation = {p.player.id: p.vacations for p in people}
    late = step_s + 2 * CLOCK_TOLERANCE_S  # a timer fires at the first pump after it is due
    out: Counter[str] = Counter({k: 0 for k in (
        "stretches", "stretches_paused_by_a_vacation", "fired", "fired_early",
        "fired_on_vacation", "missed", "due_within_a_vacation_held")})
    lags: list[float] = []
    for game_id in ids:
        table: Table | None = None
        log = service.store.read(game_id)
        waiting: dict[int, float] = {}  # seat -> its deadline at the previous event
        paused: set[int] = set()  # seats whose stretch met a vacation
        for ev in log:
            if table is not None and table.status == "active":
                for seat, due in list(waiting.items()):
                    timed_out = ev.type == "turn_timed_out" and ev.data["seat"] == seat
                    acted = ev.actor == seat and ev.type != "move_taken_back"
                    if timed_out:
                        out["fired"] += 1
                        lags.append(ev.at - due)
                        if ev.at < due - CLOCK_TOLERANCE_S:
                            out["fired_early"] += 1
                        player = table.seats[seat].player or ""
                        if any(a <= ev.at < b for a, b in on_vacation.get(player, [])) or \
                                table.vacation_until.get(seat, 0.0) > ev.at:
                            out["fired_on_vacation"] += 1
                    elif acted and ev.at > due + late:
                        out["missed"] += 1  # (a move this late is refused: not expected)
                    if ev.type == "vacation_started" and ev.data["seat"] == seat and \
                            ev.at <= due < ev.data["until"]:
                        out["due_within_a_vacation_held"] += 1  # it would have run out
            table = evolve_table(table, ev, service.games.game(GAME))
            before = waiting
            waiting = {s: d for s in range(len(table.seats))
                       if (d := table.deadline(s)) is not None}
            for seat in waiting:
                if seat not in before:
                    out["stretches"] += 1
                if table.vacation_until.get(seat, 0.0) > ev.at and seat not in paused:
                    paused.add(seat)
                    out["stretches_paused_by_a_vacation"] += 1
            paused &= set(waiting)
        for due in waiting.values():
            if due + late < end:
                out["missed"] += 1  # due before the week's end, never fired
    out["due"] = out["fired"] + out["missed"]
    return {"clocks": dict(out), "fired_lag_s": {
        "p50": percentile(lags, 50), "max": max(lags) if lags else None}}


# --- the cost of a clock per move ------------------------------------------------------------
@contextmanager
def _seeded(seed: str) -> Iterator[None]:
    """New games dealt from `seed` (the same deal under each time control)."""
    made = creating.new_seed
    creating.new_seed = lambda: seed
    try:
        yield
    finally:
        creating.new_seed = made


def measure_cost(components: Components, moves: int, seed: int,
                 steps: Steps) -> dict[str, Any]:
    """The same games (the same deal, the same moves) under each time control in turn, one
    game at a time: what differs between them is the clock's."""
    service = components.service
    client = components.store_redis
    game = service.games.game(GAME)
    trips = RoundTrips()
    where = Path(client.config_get("dir")["dir"]) / \
        client.config_get("appendfilename")["appendfilename"]
    rows: dict[str, Counter[str]] = {name: Counter() for name in CONTROLS}
    with steps.step("cost: the same games under each time control", total=moves) as step:
        n = 0
        while rows[next(iter(CONTROLS))]["moves"] < moves:
            n += 1
            for name, control in CONTROLS.items():
                row = rows[name]
                with _seeded(f"bench-clocks-{seed}-{n}"):
                    table = service.create(GAME, {"rounds": 1, "first_player": 0},
                                           [{"kind": "human"}] * SEATS, time_control=control)
                    for p in range(SEATS):
                        *_, table = service.join(table.id, f"p{p}")
                rng = random.Random(n)
                client.execute_command("PING")
                aof0, cpu0 = _aof(client), _redis_cpu(client)
                spent, before, played = 0.0, trips.count, 0
                with trips.counting():
                    while table.status == "active":
                        seat = min(to_act(table, game))
                        action = msgspec.to_builtins(
                            rng.choice(game.legal_actions(table.game, seat)))
                        t0 = time.process_time()
                        table = service.act(table.id, seat, action).table
                        spent += time.process_time() - t0
                        played += 1
                client.execute_command("PING")  # the AOF is written before the reply
                aof1, cpu1 = _aof(client), _redis_cpu(client)
                row["moves"] += played
                row["cpu_ns"] += int(spent * 1e9)
                row["redis_cpu_ns"] += int((cpu1 - cpu0) * 1e9)
                row["round_trips"] += trips.count - before - 2  # (less the two PINGs)
                if aof1[1] == aof0[1]:  # (no rewrite meanwhile)
                    with where.open("rb") as aof:
                        aof.seek(aof0[0])
                        written = aof.read(aof1[0] - aof0[0])
                    for label, size in breakdown(written).items():
                        row[f"aof {label}"] += size
                    row["aof_moves"] += played
            step.advance(played)
    return {name: _cost_row(row) for name, row in rows.items()}


def _cost_row(row: Counter[str]) -> dict[str, Any]:
    moves = max(row["moves"], 1)
    aof_moves = max(row["aof_moves"], 1)
    aof = {k[4:]: v / aof_moves for k, v in row.items() if k.startswith("aof ")}
    return {"moves": row["moves"], "cpu_us_per_move": row["cpu_ns"] / moves / 1000,
            "redis_cpu_us_per_move": row["redis_cpu_ns"] / moves / 1000,
            "round_trips_per_move": row["round_trips"] / moves,
            "aof_bytes_per_move": sum(aof.values()),
            "aof_timer_bytes_per_move": sum(v for k, v in aof.items() if "timers" in k),
            "aof_by_command": dict(sorted(aof.items(), key=lambda kv: -kv[1]))}


# --- what keeping a move that may be taken back costs a snapshot ----------------------------
UNDO_GAMES = (("ochs-und-esel", 3, {"rounds": 1}), ("canyon-donkeys", 4, None), ("trash", 2, None))


def measure_undo(components: Components, seed: int) -> dict[str, Any]:
    """Per game: a snapshot's size after each move as written, with the table before a
    move that may be taken back in it, and without any take-back; and how often a move
    leaves one."""
    service = components.service
    out: dict[str, Any] = {}
    for game_type, players, options in UNDO_GAMES:
        game = service.games.game(game_type)
        table = service.create(game_type, options, [{"kind": "human"}] * players,
                               deadline_s=None)
        for n in range(players):
            *_, table = service.join(table.id, f"p{n}")
        rng = random.Random(seed)
        sizes, whole, bare, kept = [], [], [], 0
        while table.status == "active" and len(sizes) < 400:
            seat = min(to_act(table, game))
            action = msgspec.to_builtins(rng.choice(game.legal_actions(table.game, seat)))
            table = service.act(table.id, seat, action).table
            sizes.append(len(encode_table(table)))
            whole.append(len(msgspec.json.encode(table)))  # (the table before it included)
            bare.append(len(encode_table(msgspec.structs.replace(table, undo=None))))
            kept += table.undo is not None
        out[game_type] = {"moves": len(sizes), "snapshot_bytes": sum(sizes) / len(sizes),
                          "with_the_table_before": sum(whole) / len(whole),
                          "without_undo": sum(bare) / len(bare),
                          "moves_leaving_an_undo": kept / len(sizes)}
    return out


def _aof(client: redis.Redis) -> tuple[int, int]:
    info: dict[str, Any] = client.info("persistence")
    return int(info.get("aof_current_size", 0)), int(info.get("aof_rewrites", 0))


def _redis_cpu(client: redis.Redis) -> float:
    info: dict[str, Any] = client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


# --- the command -----------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.clocks", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--days", type=float, default=7.0)
    parser.add_argument("--step-min", type=float, default=7.0,
                        help="the fake clock's step (not a divisor of the banks: timers "
                             "then fire up to a step after they are due)")
    parser.add_argument("--cost-moves", type=int, default=3000,
                        help="moves under each time control (whole games)")
    parser.add_argument("--parts", default="week,cost,undo")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", dest="json_file", type=Path, default=None)
    parser.add_argument("--quiet", action="store_true", help="no progress display")
    args = parser.parse_args(argv)
    console = Console()
    parts = set(args.parts.split(","))
    result: dict[str, Any] = {}
    with BenchContext() as ctx, Steps(console, args.quiet) as steps:
        clock = FakeClock(T0)
        components = bootstrap(Settings(redis_url=ctx.redis.url), clock=clock,
                               games=ctx.games)
        if "week" in parts:
            t0 = time.monotonic()
            result["week"] = simulate_week(components, clock, args.games, args.players,
                                           args.days, args.step_min * 60, args.seed, steps)
            result["week"]["wall_s"] = time.monotonic() - t0
        if "undo" in parts:
            result["undo"] = measure_undo(bootstrap(Settings(redis_url=ctx.redis.url),
                                                    games=ctx.games), args.seed)
        if "cost" in parts:
            cost = bootstrap(Settings(redis_url=ctx.redis.url), games=ctx.games)
            result["cost"] = measure_cost(cost, args.cost_moves, args.seed, steps)
    _print(console, result)
    if args.json_file:
        jsonfile.write(args.json_file, result)
        console.print(f"results: {args.json_file}")
    return 0


def _print(console: Console, result: dict[str, Any]) -> None:
    if "week" in result:
        console.print_json(data=result["week"])
    if "undo" in result:
        console.print_json(data=result["undo"])
    if "cost" in result:
        table = RichTable(title="what a clock costs a move (GameService.act + hooks)")
        for column in ("time control", "CPU µs", "Redis CPU µs", "round trips",
                       "AOF bytes", "of which timers"):
            table.add_column(column, justify="right")
        for name, row in result["cost"].items():
            table.add_row(name, f"{row['cpu_us_per_move']:.0f}",
                          f"{row['redis_cpu_us_per_move']:.0f}",
                          f"{row['round_trips_per_move']:.2f}",
                          f"{row['aof_bytes_per_move']:.0f}",
                          f"{row['aof_timer_bytes_per_move']:.0f}")
        console.print(table)


if __name__ == "__main__":
    raise SystemExit(main())
