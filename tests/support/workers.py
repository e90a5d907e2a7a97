"""Real RQ workers for the tests: in-process burst runs, and `donkeypost worker` processes
that can be stopped warm or killed like a crashed host."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from domain.events import Event
from domain.service import GameService
from domain.table import Table
from donkeypost.bootstrap import Components, rq_worker
from workers.hooks import QUEUES

ROOT = Path(__file__).resolve().parents[2]


def burst(components: Components, queues: Sequence[str] = QUEUES) -> None:
    """One worker, with the scheduler, until `queues` are empty (jobs act through
    `components`, as on `donkeypost worker`)."""
    rq_worker(components, queues).work(burst=True, with_scheduler=True,
                                       logging_level="WARNING")


class WorkerProcess:
    """`donkeypost worker` in its own session, so a kill takes its scheduler with it."""

    def __init__(self, redis_url: str, log_path: Path, cluster_url: str | None = None,
                 queues: Sequence[str] | None = None, **env_vars: str) -> None:
        """On the Redis at `redis_url`; with `cluster_url`, the games on that Redis Cluster
        and the queues on `redis_url`; serving `queues` (default: all)."""
        env = {**os.environ, "DONKEYPOST_LOG_LEVEL": "INFO", **env_vars}
        if cluster_url is None:
            env["REDIS_URL"] = redis_url
            env.pop("RQ_REDIS_URL", None)
        else:
            env.update(REDIS_CLUSTER_URL=cluster_url, RQ_REDIS_URL=redis_url)
            env.pop("REDIS_URL", None)
        self.log_path = log_path
        self._log = open(log_path, "ab")  # noqa: SIM115 - closed in stop()
        argv = [sys.executable, "-m", "donkeypost.cli", "worker"]
        if queues is not None:
            argv += ["--queues", ",".join(queues)]
        self.proc = subprocess.Popen(argv, cwd=ROOT,
                                     env=env, stdout=self._log, stderr=subprocess.STDOUT,
                                     start_new_session=True)

    def kill(self) -> None:
        """SIGKILL the worker and its scheduler: nothing gets to clean up."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        self._log.close()

    def stop(self) -> int:
        """Warm shutdown (SIGTERM: finish the current job); kill after 10 s."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        self._log.close()
        return self.proc.returncode

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")


def wait_until(condition: Callable[[], Any], timeout_s: float, what: str,
               every_s: float = 0.05) -> Any:
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(every_s)
    raise AssertionError(f"timed out after {timeout_s} s waiting for {what}")


def timeouts(events: list[Event]) -> list[Event]:
    return [e for e in events if e.type == "turn_timed_out"]


def human_and_bots(service: GameService, first: int = 0, deadline_s: float | None = None,
                   levels: tuple[str, ...] = ("basic", "random"), **extra: Any) -> Table:
    """A started one-round Ochs & Esel game: a human in seat 0, bots in the other seats,
    `first` leading."""
    table = service.create("ochs-und-esel", {"rounds": 1, "first_player": first},
                           [{"kind": "human"}, *({"kind": "bot", "level": lv} for lv in levels)],
                           deadline_s=deadline_s, **extra)
    _seat, _token, table = service.join(table.id, "ann")
    return table


def moves_of(events: list[Event], seat: int) -> list[Event]:
    """The events `seat` caused by acting (the first event of each of its actions)."""
    return [e for e in events if e.actor == seat and e.type not in ("player_joined",)]
