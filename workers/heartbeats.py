"""Which kinds of worker are alive, and since when they last said so (for `/healthz`).

Every `donkeypost worker` beats every `BEAT_EVERY_S` from its pump's thread: one HSET of
`donkeypost:heartbeats` (in the queues' Redis) with the time, under each queue it serves
(`bots`, `deadlines`, `notifications`) and under `timers` (the pump itself, which releases
the due timers and the jobs scheduled for later, such as webhook retries). A kind is
missing when nobody ever beat for it, or its last beat is older than the staleness limit
the reader applies (`STALE_AFTER_S` by default).

`/healthz` also reads how long the oldest job of each queue has waited (`queue_waits`): a
worker can beat and still never reach a queue (every worker busy, or serving others), and
only the jobs' wait shows it. A job waits in its queue only once it is due (a later one is
a timer), so any wait there is a delay someone sees; where a game waits on the job (a
deadline, a bot's turn) the table stands still (`stalls_play`), elsewhere (ratings,
analyses, archiving, notifications) the work is late but play goes on.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from typing import NamedTuple

import redis
from rq import Queue
from rq.job import Job

from workers.hooks import BOTS, DEADLINES, EXPERT_BOTS, NOTIFICATIONS, QUEUES, STRONG_BOTS

HEARTBEATS = "donkeypost:heartbeats"
TIMERS = "timers"
KINDS = (BOTS, DEADLINES, NOTIFICATIONS, TIMERS)
BEAT_EVERY_S = 2.0
STALE_AFTER_S = 30.0
QUEUE_WAIT_LIMIT_S = 60.0  # a queue whose oldest job has waited longer is late


# The queues a game waits on: a late job there is a table that does not move.
STALLING = (DEADLINES, BOTS, STRONG_BOTS, EXPERT_BOTS)


class QueueWait(NamedTuple):
    waiting: int  # jobs in the queue
    oldest_s: float | None  # how long its oldest job has waited (None: empty)
    stalls_play: bool  # a game waits on its jobs (else they are background work)


def beat(connection: redis.Redis, queues: Iterable[str], now: float) -> None:
    """Say that a worker serving `queues` (and pumping timers) is alive at `now`."""
    connection.hset(HEARTBEATS, mapping={kind: now for kind in (*queues, TIMERS)})


def last_beats(connection: redis.Redis) -> dict[str, float | None]:
    """Each kind's last heartbeat (epoch seconds), or None if there is none."""
    stored = connection.hgetall(HEARTBEATS)
    return {kind: float(stored[kind.encode()]) if kind.encode() in stored else None
            for kind in KINDS}


def queue_waits(connection: redis.Redis, now: float,
                queues: Sequence[str] = QUEUES) -> dict[str, QueueWait]:
    """For each queue: how many jobs wait in it, and for how long the oldest has (two
    round trips, whatever the queues hold)."""
    handles = [Queue(name, connection=connection) for name in queues]
    read = connection.pipeline(transaction=False)
    for queue in handles:
        read.llen(queue.key)
        read.lindex(queue.key, 0)  # RQ takes jobs from the head: the oldest
    found = read.execute()
    heads = [raw.decode() if raw is not None else None for raw in found[1::2]]
    jobs = Job.fetch_many([h for h in heads if h is not None], connection=connection)
    enqueued = {job.id: job.enqueued_at for job in jobs if job is not None}
    out: dict[str, QueueWait] = {}
    for name, waiting, head in zip(queues, found[::2], heads, strict=True):
        at = enqueued.get(head) if head is not None else None
        oldest = None if at is None else max(0.0, now - _epoch(at))
        out[name] = QueueWait(int(waiting), oldest, name in STALLING)
    return out


def _epoch(at: datetime.datetime) -> float:
    if at.tzinfo is None:  # RQ writes UTC times
        at = at.replace(tzinfo=datetime.UTC)
    return at.timestamp()
