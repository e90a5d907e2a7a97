"""Connecting to Redis, from a URL (`redis://…`, or `unix://…` for the embedded server that
`donkeypost serve` runs, `donkeypost.embedded_redis`)."""

from __future__ import annotations

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
