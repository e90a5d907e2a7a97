"""The web server under test: gunicorn with gevent workers, as `donkeypost serve` and the
Procfile run it, on a free loopback port, stopped by PID however the run ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType

from tests.support.processes import answers_healthz, children_of, free_port


class Gunicorn:
    """`gunicorn --worker-class gevent` serving `app` (the service's own WSGI app unless
    told) against `redis_url` (None: the store is named in `env`, e.g. `REDIS_CLUSTER_URL`
    and `RQ_REDIS_URL`).

    `reuse_port` (as `donkeypost serve` and the Procfile) lets the kernel spread connections
    over the workers; without it one worker may hold most of the keep-alive connections."""

    def __init__(self, redis_url: str | None, workers: int = 2, log_dir: Path | None = None,
                 reuse_port: bool = True, app: str = "donkeypost.wsgi:app",
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
        # No workers run beside this server: /healthz requires none, and a queue that
        # earlier tests left jobs in (nothing takes them) is not late.
        inherited = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        store = {"REDIS_URL": self.redis_url} if self.redis_url is not None else {}
        env = {**inherited, **store, "DONKEYPOST_HEALTH_WORKERS": "none",
               "DONKEYPOST_HEALTH_QUEUE_WAIT_S": str(24 * 3600), **self.env}
        log = open(self.log_dir / "gunicorn.log", "wb") if self.log_dir else subprocess.DEVNULL
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "--worker-class", "gevent", "--workers",
                 str(self.workers), "--bind", f"127.0.0.1:{self.port}", "--graceful-timeout",
                 "5", "--worker-connections", str(self.connections),
                 *(["--reuse-port"] if self.reuse_port else []),
                 "--log-level", os.environ.get("GUNICORN_LOG_LEVEL", "warning"), self.app],
                env=env, stdout=log, stderr=log)
        finally:
            if log is not subprocess.DEVNULL:
                log.close()  # (the child holds it)
        try:
            self._wait_ready()
        except BaseException:
            self.__exit__(None, None, None)
            raise
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
            if len(self.worker_pids()) == self.workers and answers_healthz(self.port):
                return
            time.sleep(0.1)
        raise RuntimeError("gunicorn did not answer /healthz in time")

    def worker_pids(self) -> list[int]:
        assert self.proc is not None
        return children_of(self.proc.pid)
