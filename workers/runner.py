"""`donkeypost worker`'s RQ worker: the project's jobs with their context, and a timer pump;
kept working through Redis outages.

The composition root builds one per process (`donkeypost.bootstrap.rq_worker`): its
connection is the queues' Redis (`RQ_REDIS_URL`, else `REDIS_URL`), and it holds the job
context (`workers.context`: the game service, with the same hooks as the web application,
so a move a job makes is followed like any other; the webhook store and settings), which it
makes current around each job it performs. It runs each job in its own process rather
than forking one per job: a bot turn is a few milliseconds of work, a fork and new
connections would cost as much again.

Beside the job loop, a thread pumps every `PUMP_EVERY_S`: it releases due timers into jobs
(`RqHooks.release_due`) and moves due jobs scheduled with `enqueue_at` into their queues
(`RqHooks.release_scheduled`); any number of workers may pump; it also says that the worker
is alive (`workers.heartbeats`, read by `/healthz`). No RQ scheduler process runs. When
the worker starts, and then at every sweep (`DONKEYPOST_SWEEP_S`, default 60 s; one worker
sweeps per period), it rebuilds the jobs and timers the active games need
(`RqHooks.rebuild`): deadlines derive from the stored state, so no timer is lost for good
with a worker or a queue; it tells the games of the vacations their players' records hold
and a crash kept from them; it queues again the rating of finished games still awaiting
theirs a minute after the end; and it deletes games nobody started in time
(`domain.service.retention`, bounded per run).

Redis outages (`work_through_outages`): an idle worker retries its connection every second
(RQ's own loop, with its wait capped); a worker that meets the outage elsewhere (in a job,
in its maintenance) lets RQ's loop end, waits until Redis answers, and starts again as a
new worker, which reruns the jobs left running and rebuilds the games' jobs. Either way it
resumes within about a second of Redis's return, and the log has one line when Redis goes
and one when it is back (`RedisWatch`), not a traceback per attempt. The first worker whose
pump sees Redis back rebuilds the games' jobs at once: an append that landed just before
the outage may have lost its hooks.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable, Sequence
from types import FrameType
from typing import Any

import redis
from rq import Queue, SimpleWorker
from rq.job import Job

from domain.service.retention import sweep_unstarted
from workers import heartbeats
from workers.context import JobContext, running
from workers.hooks import NOTIFICATIONS, QUEUES, SEARCH_QUEUES, RqHooks

log = logging.getLogger(__name__)

SWEEP_LOCK = "donkeypost:sweep-lock"
# One worker rebuilds when Redis is back after an outage (the others find the lock).
OUTAGE_REBUILD_LOCK, OUTAGE_REBUILD_LOCK_S = "donkeypost:outage-rebuild-lock", 5
PUMP_EVERY_S = 0.25
# A finished game's rating job is queued by the hooks after its append; the sweep queues
# it again only when it is still awaited this long after the end (the job was lost).
RATING_GRACE_S = 60.0
ARCHIVE_BATCH = 1000  # games queued for their archive per sweep, at most
REDIS_POLL_S = 0.25  # how often a worker waiting for Redis asks again
RESTART_PAUSE_S = 1.0  # between a worker that quit and the next (a bug must not spin)
# What Redis being away (killed, restarting, loading its data) looks like to a client.
REDIS_DOWN = (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError, OSError)


class RedisWatch:
    """Notes whether Redis answers; logs one line when it stops and one when it is back."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.down_since: float | None = None
        self._lock = threading.Lock()

    def down(self, error: BaseException) -> None:
        with self._lock:
            if self.down_since is None:
                self.down_since = self.clock()
                log.warning("Redis unreachable (%s): waiting for it", _one_line(error))

    def up(self) -> None:
        with self._lock:
            if self.down_since is not None:
                log.warning("Redis reachable again after %.1f s: resuming",
                            self.clock() - self.down_since)
                self.down_since = None


