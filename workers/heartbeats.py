"""Which kinds of worker are alive, and since when they last said so (for `/healthz`).

Every `donkeypost worker` beats every `BEAT_EVERY_S` from its pump's thread: one HSET of
`donkeypost:heartbeats` (in the queues' Redis) with the time, under each queue it serves
(`bots`, `deadlines`, `notifications`) and under `timers` (the pump itself, which releases
the due timers and the jobs scheduled for later, such as webhook retries). A kind is
missing when nobody ever beat for it, or its last beat is older than the staleness limit
the reader applies (`STALE_AFTER_S` by default).
"""

from __future__ import annotations

from collections.abc import Iterable

import redis

from workers.hooks import BOTS, DEADLINES, NOTIFICATIONS

HEARTBEATS = "donkeypost:heartbeats"
TIMERS = "timers"
KINDS = (BOTS, DEADLINES, NOTIFICATIONS, TIMERS)
BEAT_EVERY_S = 2.0
STALE_AFTER_S = 30.0


def beat(connection: redis.Redis, queues: Iterable[str], now: float) -> None:
    """Say that a worker serving `queues` (and pumping timers) is alive at `now`."""
    connection.hset(HEARTBEATS, mapping={kind: now for kind in (*queues, TIMERS)})


def last_beats(connection: redis.Redis) -> dict[str, float | None]:
    """Each kind's last heartbeat (epoch seconds), or None if there is none."""
    stored = connection.hgetall(HEARTBEATS)
    return {kind: float(stored[kind.encode()]) if kind.encode() in stored else None
            for kind in KINDS}
