"""What a move writes to Redis's append-only file, by command and kind of key.

    python -m bench.aof_commands [--moves 2000] [--pool 20] [--json F]

A move here is what a client of the HTTP API makes: `GET /games/{id}` as the seat to act,
then `POST /games/{id}/actions` with `If-Match` and an `Idempotency-Key`, on 3-seat games
of Ochs & Esel with the default deadline, handed to the WSGI application in process as
`donkeypost serve` wires it (`bench.app_cpu`'s player; rate limits off), on an embedded
Redis with AOF. The AOF's bytes written while the moves are played (after the games are
made) are parsed back into commands, and each command's bytes are counted under its name
and the kind of its key (`XADD :events`, `SET :idem`, `ZADD donkeypost:timers`…): which
part of a move's bytes is its events, its snapshot, its idempotency record, its timers.
(A rewrite of the AOF during the moves voids the figures: the run says so.)
"""

from __future__ import annotations

import argparse
import re
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import redis
from rich.console import Console
from rich.table import Table as RichTable

from bench import jsonfile
from bench.app_cpu import Player, app_for
from bench.context import BenchContext
from bench.progress import Steps

# A game's key names its game between braces (its hash tag); what follows is its kind.
_GAME_KEY = re.compile(rb"^[^{]*\{[^}]*\}:?(?P<kind>[^:]*)")


def commands(aof: bytes) -> Iterator[tuple[list[bytes], int]]:
    """The commands of an AOF in RESP form (no RDB preamble), each with its size in bytes."""
    at = 0
    while at < len(aof):
        start = at
        end = aof.index(b"\r\n", at)
        if aof[at:at + 1] != b"*":
            raise ValueError(f"not a command at byte {at}: {aof[at:at + 20]!r}")
        count, at = int(aof[at + 1:end]), end + 2
        args = []
        for _ in range(count):
            end = aof.index(b"\r\n", at)
            length, at = int(aof[at + 1:end]), end + 2
            args.append(aof[at:at + length])
            at += length + 2
        yield args, at - start


def label(args: list[bytes]) -> str:
    """`COMMAND kind`: the kind of a game's key (`events`, `snap`, `idem`…), else the key."""
    name = args[0].decode().upper()
    if len(args) < 2 or name in ("MULTI", "EXEC", "SELECT"):
        return name
    found = _GAME_KEY.match(args[1])
    kind = found.group("kind").decode() if found else args[1].decode(errors="replace")
    return f"{name} {kind}"


def breakdown(aof: bytes) -> Counter[str]:
    """Bytes by `label`."""
    sizes: Counter[str] = Counter()
    for args, size in commands(aof):
        sizes[label(args)] += size
    return sizes


def _aof_state(client: redis.Redis, timeout_s: float = 10.0) -> tuple[Path, int, int]:
    """The AOF's path, size and rewrites so far, once what Redis holds for it is written.
    (Redis's reply to a command does not mean its AOF write is done: with `appendfsync
    everysec` a write is put off, up to two seconds, while a background fsync is still
    going, as on a busy disk; `aof_buffer_length` is what waits.)"""
    where = Path(client.config_get("dir")["dir"]) / \
        client.config_get("appendfilename")["appendfilename"]
    deadline = time.monotonic() + timeout_s
    info: dict[str, Any] = client.info("persistence")
    while int(info.get("aof_buffer_length", 0)) > 0:
        if time.monotonic() > deadline:
            raise RuntimeError(f"the AOF was not written within {timeout_s} s")
        time.sleep(0.01)
        info = client.info("persistence")
    return where, int(info.get("aof_current_size", 0)), int(info.get("aof_rewrites", 0))


def measure(redis_url: str, moves: int, pool: int, steps: Steps) -> dict[str, Any]:
    client = redis.Redis.from_url(redis_url)
    player = Player(app_for(redis_url, "off"), pool, seed=1)
    with steps.step(f"aof: {pool} games", total=pool) as step:
        player.fill(step.advance)
    where, size0, rewrites0 = _aof_state(client)
    with steps.step("aof: moves", total=moves) as step:
        player.play(moves, step.advance)
    _, size1, rewrites1 = _aof_state(client)
    if rewrites1 != rewrites0:
        return {"moves": moves, "voided": "the AOF was rewritten during the moves"}
    with where.open("rb") as aof:
        aof.seek(size0)
        written = aof.read(size1 - size0)
    sizes = breakdown(written)
    return {"moves": moves, "bytes_per_move": len(written) / moves,
            "by_command": {k: v / moves for k, v in sizes.most_common()}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.aof_commands", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--pool", type=int, default=20, help="games taking turns")
    parser.add_argument("--json", dest="json_file", type=Path, default=None)
    parser.add_argument("--quiet", action="store_true", help="no progress display")
    args = parser.parse_args(argv)
    console = Console()
    with BenchContext() as ctx, Steps(console, args.quiet) as steps:
        result = measure(ctx.redis.url, args.moves, args.pool, steps)
    if "voided" in result:
        console.print(result["voided"])
        return 1
    table = RichTable(title=f"AOF bytes per move: {result['bytes_per_move']:,.0f}, "
                            f"{args.moves:,} moves")
    table.add_column("command, key")
    table.add_column("bytes / move", justify="right")
    for name, per_move in result["by_command"].items():
        table.add_row(name, f"{per_move:,.1f}")
    console.print(table)
    if args.json_file:
        jsonfile.write(args.json_file, result)
        console.print(f"results: {args.json_file}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