class GameWorker(SimpleWorker):
    """An RQ worker that gives its jobs their context, pumps timers and scheduled jobs and
    whose maintenance rebuilds the games' jobs."""

    # RQ retries a lost connection with a wait that doubles up to this (its default, 60 s,
    # would leave the worker asleep long after Redis is back).
    max_connection_wait_time = 1.0

    def __init__(self, *args: Any, context: JobContext, rq_hooks: RqHooks,
                 redis_watch: RedisWatch | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.job_context = context
        self.rq_hooks = rq_hooks
        self.redis_watch = redis_watch or RedisWatch()
        self.rebuilt = False
        self.stop_asked = False
        self._stop_pump = threading.Event()

    def reorder_queues(self, reference_queue: Queue) -> None:
        """After a job of `reference_queue` (RQ's hook for a worker's dequeue order): a
        search queue just served goes behind the other search queues, so that strong and
        expert searches take turns and neither starves the other; every other queue keeps
        its place (the quick ones in front: they are never behind a queued search)."""
        if reference_queue.name not in SEARCH_QUEUES:
            return
        order = list(self._ordered_queues)
        spots = [i for i, q in enumerate(order) if q.name in SEARCH_QUEUES]
        searches = [order[i] for i in spots]
        searches.sort(key=lambda q: q.name == reference_queue.name)  # stable: served last
        for i, queue in zip(spots, searches, strict=True):
            order[i] = queue
        self._ordered_queues = order

    def execute_job(self, job: Job, queue: Queue) -> None:
        with running(self.job_context):
            super().execute_job(job, queue)

    def request_stop(self, signum: int, frame: FrameType | None) -> None:
        self.stop_asked = True
        super().request_stop(signum, frame)

    def work(self, burst: bool = False, **kwargs: Any) -> bool:
        # The pump moves scheduled jobs; RQ's scheduler process is not started.
        kwargs.pop("with_scheduler", None)
        pump = notifier = None
        notifies = self.job_context.notifier is not None and \
            NOTIFICATIONS in self.queue_names()
        if burst:  # what is due now, once (a burst's rebuild enqueues the games' due jobs)
            self.rq_hooks.release_scheduled(self.queue_names())
        else:
            self._stop_pump.clear()
            pump = threading.Thread(target=self._pump, name="timer-pump", daemon=True)
            pump.start()
            if notifies:  # players' streams into e-mail and Web Push (`workers.notify`)
                assert self.job_context.notifier is not None
                notifier = threading.Thread(target=self.job_context.notifier.run,
                                            args=(self._stop_pump,), name="notifier",
                                            daemon=True)
                notifier.start()
        try:
            done = bool(super().work(burst=burst, **kwargs))
            if burst and notifies:
                assert self.job_context.notifier is not None
                while self.job_context.notifier.run_once():
                    pass
            return done
        finally:
            self._stop_pump.set()
            for thread in (pump, notifier):
                if thread is not None:
                    thread.join(timeout=5)

    def _pump(self) -> None:
        next_beat = 0.0
        while not self._stop_pump.wait(PUMP_EVERY_S):
            try:
                self.rq_hooks.release_due()
                self.rq_hooks.release_scheduled(self.queue_names())
                now = time.time()
                if now >= next_beat:  # what `/healthz` reads (`workers.heartbeats`)
                    heartbeats.beat(self.connection, self.queue_names(), now)
                    next_beat = now + heartbeats.BEAT_EVERY_S
            except REDIS_DOWN as err:
                self.redis_watch.down(err)
                continue
            except Exception:
                log.exception("releasing due timers failed; retrying")
                continue
            if self.redis_watch.down_since is not None:
                self.redis_watch.up()
                self._rebuild_after_outage()

    def _rebuild_after_outage(self) -> None:
        """What the appends made just before Redis went away could not arm (their hooks
        failed): rebuilt now, by the first worker back, rather than at the next sweep.
        The lock is let go once the rebuild is done: another outage a moment later (the
        lock's key may have survived it) gets a rebuild of its own."""
        try:
            if self.connection.set(OUTAGE_REBUILD_LOCK, self.name, nx=True,
                                   ex=OUTAGE_REBUILD_LOCK_S):
                counts = self.rq_hooks.rebuild(self.job_context.service.active_games())
                log.info("rebuilt after the outage: %s active games, %s jobs enqueued, "
                         "%s timers armed", counts.tables, counts.enqueued, counts.armed)
                if self.connection.get(OUTAGE_REBUILD_LOCK) == self.name.encode():
                    self.connection.delete(OUTAGE_REBUILD_LOCK)
        except REDIS_DOWN as err:
            self.redis_watch.down(err)  # gone again: the next return rebuilds
        except Exception:
            log.exception("rebuilding after the outage failed; the next sweep retries")

    def run_maintenance_tasks(self) -> None:
        super().run_maintenance_tasks()
        # Every worker rebuilds when it starts; later sweeps go to one worker per period.
        if self.rebuilt and not self.connection.set(
                SWEEP_LOCK, self.name, nx=True, ex=max(1, int(self.maintenance_interval) - 1)):
            return
        starting = not self.rebuilt
        try:
            counts = self.rq_hooks.rebuild(self.job_context.service.active_games(),
                                           running_is_lost=starting)
        except REDIS_DOWN:
            raise  # RQ's loop: the worker waits for Redis (`work_through_outages`)
        except Exception:
            log.exception("rebuilding the active games' jobs failed; the next sweep retries")
            return
        self.rebuilt = True
        log.info("rebuilt: %s active games, %s duties, %s jobs enqueued, %s timers armed",
                 counts.tables, counts.duties, counts.enqueued, counts.armed)
        self.sweep_unstarted()
        self.reconcile_clocks()
        try:
            service = self.job_context.service
            ratings = self.rq_hooks.enqueue_ratings(
                service.awaiting_rating(service.clock() - RATING_GRACE_S))
        except Exception:
            log.exception("queuing the awaited ratings failed; the next sweep retries")
            return
        if ratings:
            log.info("queued %s awaited ratings again", ratings)
        self.queue_archives(starting)

    def queue_archives(self, starting: bool = False) -> None:
        """Queue the archiving of the games over for `archive_after_s` (a bounded number
        per sweep, the oldest first); a worker starting queues again those whose job is
        marked running (its worker is presumed dead: archiving twice archives once)."""
        context = self.job_context
        if context.archives is None:
            return
        try:
            due = context.archives.due_archives(
                time.time() - context.archive_after_s, ARCHIVE_BATCH)
            queued = self.rq_hooks.enqueue_archives(due, running_is_lost=starting)
        except REDIS_DOWN:
            raise
        except Exception:
            log.exception("queuing the archives due failed; the next sweep retries")
            return
        if queued:
            log.info("queued %s games to archive", queued)

    def reconcile_clocks(self) -> None:
        """Tell the active games the vacations their players' records hold and they missed
        (`domain.service.seat_clocks.reconcile`)."""
        service = self.job_context.service
        try:
            told = service.reconcile_clocks(service.active_games())
        except Exception:
            log.exception("reconciling the players' vacations failed; the next sweep retries")
            return
        if told:
            log.info("told %s games of their players' vacations", told)

    def sweep_unstarted(self) -> None:
        """Delete the games nobody started in time (`domain.service.retention`), a
        bounded number per sweep."""
        context = self.job_context
        try:
            swept = sweep_unstarted(context.service.store, context.webhooks.store,
                                    context.retention, time.time(), context.service.players)
        except Exception:
            log.exception("sweeping the games never started failed; the next sweep retries")
            return
        if swept.looked_at:
            log.info("retention: %s games never started deleted, %s relisted, %s changed "
                     "meanwhile", swept.deleted, swept.relisted, swept.raced)

    def unsubscribe(self) -> None:
        # The listening thread is stopped before the UNSUBSCRIBE whose reply wakes it: the
        # other way round it may wait again, and RQ's join of it takes a whole second.
        thread = getattr(self, "pubsub_thread", None)
        if thread is not None:
            thread.stop()
        super().unsubscribe()

    def let_go(self) -> None:
        """After a loop that Redis ended: stop the threads that would keep retrying."""
        self._stop_pump.set()
        thread = getattr(self, "pubsub_thread", None)
        if thread is not None:
            thread.stop()


def make_worker(context: JobContext, rq_hooks: RqHooks, sweep_s: int,
                queues: Sequence[str] = QUEUES,
                redis_watch: RedisWatch | None = None) -> GameWorker:
    """A worker on `queues` (default: all the project's), on the queues' Redis of `rq_hooks`;
    its jobs act through `context`."""
    return GameWorker(list(queues), connection=rq_hooks.redis, maintenance_interval=sweep_s,
                      context=context, rq_hooks=rq_hooks, redis_watch=redis_watch)


def work_through_outages(new_worker: Callable[[RedisWatch], GameWorker],
                         logging_level: str = "INFO") -> None:
    """Run workers until one is asked to stop (SIGINT, SIGTERM): when Redis ends a worker's
    loop, wait until it answers and start a new worker."""
    watch = RedisWatch()
    while True:
        worker = new_worker(watch)
        try:
            worker.work(logging_level=logging_level)
        except REDIS_DOWN as err:  # as it registered, or in its teardown
            watch.down(err)
        finally:
            worker.let_go()
        if worker.stop_asked:
            return
        if not _wait_for_redis(worker.connection, watch):
            return
        watch.up()


def _wait_for_redis(connection: redis.Redis, watch: RedisWatch) -> bool:
    """Wait until Redis answers; False if the process is asked to stop meanwhile."""
    stop = threading.Event()

    def asked(_signum: int, _frame: FrameType | None) -> None:
        stop.set()

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, asked)
    if stop.wait(RESTART_PAUSE_S):
        return False
    while True:
        try:
            connection.ping()
            return True
        except REDIS_DOWN as err:
            watch.down(err)
        if stop.wait(REDIS_POLL_S):
            return False


class QuietRedisErrors(logging.Filter):
    """The log during an outage: RQ's lines about the lost connection are dropped (the
    worker's `RedisWatch` says it once), and an error that Redis's absence caused (a loop
    or a job that it ended) is one line, without the traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, REDIS_DOWN):
            record.msg = f"{record.getMessage()} ({_one_line(error)})"
            record.args = None
            record.exc_info = None
            return True
        return "could not connect to Redis" not in record.getMessage()


def _one_line(error: BaseException) -> str:
    text = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def setup_logging(level: str) -> None:
    logging.basicConfig(level=level, format="%(asctime)s worker %(levelname)s %(message)s")
    quiet = QuietRedisErrors()
    for handler in logging.getLogger().handlers:  # every logger's records pass through them
        handler.addFilter(quiet)
