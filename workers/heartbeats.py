"""Which kinds of worker are alive, and since when they last said so (for `/healthz`).

Every `donkeypost worker` beats every `BEAT_EVERY_S` from its timer pump's thread: one HSET
of `donkeypost:heartbeats` (in the queues' Redis) with the time, under each queue it serves
(`bots`, `deadlines`, `notifications`) and under `timers` (the pump itself). RQ's scheduler
runs in a child process of a worker and keeps its own heartbeat: the scheduler holding the
`notifications` queue's lock (the queue whose webhook retries it releases) is read from
RQ's keys. A kind is missing when nobody ever beat for it, or its last beat is older than
the staleness limit the reader applies (`STALE_AFTER_S` by default).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

import redis
from rq.scheduler import SCHEDULER_KEY_TEMPLATE, RQScheduler

from workers.hooks import BOTS, DEADLINES, NOTIFICATIONS

HEARTBEATS = "donkeypost:heartbeats"
TIMERS = "timers"
SCHEDULER = "scheduler"
KINDS = (BOTS, DEADLINES, NOTIFICATIONS, TIMERS, SCHEDULER)
BEAT_EVERY_S = 2.0
STALE_AFTER_S = 30.0


def beat(connection: redis.Redis, queues: Iterable[str], now: float) -> None:
    """Say that a worker serving `queues` (and pumping timers) is alive at `now`."""
    connection.hset(HEARTBEATS, mapping={kind: now for kind in (*queues, TIMERS)})


def last_beats(connection: redis.Redis) -> dict[str, float | None]:
    """Each kind's last heartbeat (epoch seconds), or None if there is none."""
    pipe = connection.pipeline(transaction=False)
    pipe.hgetall(HEARTBEATS)
    pipe.get(RQScheduler.get_locking_key(NOTIFICATIONS))
    stored, holder = pipe.execute()
    beats: dict[str, float | None] = {
        kind: float(stored[kind.encode()]) if kind.encode() in stored else None
        for kind in KINDS if kind != SCHEDULER}
    beats[SCHEDULER] = None
    if holder is not None:
        raw = connection.hget(SCHEDULER_KEY_TEMPLATE % holder.decode(), "last_heartbeat")
        if raw is not None:
            beats[SCHEDULER] = _epoch(raw.decode())
    return beats


def _epoch(utc_text: str) -> float | None:
    try:
        when = datetime.fromisoformat(utc_text.replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.timestamp()
