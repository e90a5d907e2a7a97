"""Connecting to Redis, from a URL (`redis://…`, or `unix://…` for the embedded server that
`donkeypost serve` runs, `donkeypost.embedded_redis`), or to a Redis Cluster from the URL
of some of its nodes (`redis://host:port,host:port`)."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlsplit

import redis
from redis.backoff import ExponentialWithJitterBackoff
from redis.cluster import ClusterNode, RedisCluster
from redis.retry import Retry

# A client of one Redis server, or of a Redis Cluster: the stores take either.
RedisClient = redis.Redis | RedisCluster

DEFAULT_DATA_DIR = "data"
# Connections one client (one pool) opens at most. Nothing holds a connection while it
# waits (streams and long-polls wait on the web process's one subscription), and a command
# takes a fraction of a millisecond: a burst of requests waits its turn for one of these
# rather than opening hundreds that then stay open, idle. (On a cluster: per node.)
MAX_CONNECTIONS = 10
# How long a command waits for a free connection before it fails (answered 503).
POOL_TIMEOUT_S = 5.0
# A cluster client retries a command this often (after a MOVED, a refused connection, a
# CLUSTERDOWN: reading the cluster's layout again each time) before the error is raised.
CLUSTER_RETRIES = 3


def _timeouts(kwargs: dict[str, Any]) -> dict[str, Any]:
    # A Redis that hangs (stopped, swapping) must become an error, not a request that
    # waits forever: the API answers it with 503. (Blocking reads block for less.)
    kwargs.setdefault("socket_connect_timeout", 5)
    kwargs.setdefault("socket_timeout", 10)
    kwargs.setdefault("timeout", POOL_TIMEOUT_S)
    return kwargs


def connect(url: str, max_connections: int = MAX_CONNECTIONS, **kwargs: Any) -> redis.Redis:
    pool = redis.BlockingConnectionPool.from_url(url, max_connections=max_connections,
                                                 **_timeouts(kwargs))
    return redis.Redis(connection_pool=pool)


def cluster_nodes(url: str) -> list[tuple[str, int]]:
    """The `host:port` pairs of a cluster URL, `redis://[user:password@]host:port,…`."""
    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss"):
        raise ValueError("a cluster URL looks like redis://host:port,host:port")
    nodes = []
    for address in parts.netloc.rpartition("@")[2].split(","):
        host, _, port = address.strip().rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"{address!r} is not host:port")
        nodes.append((host.strip("[]"), int(port)))
    return nodes


def connect_cluster(url: str, max_connections: int = MAX_CONNECTIONS,
                    **kwargs: Any) -> RedisCluster:
    """A client of the Redis Cluster that the nodes of `url` belong to (any of them
    answering is enough: it reads the layout of the whole cluster from one). Each node's
    pool opens at most `max_connections`, and a command waits for a free one, as
    `connect`'s do. Raises if no node answers."""
    return RedisCluster(**cluster_options(url, max_connections, **kwargs))


def cluster_options(url: str, max_connections: int = MAX_CONNECTIONS,
                    **kwargs: Any) -> dict[str, Any]:
    """`RedisCluster`'s arguments for `connect_cluster` (also what another library that
    builds its own cluster client is given: the rate limits')."""
    nodes = cluster_nodes(url)
    parts = urlsplit(url)
    if parts.username:
        kwargs.setdefault("username", unquote(parts.username))
    if parts.password:
        kwargs.setdefault("password", unquote(parts.password))
    if parts.scheme == "rediss":
        kwargs.setdefault("ssl", True)
    (host, port), others = nodes[0], nodes[1:]
    # Given as a URL, the first node makes the client build each node's pool with the
    # class it is given: a blocking one (given as host and port, the nodes would get pools
    # that fail at once when full).
    first = f"[{host}]" if ":" in host else host
    return {"url": f"{parts.scheme}://{first}:{port}",
            "startup_nodes": [ClusterNode(h, p) for h, p in others],
            "connection_pool_class": redis.BlockingConnectionPool,
            "max_connections": max_connections,
            "retry": Retry(ExponentialWithJitterBackoff(base=0.05, cap=0.5), CLUSTER_RETRIES),
            **_timeouts(kwargs)}


def is_cluster(client: RedisClient) -> bool:
    return isinstance(client, RedisCluster)


def ping(client: RedisClient) -> bool:
    """Does the server answer (on a cluster: every master)?"""
    if isinstance(client, RedisCluster):
        return bool(client.ping(target_nodes=RedisCluster.PRIMARIES))
    return bool(client.ping())
