"""A server's whole stack as a tree of processes: pinned to one CPU, the CPU time it used
(children it already reaped included: a Redis background save, a respawned worker), and
the time its threads waited for a CPU while runnable (the machine's other jobs)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from bench.cpu import process_seconds
from tests.support.processes import children_of as children

_TICKS = os.sysconf("SC_CLK_TCK")


def tree(roots: Iterable[int]) -> list[int]:
    """The roots and all their descendants that are alive."""
    out: list[int] = []
    todo = list(roots)
    while todo:
        pid = todo.pop()
        if pid in out or not Path(f"/proc/{pid}").exists():
            continue
        out.append(pid)
        todo.extend(children(pid))
    return out


def pin(roots: Iterable[int], cpu: int) -> None:
    """Every thread of every process of the trees onto `cpu`; threads and processes they
    start later inherit it."""
    for pid in tree(roots):
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{pid}/task"):
                with contextlib.suppress(OSError):
                    os.sched_setaffinity(int(task), {cpu})


def cpu_seconds(roots: Iterable[int]) -> float:
    """User + system CPU seconds of the trees so far, with the children each has reaped."""
    pids = tree(roots)
    reaped = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        reaped += int(fields[13]) + int(fields[14])  # cutime, cstime
    return process_seconds(pids) + reaped / _TICKS


def wait_seconds(roots: Iterable[int]) -> float:
    """Seconds the live threads of the trees have spent runnable but waiting for a CPU
    (the scheduler's run delay, /proc/<pid>/task/<tid>/schedstat)."""
    total = 0
    for pid in tree(roots):
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{pid}/task"):
                with contextlib.suppress(OSError, ValueError, IndexError):
                    total += int(Path(f"/proc/{pid}/task/{task}/schedstat").read_text().split()[1])
    return total / 1e9


def pinned_to(cpu: int | None) -> Callable[[], None] | None:
    """A `preexec_fn` that pins the child before it runs anything (None: no pinning)."""
    if cpu is None:
        return None

    def pin_self() -> None:
        os.sched_setaffinity(0, {cpu})

    return pin_self


def stop(proc: subprocess.Popen[bytes] | subprocess.Popen[str], sig: int = signal.SIGTERM,
         timeout_s: float = 10.0) -> None:
    """Stop one process we started, by its pid: `sig`, then SIGKILL after `timeout_s`."""
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        proc.send_signal(sig)
    try:
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def wait_for(predicate: Callable[[], bool], timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not happen within {timeout_s:.0f} s")
