"""After every append: queue the bot turns, arm the deadlines, play the away seats.

`RqHooks.after_append` plans the table's duties (`workers.plan`) and, in one pipelined
round trip to the queues' Redis:
- supersedes the deadline timers of the version before the append (the game moved);
- enqueues one job per bot seat now to act (after `bot_delay_s`, if the game has one);
- enqueues one job per away seat now to act, at once;
- schedules one timer per human seat now waiting, at its deadline.
Every job id holds the game, the version and the seat, and every job re-checks them and
appends with that expected version, so a job that runs twice, late, or after the player
moved does nothing.

`RqHooks.rebuild` puts back whatever the queues lost (a crash between an append and its
hooks, a queue Redis that was emptied, a scheduler that died with its worker): it is given
tables, and (re)creates each duty whose job is neither waiting in a queue nor running,
enqueuing at once those already due.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import redis
from redis.client import Pipeline
from rq import Queue, Retry
from rq.job import Job
from rq.registry import ScheduledJobRegistry

from domain import registry
from domain.connection import connect
from domain.events import Event
from domain.table import Table
from workers import jobs
from workers.plan import Duty, deadline_job_id, duties

BOTS, DEADLINES, NOTIFICATIONS = "bots", "deadlines", "notifications"
QUEUES = (DEADLINES, BOTS, NOTIFICATIONS)  # a worker serves them in this order
JOB_FUNCTIONS: dict[str, tuple[str, Callable[[str, int, int], str]]] = {
    "bot": (BOTS, jobs.bot_turn),
    "away": (DEADLINES, jobs.away_turn),
    "deadline": (DEADLINES, jobs.deadline_passed),
}
JOB_TIMEOUT_S = 120  # a strong bot thinks about a second; anything near this is stuck
RESULT_TTL_S = 600  # what a job did stays readable (`rq info`, tests) for ten minutes
FAILURE_TTL_S = 7 * 24 * 3600
# A job whose worker died mid-run is found by RQ's registry cleanup and run again.
RETRY = Retry(max=2)


@dataclass
class RebuildCounts:
    tables: int = 0
    duties: int = 0
    enqueued: int = 0  # due (or overdue) and not in a queue: put in one now
    scheduled: int = 0  # not due yet and not scheduled: scheduled


class RqHooks:
    def __init__(self, connection: redis.Redis, clock: Callable[[], float] = time.time) -> None:
        self.redis = connection
        self.clock = clock
        self.queues = {name: Queue(name, connection=connection) for name in QUEUES}
        self.scheduled = {name: ScheduledJobRegistry(queue=q) for name, q in self.queues.items()}

    @classmethod
    def from_url(cls, url: str) -> RqHooks:
        return cls(connect(url))

    # --- after an append -------------------------------------------------------------
    def after_append(self, table: Table, new_events: Sequence[Event]) -> None:
        game = registry.get_game(table.type)
        pipe = self._pipeline()
        before = new_events[0].seq - 1 if new_events else table.version
        if before > 0 and table.deadline_s is not None:
            self._supersede_deadlines(pipe, table, before)
        now = self.clock()
        for duty in duties(table, game):
            self._put(pipe, duty, now)
        pipe.execute()

    def _pipeline(self) -> Pipeline:
        """One round trip, applied all at once (RQ's enqueue wants a MULTI pipeline)."""
        pipe = self.redis.pipeline()
        pipe.multi()
        return pipe

    def _supersede_deadlines(self, pipe: Pipeline, table: Table, version: int) -> None:
        """Drop the timers armed at `version`: the game has moved on since. (Those of seats
        still waiting are armed again at the new version, with the same deadline.)"""
        key = self.scheduled[DEADLINES].key
        for seat, info in enumerate(table.seats):
            if info.kind == "human":
                job_id = deadline_job_id(table.id, version, seat)
                pipe.zrem(key, job_id)
                pipe.delete(Job.key_for(job_id))

    def _put(self, pipe: Pipeline, duty: Duty, now: float) -> None:
        """Queue the duty's job, or schedule it at its due time (rounded up to the second:
        RQ's scheduler counts in whole seconds, and a deadline must not fire early)."""
        queue_name, func = JOB_FUNCTIONS[duty.kind]
        queue = self.queues[queue_name]
        job = queue.create_job(
            func, args=(duty.game_id, duty.version, duty.seat), job_id=duty.job_id,
            timeout=JOB_TIMEOUT_S, result_ttl=RESULT_TTL_S, failure_ttl=FAILURE_TTL_S,
            retry=RETRY, description=f"{duty.kind} {duty.game_id} v{duty.version} "
                                     f"seat {duty.seat}")
        if duty.due <= now:
            queue.enqueue_job(job, pipeline=pipe)
        else:
            at = datetime.fromtimestamp(math.ceil(duty.due), tz=UTC)
            queue.schedule_job(job, at, pipeline=pipe)

    # --- rebuilding lost jobs ----------------------------------------------------------
    def rebuild(self, tables: Iterable[Table]) -> RebuildCounts:
        """Recreate the jobs `tables` need that the queues do not hold (see the module)."""
        counts = RebuildCounts()
        planned: list[Duty] = []
        for table in tables:
            counts.tables += 1
            planned.extend(duties(table, registry.get_game(table.type)))
        if not planned:
            return counts
        counts.duties = len(planned)
        read = self.redis.pipeline(transaction=False)
        for duty in planned:
            read.hget(Job.key_for(duty.job_id), "status")
        statuses = read.execute()
        now = self.clock()
        write = self._pipeline()
        for duty, raw in zip(planned, statuses, strict=True):
            status = raw.decode() if raw is not None else None
            if status in ("queued", "started"):
                continue  # waiting for a worker, or running (RQ retries it if its worker died)
            due = duty.due <= now
            if status == "scheduled" and not due:
                continue
            if status == "scheduled":
                # Overdue in the scheduled registry: no scheduler is running (it may have
                # died with its worker, holding its lock for a minute); queue it ourselves.
                write.zrem(self.scheduled[JOB_FUNCTIONS[duty.kind][0]].key, duty.job_id)
            self._put(write, duty, now)
            if due:
                counts.enqueued += 1
            else:
                counts.scheduled += 1
        write.execute()
        return counts
