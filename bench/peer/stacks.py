"""The two servers the `peer` section compares, each with its whole stack.

- donkeypost as the Procfile deploys it: the embedded Redis (AOF on), the web server
  serving `bench.wsgi:app` — gunicorn with gevent workers
  (`tests.support.gunicorn.Gunicorn`), and/or granian (`GranianWeb`,
  `WEB_SERVER=granian`'s command line), each on a port of its own on the same Redis — and
  the two RQ workers (`donkeypost worker --queues deadlines,bots` and `--queues
  notifications`).
- boardgame.io: one Node process (`bench/peer/server.js`), with its in-memory storage or
  its FlatFile storage.

Each stack is its own temporary folder's, so pinning it to one CPU touches nothing another
section uses; `roots` are the pids whose process trees make up the stack.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from types import TracebackType
from typing import IO

import redis
from rq import Worker

from bench.peer.install import HERE
from bench.peer.processes import stop, wait_for
from bench.ping_route import BENCH_APP
from donkeypost.web_servers import WebServer, web_command
from tests.support.gunicorn import Gunicorn
from tests.support.processes import answers_healthz, free_port
from tests.support.redis_process import RedisProcess

WEB_CONNECTIONS = 1000  # per web worker, as tests.support.gunicorn.Gunicorn


def donkeypost_command() -> list[str]:
    """The `donkeypost` console script beside this Python, else on PATH."""
    beside = Path(sys.executable).with_name("donkeypost")
    found = str(beside) if beside.exists() else shutil.which("donkeypost")
    if not found:
        raise RuntimeError("the `donkeypost` command is not installed (pip install -e .)")
    return [found]


class GranianWeb:
    """granian serving `bench.wsgi:app` as `WEB_SERVER=granian` runs it, on a free port."""

    def __init__(self, env: dict[str, str], workers: int, log: Path) -> None:
        self.env = env
        self.workers = workers
        self.log = log
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> GranianWeb:
        argv = web_command("granian", "127.0.0.1", self.port, self.workers, WEB_CONNECTIONS,
                           app="bench.wsgi:app")
        with open(self.log, "wb") as log:  # the child keeps its own copy
            self.proc = subprocess.Popen(argv, env=self.env, stdout=log, stderr=log)
        try:
            wait_for(lambda: self.proc.poll() is not None or answers_healthz(self.port),  # type: ignore[union-attr]
                     60, "granian answering /healthz")
            if self.proc.poll() is not None:
                raise RuntimeError(f"granian exited with {self.proc.returncode}: "
                                   + tail(self.log))
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.proc is not None:
            stop(self.proc)


class DonkeypostStack:
    """Redis + the web servers asked for (each on a port of its own) + the RQ workers, on a
    folder of their own. A system measured on one web server counts that server's processes
    with Redis and the workers (the other server idles meanwhile)."""

    def __init__(self, folder: Path, web_workers: int, reuse_port: bool,
                 web_servers: tuple[WebServer, ...] = ("gunicorn",)) -> None:
        self.folder = folder
        self.web_workers = web_workers
        self.reuse_port = reuse_port
        self.web_servers = web_servers
        self.redis: RedisProcess | None = None
        self.webs: dict[WebServer, Gunicorn | GranianWeb] = {}
        self.workers: list[subprocess.Popen[bytes]] = []
        self._logs: list[IO[bytes]] = []

    def url(self, server: WebServer) -> str:
        return self.webs[server].url

    def roots(self, server: WebServer) -> list[int]:
        web = self.webs[server]
        assert self.redis is not None and web.proc is not None
        return [self.redis.pid, web.proc.pid, *(w.pid for w in self.workers)]

    def __enter__(self) -> DonkeypostStack:
        from workers.hooks import GAME_QUEUES, NOTIFICATIONS

        self.folder.mkdir(parents=True, exist_ok=True)
        try:
            self.redis = RedisProcess(self.folder / "redis").__enter__()
            # The workers import and register while the web servers start.
            env = {**os.environ, "REDIS_URL": self.redis.url}
            for n, queues in enumerate((",".join(GAME_QUEUES), NOTIFICATIONS)):
                log = open(self.folder / f"worker-{n}.log", "wb")
                self._logs.append(log)
                self.workers.append(subprocess.Popen(
                    [*donkeypost_command(), "worker", "--queues", queues],
                    env=env, stdout=log, stderr=log))
            for server in self.web_servers:
                # No rate limits: the load generator plays from one address (the peer has
                # none).
                if server == "granian":
                    self.webs[server] = GranianWeb(
                        {**env, "RATE_LIMITS": "off", "DONKEYPOST_HEALTH_WORKERS": "none"},
                        self.web_workers, self.folder / "granian.log").__enter__()
                else:
                    self.webs[server] = Gunicorn(
                        self.redis.url, self.web_workers, log_dir=self.folder,
                        reuse_port=self.reuse_port, app=BENCH_APP,
                        env={"RATE_LIMITS": "off"}, connections=WEB_CONNECTIONS).__enter__()
            connection = redis.Redis.from_url(self.redis.url)
            wait_for(lambda: Worker.count(connection=connection) >= len(self.workers)
                     or any(w.poll() is not None for w in self.workers), 60, "RQ workers up")
            connection.close()
            if any(w.poll() is not None for w in self.workers):
                raise RuntimeError(f"an RQ worker exited: see {self.folder}/worker-*.log")
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def aof_bytes(self) -> int:
        """The append-only file's size now (it only grows while no rewrite runs)."""
        assert self.redis is not None
        with redis.Redis.from_url(self.redis.url) as client:
            return int(client.info("persistence")["aof_current_size"])

    def forks(self) -> int:
        """How many times Redis has forked (a background RDB save or AOF rewrite each)."""
        assert self.redis is not None
        with redis.Redis.from_url(self.redis.url) as client:
            return int(client.info("stats")["total_forks"])

    def failure(self) -> str | None:
        """Why the stack no longer serves, or None while every process runs."""
        assert self.redis is not None
        if not Path(f"/proc/{self.redis.pid}").exists():
            return "Redis exited"
        for server, web in self.webs.items():
            assert web.proc is not None
            if web.proc.poll() is not None:
                log = "gunicorn.log" if server == "gunicorn" else "granian.log"
                return f"{server} exited with {web.proc.returncode}: " + tail(
                    self.folder / log)
        for n, worker in enumerate(self.workers):
            if worker.poll() is not None:
                return f"an RQ worker exited with {worker.returncode}: " + tail(
                    self.folder / f"worker-{n}.log")
        return None

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        for worker in self.workers:  # all told at once: each takes a second to stop
            with contextlib.suppress(ProcessLookupError):
                worker.terminate()
        for web in self.webs.values():
            web.__exit__(None, None, None)
        for worker in self.workers:
            stop(worker)
        for log in self._logs:
            log.close()
        if self.redis is not None and self.redis.server is not None:
            self.redis.__exit__()


