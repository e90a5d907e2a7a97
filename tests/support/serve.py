"""`donkeypost serve` as a person runs it, in a process of its own: its output, its
children by role, Ctrl-C, and a cleanup that leaves no process behind (by PID)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.support.processes import alive, children_of, cmdline, descendants, free_port
from tests.support.workers import ROOT, wait_until


def role(command: str) -> str | None:
    """Which of serve's children a command line is."""
    if "redis-server" in command:
        return "redis"
    if "gunicorn" in command or "-m granian " in command:
        return "web"
    if "--queues deadlines,ratings,bots,strong-bots,expert-bots" in command:
        return "bots"
    if "--queues deadlines,ratings,bots" in command:
        return "quick"
    if "--queues notifications" in command:
        return "notifier"
    return None


class ServeProcess:
    def __init__(self, tmp_path: Path, *args: str, port: int | None = None,
                 **env_vars: str) -> None:
        self.port = port or free_port()
        self.data = tmp_path / "data"
        self.log_path = tmp_path / "serve.log"
        env = {**os.environ, "DONKEYPOST_LOG_LEVEL": "INFO", **env_vars}
        for name in ("REDIS_URL", "RQ_REDIS_URL"):
            env.pop(name, None)
        tmp_path.mkdir(parents=True, exist_ok=True)
        self._log = open(self.log_path, "ab")  # noqa: SIM115 - closed in close()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "donkeypost.cli", "serve", "--port", str(self.port),
             "--data", str(self.data), *args],
            cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True)
        self.seen: set[int] = set()  # every descendant ever seen, for the cleanup

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_listening(self, timeout_s: float = 90.0) -> None:
        def listening() -> bool:
            if self.proc.poll() is not None:
                raise AssertionError(f"serve exited with {self.proc.returncode}:\n"
                                     f"{self.output()[-3000:]}")
            return "listening on" in self.output()

        wait_until(listening, timeout_s, "serve listening", every_s=0.1)
        self.children()

    def children(self) -> dict[str, list[int]]:
        """serve's children by role (`bots` may hold several)."""
        by_role: dict[str, list[int]] = {}
        for pid in children_of(self.proc.pid):
            name = role(cmdline(pid))
            if name is not None and alive(pid):
                by_role.setdefault(name, []).append(pid)
        self.seen.update(descendants(self.proc.pid))
        return by_role

    def web_workers(self) -> list[int]:
        return [pid for master in self.children().get("web", [])
                for pid in children_of(master) if alive(pid)]

    def interrupt(self, timeout_s: float = 15.0) -> tuple[int, float]:
        """Ctrl-C (SIGINT to serve alone, as a terminal sends it to its foreground
        process group, of which serve's children are not); its exit code and how long
        it took to exit."""
        self.children()
        started = time.monotonic()
        self.proc.send_signal(signal.SIGINT)
        code = self.proc.wait(timeout=timeout_s)
        return code, time.monotonic() - started

    def close(self) -> None:
        """Whatever happened: serve and everything it started are gone, by PID."""
        with contextlib.suppress(Exception):
            self.children()
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
            self.proc.wait(timeout=10)
        for pid in self.seen:  # (a pid since reused by another program is left alone)
            if alive(pid) and role(cmdline(pid)) is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        self._log.close()
