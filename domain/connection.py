"""Connecting to Redis, from a URL (`redis://…`, or `unix://…` for the embedded server that
`donkeypost serve` runs, `donkeypost.embedded_redis`)."""

from __future__ import annotations

from typing import Any

import redis

DEFAULT_DATA_DIR = "data"


def connect(url: str, **kwargs: Any) -> redis.Redis:
    # Long-polls and streams each hold a connection: the default cap of 100 is too low.
    kwargs.setdefault("max_connections", 1000)
    return redis.Redis.from_url(url, **kwargs)
