"""The embedded Redis exactly as `donkeypost serve` runs it (`donkeypost.embedded_redis`:
AOF with `appendfsync`, no RDB saves), in the foreground, with its data in a folder of the
test's (or the benchmark's) own: started, killed (SIGKILL, a crash) and started again on
the same data, stopped by PID; also a context manager."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

from donkeypost.embedded_redis import AppendFsync, EmbeddedRedis
from donkeypost.supervisor import die_with_parent


class RedisProcess:
    def __init__(self, data_dir: Path, appendfsync: AppendFsync = "everysec") -> None:
        self.server = EmbeddedRedis(data_dir, appendfsync)
        self.server.write_config()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def socket(self) -> Path:
        return self.server.socket_path

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def start(self, timeout_s: float = 30.0) -> None:
        # (SIGTERM when the process that started it dies, however it dies)
        self.proc = subprocess.Popen(self.server.argv, stdin=subprocess.DEVNULL,
                                     preexec_fn=die_with_parent)
        deadline = time.monotonic() + timeout_s
        while not self.server.ready():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"Redis did not start; see {self.server.log_path}")
            time.sleep(0.02)

    def kill(self) -> None:
        """SIGKILL: nothing is flushed beyond what `appendfsync` already wrote."""
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        """SIGTERM, Redis's own clean shutdown (the AOF is flushed)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> RedisProcess:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
