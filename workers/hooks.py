"""After every append: queue the bot turns, play the away seats, arm the deadlines; and
when a game with players finishes, queue its rating.

`RqHooks.after_append` plans the table's duties (`workers.plan`). A duty due now (a bot's
turn, an away seat's move) becomes an RQ job at once. A duty due later (a deadline, a bot
turn after the game's `bot_delay_s`) waits as a timer: one entry of the sorted set
`donkeypost:timers` in the queues' Redis (member: the job id, score: when it is due); the
version's arrival also drops the timers of the version before (the game moved). A timer is
a ZADD and ~100 bytes; an RQ scheduled job would be a ~2 KB job hash and a dozen commands
per move, about as much as the move itself (`python -m bench --sections timers` measures
the hooks).

Where the queues' Redis is the games' (one server, `timers_in_appends`), those timer
changes are handed to the append (`timer_changes`), whose script applies them in its own
atomic step and only if the move lands: a move with a deadline costs no round trip here.
Elsewhere (the queues on a Redis of their own, the games on a cluster) the hooks send them
after the append. Either way, jobs due now and ratings are queued here, in one round trip
(none when there is nothing to queue).

The workers' timer pump (`release_due`) claims due timers with one Lua script (range and
remove at once), so each timer becomes one job however many workers pump, and enqueues
them. The same pump moves the jobs scheduled with RQ's `enqueue_at` (webhook retries) into
their queues when they are due (`release_scheduled`), claimed by the same script: the
workers run no RQ scheduler process.

Every job id holds the game, the version and the seat, and every job re-checks them and
appends with that expected version: a job that runs twice, late, or after the player
moved does nothing.

`RqHooks.rebuild` puts back whatever was lost (a crash between an append and its hooks,
between a claim and its enqueue, a job running in a worker that was killed, a job taken
from its queue by a worker that lost Redis before marking it started, an emptied queue
Redis): given tables, it enqueues each due duty whose job is not waiting in a queue,
and arms each later one that has no timer. `enqueue_ratings` does the same for finished
games whose rating is still awaited (the store notes them after the append).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import redis
from redis.client import Pipeline
from rq import Queue, Retry
from rq.job import Job
from rq.registry import ScheduledJobRegistry

from domain.chat import ChatEntry
from domain.events import Event
from domain.game import Game
from domain.players.notes import soon_due
from domain.registry import GameRegistry
from domain.store.port import TimerChanges
from domain.table import Table
from domain.webhooks.registration import Registration
from workers import jobs
from workers.plan import Duty, duties, seat_duty

log = logging.getLogger(__name__)

BOTS = "bots"  # quick bots' turns (milliseconds)
STRONG_BOTS, EXPERT_BOTS = "strong-bots", "expert-bots"  # searching bots' turns (seconds)
ANALYSIS = "analysis"  # finished games' analyses (up to a minute or two each)
DEADLINES, NOTIFICATIONS, RATINGS = "deadlines", "notifications", "ratings"
# The quick queues: jobs of milliseconds, which nothing slow may hold up.
QUICK_QUEUES = (DEADLINES, RATINGS, BOTS)
# The searches, each up to its budget; a worker takes them in turn
# (`workers.runner.GameWorker.reorder_queues`), so none starves the others.
SEARCH_QUEUES = (STRONG_BOTS, EXPERT_BOTS, ANALYSIS)
# A worker serves them in this order, the quick ones first; a game worker all but the
# notifications (the archive last), a quick worker (`donkeypost serve` starts one) only
# the quick ones.
# Finished games made into archive records, when nothing else waits.
ARCHIVE = "archive"
GAME_QUEUES = (*QUICK_QUEUES, *SEARCH_QUEUES, ARCHIVE)
QUEUES = (*GAME_QUEUES, NOTIFICATIONS)
JOB_FUNCTIONS: dict[str, tuple[str, Callable[[str, int, int], str]]] = {
    "bot": (BOTS, jobs.bot_turn),
    "strong": (STRONG_BOTS, jobs.bot_turn),
    "expert": (EXPERT_BOTS, jobs.bot_turn),
    "away": (DEADLINES, jobs.away_turn),
    "deadline": (DEADLINES, jobs.deadline_passed),
    "soon": (NOTIFICATIONS, jobs.deadline_soon),
}
TIMERS = "donkeypost:timers"
JOB_TIMEOUT_S = 120  # a strong bot thinks about a second, an expert a few; anything near
# this is stuck
RESULT_TTL_S = 600  # what a job did stays readable (`rq info`, tests) for ten minutes
FAILURE_TTL_S = 7 * 24 * 3600
# A job whose worker died mid-run is found by RQ's registry cleanup and run again.
RETRY = Retry(max=2)

# Take (and remove) the timers due at ARGV[1], at most ARGV[2] of them.
_CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
if #due > 0 then redis.call('ZREM', KEYS[1], unpack(due)) end
return due
"""