class PeerServer:
    """boardgame.io's server with `storage` ("memory" or "flatfile") on a free port."""

    def __init__(self, node_modules: Path, storage: str, folder: Path) -> None:
        self.node_modules = node_modules
        self.storage = storage
        self.folder = folder
        self.port = free_port()
        self.proc: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def roots(self) -> list[int]:
        assert self.proc is not None
        return [self.proc.pid]

    def __enter__(self) -> PeerServer:
        self.folder.mkdir(parents=True, exist_ok=True)
        cmd = [shutil.which("node") or "node", str(HERE / "server.js"), "--port", str(self.port),
               "--storage", self.storage, "--dir", str(self.folder / "flatfile")]
        log = open(self.folder / f"server-{self.storage}.log", "w")
        self.proc = subprocess.Popen(cmd, env=node_env(self.node_modules), stdout=subprocess.PIPE,
                                     stderr=log, text=True)
        log.close()  # the child holds its own copy
        ready = threading.Event()

        def watch() -> None:
            assert self.proc is not None and self.proc.stdout is not None
            for line in self.proc.stdout:
                if line.startswith("ready"):
                    ready.set()

        threading.Thread(target=watch, name=f"peer-{self.storage}", daemon=True).start()
        try:
            wait_for(lambda: ready.is_set() or self.proc.poll() is not None,  # type: ignore[union-attr]
                     30, f"boardgame.io ({self.storage}) listening")
            if not ready.is_set():
                raise RuntimeError(f"boardgame.io ({self.storage}) exited: see "
                                   f"{self.folder}/server-{self.storage}.log")
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def failure(self) -> str | None:
        """Why the server no longer serves, or None while it runs."""
        assert self.proc is not None
        if self.proc.poll() is None:
            return None
        return f"node exited with {self.proc.returncode}: " + tail(
            self.folder / f"server-{self.storage}.log")

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.proc is not None:
            stop(self.proc)


def tail(log: Path, chars: int = 600) -> str:
    """The end of a log, on one line (the temporary folder goes away with the run)."""
    try:
        return " ".join(log.read_text(errors="replace")[-chars:].split())
    except OSError:
        return f"(no {log.name})"


def node_env(node_modules: Path) -> dict[str, str]:
    """Node finds the installed packages through NODE_PATH; production mode as deployed
    (boardgame.io then logs no INFO line per request)."""
    return {**os.environ, "NODE_PATH": str(node_modules), "NODE_ENV": "production"}
