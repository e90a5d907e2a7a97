"""Redis outages answered with 503, and told once: when one starts and when it ends.

While Redis is down, restarting, loading its AOF, refusing writes, or this process has no
free connection to it, a request that needs it gets `503 store_unavailable` in the shared
error shape with `Retry-After`: the client may send the same request again (an action
with an `Idempotency-Key` is applied once whatever happens). The operator's log gets one
warning when the first such error is met and one line when Redis answers again (a probe
pings it every `PROBE_EVERY_S` meanwhile), not a traceback per request.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import redis
from redis.exceptions import (
    ClusterDownError,
    ClusterError,
    OutOfMemoryError,
    ReadOnlyError,
    RedisClusterException,
    SlotNotCoveredError,
    TryAgainError,
)

log = logging.getLogger(__name__)

RETRY_AFTER_S = 2
PROBE_EVERY_S = 0.5
# Errors of a Redis that is there but cannot serve now (a full disk, a replica).
_REFUSING_PREFIXES = ("MISCONF", "MASTERDOWN", "NOREPLICAS")
# What a cluster client raises (not as a RedisError) when it cannot read the cluster's
# layout from any node; its other RedisClusterExceptions are mistakes of the caller.
_CLUSTER_LAYOUT_LOST = ("Redis Cluster cannot be connected", "All slots are not covered",
                        "startup_nodes could not agree")
# Redis errors, and the cluster client's errors that are not RedisErrors.
STORE_ERRORS = (redis.RedisError, RedisClusterException)


def is_unavailable(err: BaseException) -> bool:
    """Does `err` say that Redis cannot be reached or cannot serve now (not a bug)?
    (ConnectionError covers a refused connection, a full pool, `LOADING` and "max number
    of clients reached". On a cluster: CLUSTERDOWN, TRYAGAIN, a slot without a master, a
    node that does not answer while a replica takes over, too many redirections; MOVED
    and ASK are followed by the client and never reach here.)"""
    if isinstance(err, (redis.ConnectionError, redis.TimeoutError, OutOfMemoryError,
                        ReadOnlyError, ClusterDownError, TryAgainError, ClusterError,
                        SlotNotCoveredError)):
        return True
    if isinstance(err, RedisClusterException):
        return str(err).startswith(_CLUSTER_LAYOUT_LOST)
    return isinstance(err, redis.ResponseError) and str(err).startswith(_REFUSING_PREFIXES)


def describe(err: BaseException) -> str:
    """What kind of outage, in a few words (no address: this may reach a client)."""
    if isinstance(err, redis.exceptions.BusyLoadingError):
        return "loading its data"
    if isinstance(err, redis.exceptions.MaxConnectionsError) or \
            "No connection available" in str(err):
        return "no free connection in this process"
    if isinstance(err, redis.TimeoutError):
        return "not answering in time"
    if isinstance(err, redis.ConnectionError):
        if "max number of clients" in str(err):
            return "out of client connections"
        return "unreachable"
    if isinstance(err, OutOfMemoryError):
        return "out of memory"
    if isinstance(err, (ClusterError, SlotNotCoveredError, RedisClusterException)):
        return "a cluster node is failing over"
    return "refusing commands"


class OutageWatch:
    """Tracks whether Redis is in an outage, as seen by this process.

    `failed(err)` is called for every request that met an unavailable Redis; the first of
    an outage logs it and starts a probe (a thread, a greenlet under gevent) that calls
    `ping` until it succeeds, then logs the recovery."""

    def __init__(self, ping: Callable[[], object], probe_every_s: float = PROBE_EVERY_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.ping = ping
        self.probe_every_s = probe_every_s
        self.clock = clock
        self._lock = threading.Lock()
        self._since: float | None = None
        self._answered = 0  # requests answered 503 during the current outage
        self.outages = 0  # outages seen since the process started

    @property
    def down(self) -> bool:
        return self._since is not None

    def failed(self, err: BaseException) -> None:
        with self._lock:
            self._answered += 1
            if self._since is not None:
                return
            self._since = self.clock()
            self._answered = 1
            self.outages += 1
        log.warning("Redis unavailable (%s: %s); answering 503 until it is back",
                    describe(err), err)
        threading.Thread(target=self._probe, name="redis-outage-probe", daemon=True).start()

    def _probe(self) -> None:
        while True:
            time.sleep(self.probe_every_s)
            try:
                self.ping()
            except STORE_ERRORS:
                continue
            with self._lock:
                since, answered = self._since, self._answered
                self._since = None
            assert since is not None
            log.warning("Redis is back after %.1f s; %d requests were answered 503",
                        self.clock() - since, answered)
            return
