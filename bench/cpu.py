"""Linux's /proc: CPU time of given processes and of the whole machine (the machine is
shared, so a run records how busy it was besides the processes under test), and how many
sockets a process holds (how the connections spread over the web workers)."""

from __future__ import annotations

import os
from pathlib import Path

_TICKS = os.sysconf("SC_CLK_TCK")


def process_seconds(pids: list[int]) -> float:
    """User + system CPU seconds these processes have used so far."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / _TICKS


def machine_busy_seconds() -> float:
    """CPU seconds all cores have spent not idle since boot."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / _TICKS


def open_sockets(pid: int) -> int:
    """Sockets the process holds (its clients' connections, Redis's, the listener)."""
    folder = Path(f"/proc/{pid}/fd")
    count = 0
    try:
        for fd in folder.iterdir():
            try:
                count += os.readlink(fd).startswith("socket:")
            except OSError:
                continue
    except OSError:
        return 0
    return count
