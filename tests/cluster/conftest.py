"""The tests on a real Redis Cluster (`tests.support.redis_cluster`): one cluster of three
masters with a replica each for the whole run, started when the first test needs it and
emptied before each test. The queues stay on the run's plain Redis, as they must (RQ does
not run on a cluster): the settings are those of a deployment with `REDIS_CLUSTER_URL` and
`RQ_REDIS_URL`.

Several modules here collect tests written for one Redis (imported from tests/e2e and
tests/integration) and run them again with this directory's fixtures, which put the same
`app`, `api` and `components` on the cluster."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis.cluster import RedisCluster

from api.rate_limits import RateLimits
from domain.connection import connect_cluster
from domain.registry import GameRegistry
from donkeypost.bootstrap import Components, bootstrap, job_context
from donkeypost.settings import Settings
from tests.e2e.api_client import ApiClient
from tests.support.apps import shared_app
from tests.support.clock import Clock
from tests.support.redis_cluster import Cluster, running_cluster
from workers import context
from workers.hooks import RqHooks

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    with running_cluster(Path(tmp_path_factory.mktemp("cluster"))) as cluster:
        yield cluster


@pytest.fixture
def cluster_client(redis_cluster: Cluster, redis_client) -> Iterator[RedisCluster]:
    """A client of the cluster, emptied (every master), beside the emptied plain Redis."""
    redis_cluster.wait_healthy()
    client = connect_cluster(redis_cluster.seeds_url)
    client.flushall()
    yield client
    client.close()


@pytest.fixture
def cluster_settings(redis_cluster: Cluster, redis_url: str, cluster_client) -> Settings:
    """A deployment on the cluster: the games there, the queues on a plain Redis. No rate
    limits (the tests play fast from one address), no worker required by /healthz."""
    return Settings(redis_cluster_url=redis_cluster.seeds_url, rq_redis_url=redis_url,
                    rate_limits=RateLimits.off(), health_workers=())


# --- what tests/e2e's modules ask for ------------------------------------------------------
@pytest.fixture
def app(cluster_settings: Settings, games: GameRegistry):
    return shared_app(dataclasses.replace(cluster_settings, sse_keepalive_s=0.2), games)


@pytest.fixture
def api(app) -> ApiClient:
    return ApiClient(app.test_client())


# --- what tests/integration's modules ask for ----------------------------------------------
@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def components(cluster_settings: Settings, clock: Clock, games: GameRegistry) -> Components:
    """The web app's and the workers' objects on the cluster, with the real hooks."""
    return bootstrap(cluster_settings, clock=clock, games=games)


@pytest.fixture
def rq_hooks(components: Components) -> RqHooks:
    return components.rq_hooks


@pytest.fixture
def service(components: Components):
    with context.running(job_context(components)):
        yield components.service
