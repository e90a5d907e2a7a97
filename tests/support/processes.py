"""What the tests (and the benchmarks) ask of the processes they start: a free loopback
port, a process's children and descendants read from /proc, whether one is alive, its
command line, and whether a web server answers `/healthz`."""

from __future__ import annotations

import http.client
import socket
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def children_of(pid: int) -> list[int]:
    try:
        raw = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in raw.split()]


def descendants(pid: int) -> list[int]:
    found: list[int] = []
    for child in children_of(pid):
        found += [child, *descendants(child)]
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def answers_healthz(port: int) -> bool:
    """Does a web server on this loopback port answer `GET /healthz` with 200?"""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        conn.request("GET", "/healthz")
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()
