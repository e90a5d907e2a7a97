"""The cluster the cluster tests run on is a real one: keys spread over three masters, a
cross-slot command is refused, and a replica takes over a killed master."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import redis
from redis.cluster import RedisCluster

from tests.support.redis_cluster import running_cluster

pytestmark = pytest.mark.timeout(120)


def test_three_masters_one_replica_each_and_a_failover(tmp_path: Path) -> None:
    with running_cluster(tmp_path, masters=3, replicas=1) as cluster:
        assert len(cluster.nodes) == 6
        client = RedisCluster.from_url(cluster.url)
        masters = {cluster.master_for_key(f"game:{{g{i}}}:events").port for i in range(30)}
        assert len(masters) == 3
        for i in range(30):
            client.set(f"game:{{g{i}}}:snap", i)
        # The server itself refuses a command whose keys live in different slots.
        with pytest.raises(redis.ResponseError, match="same slot"):
            cluster.nodes[0].client().execute_command("MGET", "game:{a}:snap", "game:{b}:snap")

        victim = cluster.master_for_key("game:{g0}:snap")
        client.wait(1, 1000)  # the replica has what the master acknowledged
        cluster.kill(victim)
        deadline = time.monotonic() + 30
        while cluster.master_for_key("game:{g0}:snap").port == victim.port:
            assert time.monotonic() < deadline, "no replica took over"
            time.sleep(0.2)
        cluster.wait_healthy()
        survivor = RedisCluster(startup_nodes=[redis.cluster.ClusterNode(h, p)
                                               for h, p in cluster.startup_nodes])
        assert survivor.get("game:{g0}:snap") == b"0"
        survivor.close()
        client.close()
    assert all(not n.alive() for n in cluster.nodes)
