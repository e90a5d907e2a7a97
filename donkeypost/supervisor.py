"""Keep a few child processes running: start them in stages, restart any that dies, stop all.

`donkeypost serve` runs Redis, the web server and the workers as children of one supervisor:

    supervisor = Supervisor([Child("redis", argv, stage=0, ready=ping), Child("web", …, stage=1),
                             …])
    supervisor.start(should_stop)   # stage by stage, each stage once its children are ready
    supervisor.run(should_stop)     # restart the dead, with backoff, until should_stop()
    supervisor.stop()               # the last stage first; SIGKILL after a grace period

Each child leads a process group of its own: Ctrl-C in the terminal reaches the supervisor
only, which stops the children in order (the web server and workers before the Redis they
write to), and a child's own children (gunicorn's workers) are cleared with it when it
dies. A child that dies is restarted after a delay that doubles with each quick death
(`Backoff`), and each death and restart is one line in the log. On Linux a child also gets
SIGTERM if the supervisor itself dies, so nothing outlives a killed `serve`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

StopCheck = Callable[[], bool]
POLL_S = 0.1


@dataclass(frozen=True)
class Child:
    """A process to keep running: `argv` with `env` (None: the supervisor's own)."""

    name: str
    argv: Sequence[str]
    env: Mapping[str, str] | None = None
    stage: int = 0  # started after every child of the stages before is ready, stopped before
    ready: Callable[[], bool] | None = None  # None: ready once started
    stop_signal: int = signal.SIGTERM  # the child's own clean, quick shutdown


@dataclass(frozen=True)
class Backoff:
    """The delay before a restart: `first`, doubled (`factor`) with each death that came
    within `reset_after_s` of the child's start, at most `cap_s`."""

    first_s: float = 0.5
    factor: float = 2.0
    cap_s: float = 30.0
    reset_after_s: float = 30.0

    def delay(self, quick_deaths: int) -> float:
        return min(self.cap_s, self.first_s * self.factor ** max(0, quick_deaths - 1))


class ChildFailed(RuntimeError):
    """A child exited, or was not ready in time, while the supervisor started it."""


@dataclass
class _Running:
    child: Child
    proc: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    quick_deaths: int = 0
    restart_at: float | None = None  # set while the child is dead and waits for its restart
    restarts: int = 0


@dataclass
class Supervisor:
    children: Sequence[Child]
    backoff: Backoff = field(default_factory=Backoff)
    ready_timeout_s: float = 60.0
    clock: Callable[[], float] = time.monotonic

    def __post_init__(self) -> None:
        names = [c.name for c in self.children]
        if len(set(names)) != len(names):
            raise ValueError(f"children need distinct names: {names}")
        self._running = [_Running(c) for c in self.children]

    # --- starting ------------------------------------------------------------------------
    def start(self, should_stop: StopCheck = lambda: False) -> bool:
        """Start the children stage by stage; each stage waits until the children of the
        stage before are ready. False if `should_stop()` came first; `ChildFailed` if a child
        exited or was not ready within `ready_timeout_s`."""
        for stage in sorted({c.stage for c in self.children}):
            members = [r for r in self._running if r.child.stage == stage]
            for running in members:
                self._spawn(running)
            waiting = list(members)
            deadline = self.clock() + self.ready_timeout_s
            while waiting:
                if should_stop():
                    return False
                for running in list(waiting):
                    assert running.proc is not None
                    code = running.proc.poll()
                    if code is not None:
                        raise ChildFailed(f"{running.child.name} {_describe_exit(code)} as it "
                                          "started")
                    if running.child.ready is None or _ask(running.child.ready):
                        waiting.remove(running)
                if waiting and self.clock() > deadline:
                    raise ChildFailed(f"{', '.join(r.child.name for r in waiting)} not ready "
                                      f"after {self.ready_timeout_s:.0f} s")
                if waiting:
                    time.sleep(POLL_S)
        return True

    # --- keeping them alive --------------------------------------------------------------
    def run(self, should_stop: StopCheck) -> None:
        """Restart the children that die until `should_stop()`."""
        while not should_stop():
            self.poll()
            time.sleep(POLL_S)

    def poll(self) -> None:
        """One look: note the children that died, start those whose delay is over."""
        now = self.clock()
        for running in self._running:
            proc = running.proc
            if proc is not None and running.restart_at is None:
                code = proc.poll()
                if code is None:
                    continue
                _kill_group(proc.pid)  # what it left behind (gunicorn's workers)
                if now - running.started_at < self.backoff.reset_after_s:
                    running.quick_deaths += 1
                else:
                    running.quick_deaths = 1
                delay = self.backoff.delay(running.quick_deaths)
                running.restart_at = now + delay
                log.warning("%s (pid %s) %s; restarting in %g s", running.child.name,
                            proc.pid, _describe_exit(code), delay)
            elif running.restart_at is not None and now >= running.restart_at:
                self._spawn(running)
                running.restarts += 1
                assert running.proc is not None
                log.warning("%s restarted (pid %s, restart %s)", running.child.name,
                            running.proc.pid, running.restarts)

    def pids(self) -> dict[str, int | None]:
        """Each child's current pid (None while it waits for its restart)."""
        return {r.child.name: (r.proc.pid if r.proc is not None and r.restart_at is None
                               else None) for r in self._running}

    # --- stopping ------------------------------------------------------------------------
    def stop(self, grace_s: float = 3.0, last_stage_grace_s: float = 5.0) -> None:
        """Stop the children, the last stage first: each child gets its stop signal, then
        SIGKILL once `grace_s` has passed (`last_stage_grace_s` for the first stage, Redis,
        which may have an append-only file to flush)."""
        stages = sorted({c.stage for c in self.children}, reverse=True)
        for stage in stages:
            members = [r for r in self._running if r.child.stage == stage and r.proc is not None]
            for running in members:
                assert running.proc is not None
                if running.restart_at is None and running.proc.poll() is None:
                    with contextlib.suppress(ProcessLookupError):
                        running.proc.send_signal(running.child.stop_signal)
            grace = last_stage_grace_s if stage == stages[-1] else grace_s
            deadline = self.clock() + grace
            for running in members:
                assert running.proc is not None
                try:
                    running.proc.wait(timeout=max(0.0, deadline - self.clock()))
                except subprocess.TimeoutExpired:
                    log.warning("%s (pid %s) did not stop within %g s: killed",
                                running.child.name, running.proc.pid, grace)
                _kill_group(running.proc.pid)
                running.proc.wait()

    def _spawn(self, running: _Running) -> None:
        child = running.child
        running.proc = subprocess.Popen(
            list(child.argv), env=dict(child.env) if child.env is not None else None,
            stdin=subprocess.DEVNULL, process_group=0, preexec_fn=die_with_parent)
        running.started_at = self.clock()
        running.restart_at = None


def _ask(ready: Callable[[], bool]) -> bool:
    try:
        return bool(ready())
    except Exception:
        return False


def _describe_exit(code: int) -> str:
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"was killed by {name}"
    return f"exited with code {code}"


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def die_with_parent() -> None:
    """In the child, before exec: SIGTERM when the supervisor dies (Linux's
    PR_SET_PDEATHSIG; elsewhere nothing)."""
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)