ANALYSIS_TIMEOUT_S = 900  # its CPU is bounded (`jobs.ANALYSIS_BUDGET`); the wall clock
# of a busy machine is not
ANALYSIS_RETRY_FAILED_S = 600  # a failed analysis is not tried again before this


def rating_job_id(game_id: str) -> str:
    return f"rate-{game_id}"


def analysis_job_id(game_id: str) -> str:
    return f"analysis-{game_id}"


def archive_job_id(game_id: str) -> str:
    return f"archive-{game_id}"


def _superseded(table: Table, new_events: Sequence[Event]) -> list[str]:
    """The timers armed at the version before `new_events`: the game has moved on since.
    (Those of seats still waiting are armed again, due at the same moment.)"""
    before = new_events[0].seq - 1 if new_events else table.version
    if before <= 0 or (not table.has_clock and table.bot_delay_s <= 0):
        return []
    kinds = (seat_duty(table, seat) for seat in range(len(table.seats)))
    stale = [Duty("deadline" if kind == "away" else kind, table.id, before, seat,
                  0.0).job_id for seat, kind in enumerate(kinds)]
    # The warnings of the players' seats (`warnings`) of that version too.
    stale += [Duty("soon", table.id, before, seat, 0.0).job_id
              for seat, s in enumerate(table.seats) if s.player is not None]
    # A seat given up to a bot in this append waited for its player before it.
    stale += [Duty("deadline", table.id, before, seat, 0.0).job_id
              for seat, s in enumerate(table.seats) if s.played_by is not None]
    return stale


def warnings(table: Table, planned: Sequence[Duty], now: float) -> list[Duty]:
    """A `soon` duty for each deadline duty of a player's seat whose warning is still
    ahead (at `domain.players.notes.SOON_AT` of the time from when the seat started
    waiting to the deadline the duty carries, whatever clock set it): it tells the
    player's stream
    `deadline_soon`. A warning whose moment has passed is not planned again, so a version
    that follows it (another seat moved) does not repeat it."""
    out: list[Duty] = []
    for duty in planned:
        if duty.kind != "deadline" or table.seats[duty.seat].player is None:
            continue
        due = soon_due(table, duty.seat, duty.due)
        if due is not None and due > now:
            out.append(Duty("soon", duty.game_id, duty.version, duty.seat, due))
    return out


def planned_duties(table: Table, game: Game[Any, Any], now: float) -> list[Duty]:
    """The duties of `table`, a table of `game` (`workers.plan.duties`), and the warnings
    of its deadlines."""
    found = duties(table, game)
    return found + warnings(table, found, now)


@dataclass
class RebuildCounts:
    tables: int = 0
    duties: int = 0
    enqueued: int = 0  # due (or overdue) and not in a queue: enqueued now
    armed: int = 0  # due later and without a timer: armed


