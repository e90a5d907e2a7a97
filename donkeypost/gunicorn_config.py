"""gunicorn's settings file for the web process (`--config python:donkeypost.gunicorn_config`):
its hooks only. It is read by gunicorn's own process, before any worker patches gevent in,
so it imports nothing of the application."""

from __future__ import annotations

import os
from typing import Any


def child_exit(server: Any, worker: Any) -> None:
    """A worker that stopped leaves the live gauges of the metrics (its requests in
    flight), in prometheus_client's multiprocess mode."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)
