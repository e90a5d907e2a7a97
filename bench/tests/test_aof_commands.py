"""`python -m bench.aof_commands`: an AOF parsed back into commands, and a move's bytes by
command and kind of key."""

from __future__ import annotations

from rich.console import Console

from bench.aof_commands import breakdown, commands, label, measure
from bench.context import BenchContext
from bench.progress import Steps


def _resp(*args: bytes) -> bytes:
    return b"*%d\r\n" % len(args) + b"".join(b"$%d\r\n%s\r\n" % (len(a), a) for a in args)


def test_commands_are_read_back_with_their_sizes_and_labelled_by_key_kind():
    xadd = _resp(b"XADD", b"dp:{g1}:events", b"0-7", b"e", b"{\r\n}")  # CRLF inside a value
    idem = _resp(b"SET", b"dp:{g1}:idem:0:k9", b"x", b"PX", b"1")
    timers = _resp(b"ZADD", b"donkeypost:timers", b"1.5", b"deadline-g1-v7-s0")
    aof = _resp(b"MULTI") + xadd + idem + timers + _resp(b"EXEC")
    found = list(commands(aof))
    assert [args[0] for args, _ in found] == [b"MULTI", b"XADD", b"SET", b"ZADD", b"EXEC"]
    assert found[1] == ([b"XADD", b"dp:{g1}:events", b"0-7", b"e", b"{\r\n}"], len(xadd))
    assert [label(args) for args, _ in found] == [
        "MULTI", "XADD events", "SET idem", "ZADD donkeypost:timers", "EXEC"]
    assert breakdown(aof + xadd)["XADD events"] == 2 * len(xadd)
    assert sum(breakdown(aof).values()) == len(aof)


def test_a_few_moves_are_broken_down_into_events_snapshot_record_and_timers():
    with BenchContext() as ctx, Steps(Console(quiet=True), quiet=True) as steps:
        result = measure(ctx.redis.url, moves=30, pool=2, steps=steps)
    parts = result["by_command"]
    assert {"XADD events", "SET idem", "ZADD donkeypost:timers"} <= set(parts), parts
    assert abs(sum(parts.values()) - result["bytes_per_move"]) < 1e-6
