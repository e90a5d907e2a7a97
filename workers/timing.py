"""How much the workers' bookkeeping costs next to a move (printed, never asserted).

    python -m workers.timing [--moves 2000] [--games 1000] [--redis-url URL]

Plays Ochs & Esel games of three humans with the play-by-post deadline, so every move
supersedes one timer and arms the next, and reports per move:
- a move without hooks (load, decide, one atomic append);
- the RQ hooks after it (drop the timer of the version before, arm the next: one round
  trip);
- a move with the hooks;
then the time a starting worker spends rebuilding the jobs of `--games` active games, and
the memory a timer takes in Redis. With no `--redis-url` an embedded Redis is started in a
temporary folder (a given server gets test games and jobs written into it).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
import redis

from domain import registry
from domain.connection import connect, embedded_url, start_embedded
from domain.events import Event
from domain.service import DEFAULT_DEADLINE_S, GameService
from domain.store import RedisEventStore, keys
from domain.table import Table, to_act
from workers.hooks import TIMERS, RqHooks


class TimedHooks:
    """Hooks that time the hooks they wrap."""

    def __init__(self, inner: RqHooks) -> None:
        self.inner = inner
        self.seconds: list[float] = []

    def after_append(self, table: Table, new_events: Sequence[Event]) -> None:
        started = time.perf_counter()
        self.inner.after_append(table, new_events)
        self.seconds.append(time.perf_counter() - started)


def _new_game(service: GameService) -> Table:
    table = service.create("ochs-und-esel", {"rounds": 20}, [{"kind": "human"}] * 3,
                           deadline_s=DEFAULT_DEADLINE_S)
    for name in ("ann", "bob", "cy"):
        _seat, _token, table = service.join(table.id, name)
    return table


def play_moves(service: GameService, moves: int) -> list[float]:
    """Seconds per move over `moves` moves (the first legal action; new games as needed)."""
    game = registry.get_game("ochs-und-esel")
    table = _new_game(service)
    out: list[float] = []
    while len(out) < moves:
        if table.status != "active":
            table = _new_game(service)
        seat = min(to_act(table, game))
        action = msgspec.to_builtins(game.legal_actions(table.game, seat)[0])
        started = time.perf_counter()
        table = service.act(table.id, seat, action).table
        out.append(time.perf_counter() - started)
    return out


def interleaved(plain: GameService, hooked: GameService, timed: TimedHooks, moves: int,
                chunk: int = 50) -> tuple[list[float], list[float], list[float]]:
    """Moves without and with the hooks, in alternating chunks so that both meet the same
    load on a shared machine: (without, with, the hooks alone within `with`)."""
    without: list[float] = []
    with_hooks: list[float] = []
    while len(without) < moves:
        without += play_moves(plain, chunk)
        with_hooks += play_moves(hooked, chunk)
    hooks = timed.seconds[-len(with_hooks):]
    return without, with_hooks, hooks


def rebuild_seconds(client: redis.Redis, games: int) -> tuple[float, int]:
    """Seconds for a starting worker's rebuild over `games` active games whose timers were
    all lost, and the number of timers it re-armed."""
    service = GameService(RedisEventStore(client))  # no hooks: the timers are "lost"
    client.delete(keys.by_status("active"))
    for _ in range(games):
        _new_game(service)
    hooks = RqHooks(client)
    started = time.perf_counter()
    counts = hooks.rebuild(service.active_games())
    return time.perf_counter() - started, counts.enqueued + counts.armed


def _ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000.0


def _row(name: str, values: list[float]) -> str:
    return (f"{name:<38} {_ms(values, 0.5):8.3f} {_ms(values, 0.99):8.3f} "
            f"{statistics.fmean(values) * 1000.0:8.3f}")


def measure(client: redis.Redis, moves: int, games: int,
            out: Callable[[str], Any] = print) -> None:
    plain = GameService(RedisEventStore(client))
    timed = TimedHooks(RqHooks(client))
    hooked = GameService(RedisEventStore(client), hooks=timed)
    interleaved(plain, hooked, timed, min(200, moves))  # warm up: scripts, connections
    without, with_hooks, hooks = interleaved(plain, hooked, timed, moves)
    out(f"{len(without)} + {len(with_hooks)} moves of 3-player Ochs & Esel, every seat "
        "human, deadline 3 days (alternating chunks of 50)")
    out(f"{'ms per move':<38} {'p50':>8} {'p99':>8} {'mean':>8}")
    out(_row("move, no hooks", without))
    out(_row("move with RQ hooks", with_hooks))
    out(_row("  of which the hooks", hooks))
    out(f"hooks / move without hooks: p50 {_ms(hooks, 0.5) / _ms(without, 0.5):.0%}, "
        f"mean {statistics.fmean(hooks) / statistics.fmean(without):.0%}")
    armed = client.zcard(TIMERS)
    if armed:
        usage = client.memory_usage(TIMERS, samples=0) or 0
        out(f"timers armed: {armed}, {usage / armed:.0f} bytes each in Redis")
    seconds, rebuilt = rebuild_seconds(client, games)
    out(f"rebuild on worker start: {games} active games, {rebuilt} timers re-armed in "
        f"{seconds * 1000.0:.0f} ms ({seconds / games * 1e6:.0f} µs per game)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m workers.timing", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--games", type=int, default=1000, help="active games to rebuild")
    parser.add_argument("--redis-url", default=None)
    args = parser.parse_args(argv)
    if args.redis_url:
        measure(connect(args.redis_url), args.moves, args.games)
        return 0
    with tempfile.TemporaryDirectory() as folder:
        server = start_embedded(folder)
        try:
            measure(connect(embedded_url(server)), args.moves, args.games)
        finally:
            server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
