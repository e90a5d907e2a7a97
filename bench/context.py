"""What the sections share in one run: a temporary folder, the embedded Redis in it, the
web server under test and an in-process app, each started when first needed."""

from __future__ import annotations

import contextlib
import os
import platform
import shutil
import tempfile
from pathlib import Path
from typing import Any

from flask import Flask

from api.rate_limits import RateLimits
from bench.ping_route import BENCH_APP
from domain.registry import GameRegistry, installed
from domain.service import GameService, NoHooks
from donkeypost.bootstrap import Components, bootstrap, web_app
from donkeypost.settings import Settings
from tests.support.gunicorn import Gunicorn
from tests.support.redis_process import RedisProcess


class BenchContext(contextlib.AbstractContextManager["BenchContext"]):
    def __init__(self, web_workers: int = 2, reuse_port: bool = True,
                 rate_limits: str = "off") -> None:
        self.web_workers = web_workers
        self.reuse_port = reuse_port
        self.rate_limits = rate_limits  # RATE_LIMITS of the server and the in-process app
        self.folder = Path(tempfile.mkdtemp(prefix="donkeypost-bench-"))
        self._stack = contextlib.ExitStack()
        self._redis: RedisProcess | None = None
        self._server: Gunicorn | None = None
        self._components: Components | None = None
        self._app: Flask | None = None
        self._games: GameRegistry | None = None
        self.cache: dict[str, Any] = {}  # what one section builds and another reuses

    def __exit__(self, *exc: object) -> None:
        self._stack.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    @property
    def redis(self) -> RedisProcess:
        if self._redis is None:
            self._redis = self._stack.enter_context(RedisProcess(self.folder / "redis"))
        return self._redis

    @property
    def server(self) -> Gunicorn:
        if self._server is None:
            self._server = self._stack.enter_context(
                Gunicorn(self.redis.url, self.web_workers, log_dir=self.folder,
                         reuse_port=self.reuse_port, app=BENCH_APP,
                         env={"RATE_LIMITS": self.rate_limits}))
        return self._server

    @property
    def games(self) -> GameRegistry:
        """The installed games, loaded once for the run (the service plays these)."""
        if self._games is None:
            self._games = installed()
        return self._games

    @property
    def components(self) -> Components:
        """The service wired by the composition root on the same Redis, with hooks that do
        nothing: the sections that use it time the service and the views, not the
        workers."""
        if self._components is None:
            limits = RateLimits() if self.rate_limits == "on" else RateLimits.off()
            self._components = bootstrap(Settings(redis_url=self.redis.url,
                                                  rate_limits=limits), hooks=NoHooks(),
                                         games=self.games)
        return self._components

    @property
    def app(self) -> Flask:
        """The API in process around `service`."""
        if self._app is None:
            self._app = web_app(self.components)
        return self._app

    @property
    def service(self) -> GameService:
        return self.components.service


def machine() -> dict[str, Any]:
    """The machine the figures were taken on."""
    model = ""
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    mem_kb = 0
    with contextlib.suppress(OSError, ValueError, IndexError):
        mem_kb = int(Path("/proc/meminfo").read_text().split()[1])
    return {
        "nproc": len(os.sched_getaffinity(0)),
        "cpu_model": model,
        "memory_gib": round(mem_kb / 1024 / 1024, 1),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "loadavg": load_average(),
    }


def load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]
