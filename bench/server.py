"""The server under test: the embedded Redis in a temporary folder and gunicorn with gevent
workers, as `donkeypost serve` runs them, on a free loopback port."""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType

from donkeypost import embedded_redis


class EmbeddedRedis:
    """The embedded Redis exactly as `donkeypost serve` runs it (`donkeypost.embedded_redis`:
    AOF with `appendfsync`, no RDB saves), in the foreground, with its data in `folder`;
    stopped on exit."""

    def __init__(self, folder: Path,
                 appendfsync: embedded_redis.AppendFsync = "everysec") -> None:
        self.server = embedded_redis.EmbeddedRedis(folder, appendfsync)
        self.proc: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> EmbeddedRedis:
        self.server.write_config()
        self.proc = subprocess.Popen(self.server.argv, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while not self.server.ready():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"Redis did not start: see {self.server.log_path}")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        # SIGTERM is Redis's own clean shutdown (the AOF is flushed).
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Gunicorn:
    """`gunicorn --worker-class gevent` serving `bench.wsgi:app` against `redis_url` (None:
    the store is named in `env`, e.g. `REDIS_CLUSTER_URL` and `RQ_REDIS_URL`).

    `reuse_port` (as `donkeypost serve` and the Procfile) lets the kernel spread connections
    over the workers; without it one worker may hold most of the keep-alive connections."""

    def __init__(self, redis_url: str | None, workers: int = 2, log_dir: Path | None = None,
                 reuse_port: bool = True, app: str = "bench.wsgi:app",
                 env: Mapping[str, str] | None = None, connections: int = 1000) -> None:
        self.redis_url = redis_url
        self.env = dict(env or {})  # settings for the web processes (e.g. RATE_LIMITS)
        self.workers = workers
        self.reuse_port = reuse_port
        self.app = app
        self.connections = connections  # per worker (gunicorn's --worker-connections)
        self.port = free_port()
        self.log_dir = log_dir
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> Gunicorn:
        # No workers run beside the benchmark's server: /healthz requires none.
        inherited = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        store = {"REDIS_URL": self.redis_url} if self.redis_url is not None else {}
        env = {**inherited, **store, "DONKEYPOST_HEALTH_WORKERS": "none", **self.env}
        log = open(self.log_dir / "gunicorn.log", "wb") if self.log_dir else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--worker-class", "gevent", "--workers",
             str(self.workers), "--bind", f"127.0.0.1:{self.port}", "--graceful-timeout", "5",
             "--worker-connections", str(self.connections),
             *(["--reuse-port"] if self.reuse_port else []),
             "--log-level", os.environ.get("GUNICORN_LOG_LEVEL", "warning"), self.app],
            env=env, stdout=log, stderr=log)
        self._wait_ready()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.proc is None:
            return
        # SIGINT is gunicorn's quick shutdown: nothing is in flight once the runs are over.
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def _wait_ready(self, timeout_s: float = 60.0) -> None:
        assert self.proc is not None
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.proc.returncode}")
            if len(self.worker_pids()) == self.workers and self._healthy():
                return
            time.sleep(0.1)
        raise RuntimeError("gunicorn did not answer /healthz in time")

    def _healthy(self) -> bool:
        return answers_healthz(self.port)

    def worker_pids(self) -> list[int]:
        assert self.proc is not None
        return children(self.proc.pid)


def children(pid: int) -> list[int]:
    try:
        raw = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in raw.split()]


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
