"""`donkeypost worker`'s RQ worker: the project's jobs with their context, and a timer pump.

The composition root builds one per process (`donkeypost.bootstrap.rq_worker`): its
connection is the queues' Redis (`RQ_REDIS_URL`, else `REDIS_URL`), and it holds the job
context (`workers.context`: the game service, with the same hooks as the web application,
so a move a job makes is followed like any other; the webhook store and settings), which it
makes current around each job it performs. It runs each job in its own process rather
than forking one per job: a bot turn is a few milliseconds of work, a fork and new
connections would cost as much again. It also runs RQ's scheduler, for jobs others enqueue
with `enqueue_in` / `enqueue_at`.

Beside the job loop, a thread releases due timers into jobs every `PUMP_EVERY_S`
(`RqHooks.release_due`; any number of workers may pump). When the worker starts, and then
at every sweep (`DONKEYPOST_SWEEP_S`, default 60 s; one worker sweeps per period), it
rebuilds the jobs and timers the active games need (`RqHooks.rebuild`): deadlines derive
from the stored state, so no timer is lost for good with a worker or a queue; and it
queues again the rating of finished games still awaiting theirs a minute after the end.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Any

from rq import Queue, SimpleWorker
from rq.job import Job

from workers.context import JobContext, running
from workers.hooks import QUEUES, RqHooks

log = logging.getLogger(__name__)

SWEEP_LOCK = "donkeypost:sweep-lock"
PUMP_EVERY_S = 0.25
# A finished game's rating job is queued by the hooks after its append; the sweep queues
# it again only when it is still awaited this long after the end (the job was lost).
RATING_GRACE_S = 60.0


class GameWorker(SimpleWorker):
    """An RQ worker that gives its jobs their context, pumps timers and whose maintenance
    rebuilds the games' jobs."""

    def __init__(self, *args: Any, context: JobContext, rq_hooks: RqHooks,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.job_context = context
        self.rq_hooks = rq_hooks
        self.rebuilt = False
        self._stop_pump = threading.Event()

    def execute_job(self, job: Job, queue: Queue) -> None:
        with running(self.job_context):
            super().execute_job(job, queue)

    def work(self, burst: bool = False, **kwargs: Any) -> bool:
        pump = None
        if not burst:  # (a burst's rebuild enqueues whatever is due when it starts)
            self._stop_pump.clear()
            pump = threading.Thread(target=self._pump, name="timer-pump", daemon=True)
            pump.start()
        try:
            return bool(super().work(burst=burst, **kwargs))
        finally:
            self._stop_pump.set()
            if pump is not None:
                pump.join(timeout=5)

    def _pump(self) -> None:
        while not self._stop_pump.wait(PUMP_EVERY_S):
            try:
                self.rq_hooks.release_due()
            except Exception:
                log.exception("releasing due timers failed; retrying")

    def run_maintenance_tasks(self) -> None:
        super().run_maintenance_tasks()
        # Every worker rebuilds when it starts; later sweeps go to one worker per period.
        if self.rebuilt and not self.connection.set(
                SWEEP_LOCK, self.name, nx=True, ex=max(1, int(self.maintenance_interval) - 1)):
            return
        try:
            counts = self.rq_hooks.rebuild(self.job_context.service.active_games(),
                                           running_is_lost=not self.rebuilt)
        except Exception:
            log.exception("rebuilding the active games' jobs failed; the next sweep retries")
            return
        self.rebuilt = True
        log.info("rebuilt: %s active games, %s duties, %s jobs enqueued, %s timers armed",
                 counts.tables, counts.duties, counts.enqueued, counts.armed)
        try:
            service = self.job_context.service
            ratings = self.rq_hooks.enqueue_ratings(
                service.awaiting_rating(service.clock() - RATING_GRACE_S))
        except Exception:
            log.exception("queuing the awaited ratings failed; the next sweep retries")
            return
        if ratings:
            log.info("queued %s awaited ratings again", ratings)


def make_worker(context: JobContext, rq_hooks: RqHooks, sweep_s: int,
                queues: Sequence[str] = QUEUES) -> GameWorker:
    """A worker on `queues` (default: all the project's), on the queues' Redis of `rq_hooks`;
    its jobs act through `context`."""
    return GameWorker(list(queues), connection=rq_hooks.redis, maintenance_interval=sweep_s,
                      context=context, rq_hooks=rq_hooks)


def setup_logging(level: str) -> None:
    logging.basicConfig(level=level, format="%(asctime)s worker %(levelname)s %(message)s")
