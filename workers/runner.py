"""`donkeypost worker`: one RQ worker on the project's queues, with its timer pump.

The games live in `REDIS_URL`; the queues and timers in `RQ_REDIS_URL` (else the same
Redis). The worker runs each job in its own process rather than forking one per job: a bot
turn is a few milliseconds of work, a fork and new connections would cost as much again.
It also runs RQ's scheduler, for jobs others enqueue with `enqueue_in` / `enqueue_at`.

Beside the job loop, a thread releases due timers into jobs every `PUMP_EVERY_S`
(`RqHooks.release_due`; any number of workers may pump). When the worker starts, and then
at every sweep (`DONKEYPOST_SWEEP_S`, default 60 s; one worker sweeps per period), it
rebuilds the jobs and timers the active games need (`RqHooks.rebuild`): deadlines derive
from the stored state, so no timer is lost for good with a worker or a queue.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence
from typing import Any

from rq import SimpleWorker

from domain.connection import connect
from domain.service import GameService, Hooks
from workers import context
from workers.hooks import QUEUES, RqHooks

log = logging.getLogger(__name__)

SWEEP_LOCK = "donkeypost:sweep-lock"
PUMP_EVERY_S = 0.25


def sweep_every_s() -> int:
    try:
        return max(1, int(os.environ.get("DONKEYPOST_SWEEP_S", "60")))
    except ValueError:
        return 60


class GameWorker(SimpleWorker):
    """An RQ worker that pumps timers and whose maintenance rebuilds the games' jobs."""

    def __init__(self, *args: Any, service: GameService, rq_hooks: RqHooks,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.service = service
        self.rq_hooks = rq_hooks
        self.rebuilt = False
        self._stop_pump = threading.Event()

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
            counts = self.rq_hooks.rebuild(self.service.active_games(),
                                           running_is_lost=not self.rebuilt)
        except Exception:
            log.exception("rebuilding the active games' jobs failed; the next sweep retries")
            return
        self.rebuilt = True
        log.info("rebuilt: %s active games, %s duties, %s jobs enqueued, %s timers armed",
                 counts.tables, counts.duties, counts.enqueued, counts.armed)


def make_worker(service: GameService, queue_url: str | None = None,
                queues: Sequence[str] = QUEUES) -> GameWorker:
    """A worker on `queues` (default: all the project's); its jobs act through `service`."""
    connection = connect(queue_url or context.queue_url())
    context.configure(service)
    return GameWorker(list(queues), connection=connection,
                      maintenance_interval=sweep_every_s(), service=service,
                      rq_hooks=RqHooks(connection, clock=service.clock))


def run_worker(burst: bool = False, hooks: Hooks | None = None,
               queues: Sequence[str] = QUEUES) -> int:
    """Run one worker on `queues` until stopped (Ctrl-C / SIGTERM: after the current job),
    or with `burst` until the queues are empty. `hooks` follow the jobs' moves (default:
    RQ's)."""
    level = os.environ.get("DONKEYPOST_LOG_LEVEL", "INFO").upper()
    logging.basicConfig(level=level, format="%(asctime)s worker %(levelname)s %(message)s")
    try:
        service = context.service_from_env(hooks)
    except RuntimeError as err:
        log.error("%s", err)
        return 2
    worker = make_worker(service, queues=queues)
    worker.work(burst=burst, with_scheduler=True, logging_level=level)
    return 0