class RqHooks:
    """The hooks of the workers' queues on `connection`. With `timers_in_appends` (the
    queues' Redis is the games' Redis, one server: the timers' set is in the store's
    database) the timer changes of a move are handed to its append (`timer_changes`).
    `games`: the games whose tables it plans for (their deadlines and bot turns)."""

    def __init__(self, connection: redis.Redis, games: GameRegistry,
                 clock: Callable[[], float] = time.time,
                 timers_in_appends: bool = False) -> None:
        self.redis = connection
        self.games = games
        self.clock = clock
        self.timers_in_appends = timers_in_appends
        self.queues = {name: Queue(name, connection=connection) for name in QUEUES}
        self._claim = connection.register_script(_CLAIM)

    # --- after an append -------------------------------------------------------------
    def timer_changes(self, table: Table, new_events: Sequence[Event]) -> TimerChanges | None:
        """What the append of `new_events` (leading to `table`) does to the timers, for
        the append to do it, when the timers live in the store's database."""
        if not self.timers_in_appends:
            return None
        _due_now, later = self._split(table)
        drop = _superseded(table, new_events)
        if not later and not drop:
            return None
        return TimerChanges(TIMERS, drop=drop, arm={duty.job_id: duty.due for duty in later})

    def after_append(self, table: Table, new_events: Sequence[Event],
                     webhooks: Sequence[Registration] | None = None,
                     timers: TimerChanges | None = None) -> None:
        """`timers`: the changes of `timer_changes`, which the append applied."""
        if timers is None:
            due_now, later = self._split(table)
            drop = _superseded(table, new_events)
        else:
            # The append dropped and armed the timers; the duties it did not arm were
            # due when they were planned: they are queued now, as they would have been.
            due_now = [duty for duty in planned_duties(table, self.games.game(table.type),
                                                       self.clock())
                       if duty.job_id not in timers.arm]
            later, drop = [], []
        rate = any(e.type == "game_finished" for e in new_events) and \
            any(s.player is not None for s in table.seats)
        if not (due_now or later or drop or rate):
            return  # nothing to send (no deadline, no bot, or the append armed them)
        # Jobs go in a MULTI pipeline (RQ's enqueue wants one); timers alone need no
        # transaction.
        pipe = self._pipeline() if due_now or rate else \
            self.redis.pipeline(transaction=False)
        if drop:
            pipe.zrem(TIMERS, *drop)
        for duty in due_now:
            self._enqueue(pipe, duty)
        if later:
            pipe.zadd(TIMERS, {duty.job_id: duty.due for duty in later})
        if rate:
            self._enqueue_rating(pipe, table.id)
        pipe.execute()

    def _split(self, table: Table) -> tuple[list[Duty], list[Duty]]:
        """The table's duties: those due now, and those due later (timers)."""
        now = self.clock()
        due_now, later = [], []
        for duty in planned_duties(table, self.games.game(table.type), now):
            (due_now if duty.due <= now else later).append(duty)
        return due_now, later

    def after_chat(self, table: Table, entries: Sequence[ChatEntry]) -> None:
        """Nothing to plan: a chat entry moves no game."""

    def _pipeline(self) -> Pipeline:
        """One round trip, applied all at once (RQ's enqueue wants a MULTI pipeline)."""
        pipe = self.redis.pipeline()
        pipe.multi()
        return pipe

    def _enqueue(self, pipe: Pipeline, duty: Duty) -> None:
        queue_name, func = JOB_FUNCTIONS[duty.kind]
        queue = self.queues[queue_name]
        job = queue.create_job(
            func, args=(duty.game_id, duty.version, duty.seat), job_id=duty.job_id,
            timeout=JOB_TIMEOUT_S, result_ttl=RESULT_TTL_S, failure_ttl=FAILURE_TTL_S,
            retry=RETRY, description=f"{duty.kind} {duty.game_id} v{duty.version} "
                                     f"seat {duty.seat}")
        queue.enqueue_job(job, pipeline=pipe)

    def _enqueue_rating(self, pipe: Pipeline, game_id: str) -> None:
        queue = self.queues[RATINGS]
        job = queue.create_job(
            jobs.rate_game, args=(game_id,), job_id=rating_job_id(game_id),
            timeout=JOB_TIMEOUT_S, result_ttl=RESULT_TTL_S, failure_ttl=FAILURE_TTL_S,
            retry=RETRY, description=f"rate {game_id}")
        queue.enqueue_job(job, pipeline=pipe)

    def enqueue_archives(self, game_ids: Sequence[str], running_is_lost: bool = False) -> int:
        """Queue the archiving of games that are over (`workers.jobs.archive_game`) whose
        job is not waiting in the queue or running (with `running_is_lost`, a worker
        starting, likely after a crash: waiting); returns how many were queued.
        Archiving twice archives once."""
        if not game_ids:
            return 0
        queue = self.queues[ARCHIVE]
        read = self.redis.pipeline(transaction=False)
        read.lrange(queue.key, 0, -1)
        for game_id in game_ids:
            read.hget(Job.key_for(archive_job_id(game_id)), "status")
        waiting, *found = read.execute()
        # A job marked queued but in no queue was taken by a worker that died before it
        # marked the job started: nobody would ever run it.
        waiting = {raw.decode() for raw in waiting}
        lost = [g for g, status in zip(game_ids, found, strict=True)
                if not (status == b"queued" and archive_job_id(g) in waiting)
                and not (status == b"started" and not running_is_lost)]
        if lost:
            write = self._pipeline()
            for game_id in lost:
                job = queue.create_job(
                    jobs.archive_game, args=(game_id,), job_id=archive_job_id(game_id),
                    timeout=JOB_TIMEOUT_S, result_ttl=RESULT_TTL_S,
                    failure_ttl=FAILURE_TTL_S, retry=RETRY,
                    description=f"archive {game_id}")
                queue.enqueue_job(job, pipeline=write)
            write.execute()
        return len(lost)

    def enqueue_ratings(self, game_ids: Sequence[str]) -> int:
        """Queue the rating of games whose job is not waiting or running (it was lost, or
        ran and failed); returns how many were queued. A rating applies once, so a job
        queued twice does no harm."""
        if not game_ids:
            return 0
        read = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            read.hget(Job.key_for(rating_job_id(game_id)), "status")
        found = read.execute()
        lost = [g for g, status in zip(game_ids, found, strict=True)
                if status not in (b"queued", b"started")]
        if lost:
            write = self._pipeline()
            for game_id in lost:
                self._enqueue_rating(write, game_id)
            write.execute()
        return len(lost)

    # --- the post-game analysis ----------------------------------------------------------
    def request_analysis(self, game_id: str) -> dict[str, object]:
        """Queue the finished game's analysis unless its job is waiting or running (one
        job however often it is asked; a job that was lost is queued again); what the job
        is doing: `queued` or `running`, with its progress once it has one (decisions
        weighed, of how many), or `failed` (after its retries), until `RETRY_FAILED_S`
        after that: then it is queued again."""
        job_id = analysis_job_id(game_id)
        job = Job.fetch_many([job_id], connection=self.redis)[0]
        status = job.get_status(refresh=False) if job is not None else None
        if job is not None and status in ("queued", "started", "deferred", "scheduled"):
            state: dict[str, object] = {"status": "running" if status == "started"
                                        else "queued"}
            progress = job.meta.get("progress")
            if progress:
                state["progress"] = {"weighed": progress[0], "of": progress[1]}
            return state
        if job is not None and status == "failed" and job.ended_at is not None and \
                time.time() - job.ended_at.timestamp() < ANALYSIS_RETRY_FAILED_S:
            return {"status": "failed"}
        queue = self.queues[ANALYSIS]
        new = queue.create_job(jobs.analyse_game, args=(game_id,), job_id=job_id,
                               timeout=ANALYSIS_TIMEOUT_S, result_ttl=RESULT_TTL_S,
                               failure_ttl=FAILURE_TTL_S, retry=RETRY,
                               description=f"analyse {game_id}")
        queue.enqueue_job(new)
        return {"status": "queued"}

    # --- the timer pump ----------------------------------------------------------------
    def release_due(self, limit: int = 500) -> int:
        """Turn the timers due now into jobs; returns how many. A worker that dies between
        the claim and the enqueue loses them until the next rebuild finds them due."""
        now = self.clock()
        claimed = self._claim(keys=[TIMERS], args=[now, limit])
        if not claimed:
            return 0
        pipe = self._pipeline()
        for raw in claimed:
            try:
                self._enqueue(pipe, Duty.from_job_id(raw.decode(), now))
            except ValueError:
                log.warning("dropped a malformed timer %r", raw)
        pipe.execute()
        return len(claimed)

    def release_scheduled(self, queue_names: Iterable[str], limit: int = 500) -> int:
        """Enqueue the jobs of `queue_names` scheduled with `enqueue_at` / `enqueue_in` that
        are due (in place of RQ's scheduler, whose process returns a minute late after a
        Redis outage: it waits for its lock to expire). Returns how many."""
        moved = 0
        for name in queue_names:
            queue = self.queues.get(name) or Queue(name, connection=self.redis)
            registry = ScheduledJobRegistry(queue=queue)
            # RQ's scheduled jobs are due at wall-clock times, whatever our clock says.
            claimed = [raw.decode() for raw in
                       self._claim(keys=[registry.key], args=[time.time(), limit])]
            if not claimed:
                continue
            pipe = self.redis.pipeline()
            for job in Job.fetch_many(claimed, connection=self.redis):
                if job is not None:  # (a job deleted meanwhile has nothing left to run)
                    queue.enqueue_job(job, pipeline=pipe)
                    moved += 1
            pipe.execute()
        return moved

    def timers(self) -> dict[str, float]:
        """The armed timers: job id -> when due."""
        return {m.decode(): s for m, s in self.redis.zrange(TIMERS, 0, -1, withscores=True)}

    # --- rebuilding lost jobs ----------------------------------------------------------
    def rebuild(self, tables: Iterable[Table], running_is_lost: bool = False) -> RebuildCounts:
        """Recreate what `tables` need and the queues lack (see the module). With
        `running_is_lost` (a worker starting, likely after a crash), a job marked running
        is run again too: if its worker is in fact alive, one of the two appends and the
        other is dropped."""
        counts = RebuildCounts()
        planned: list[Duty] = []
        now = self.clock()
        for table in tables:
            counts.tables += 1
            planned.extend(planned_duties(table, self.games.game(table.type), now))
        if not planned:
            return counts
        counts.duties = len(planned)
        read = self.redis.pipeline(transaction=False)
        queue_names = sorted({JOB_FUNCTIONS[duty.kind][0] for duty in planned})
        for name in queue_names:
            read.lrange(self.queues[name].key, 0, -1)
        for duty in planned:
            read.hget(Job.key_for(duty.job_id), "status")
            read.zscore(TIMERS, duty.job_id)
        found = read.execute()
        # A job marked queued but in no queue was taken by a worker that lost Redis before
        # it could mark the job started: nobody would ever run it.
        waiting = {raw.decode() for ids in found[:len(queue_names)] for raw in ids}
        found = found[len(queue_names):]
        now = self.clock()
        write = self._pipeline()
        for duty, raw, timer in zip(planned, found[::2], found[1::2], strict=True):
            status = raw.decode() if raw is not None else None
            if (status == "queued" and duty.job_id in waiting) or \
                    (status == "started" and not running_is_lost):
                continue  # waiting for a worker, or running (RQ reruns it if its worker died)
            if duty.due <= now:
                if timer is not None:
                    write.zrem(TIMERS, duty.job_id)  # overdue: no pump ran since
                self._enqueue(write, duty)
                counts.enqueued += 1
            elif timer is None:
                write.zadd(TIMERS, {duty.job_id: duty.due})
                counts.armed += 1
        write.execute()
        return counts
