"""The storage contracts (tests/contract) on a real Redis Cluster of three masters: every
script and command the stores send is legal there (the cluster refuses a command whose
keys are in different slots), and an append can wait for a replica."""

from __future__ import annotations

import pytest

from domain.events import event, stamp
from domain.store import (
    RedisEventStore,
    RedisPlayerStore,
    RedisRatingStore,
    RedisWebhookStore,
)
from tests.contract.event_store import EventStoreContract
from tests.contract.player_store import PlayerStoreContract
from tests.contract.rating_store import RatingStoreContract
from tests.contract.webhook_store import WebhookStoreContract


class TestEventStoreOnACluster(EventStoreContract):
    @pytest.fixture
    def store(self, cluster_client):
        return RedisEventStore(cluster_client)


class TestWebhookStoreOnACluster(WebhookStoreContract):
    @pytest.fixture
    def store(self, cluster_client):
        return RedisWebhookStore(cluster_client)


class TestPlayerStoreOnACluster(PlayerStoreContract):
    @pytest.fixture
    def store(self, cluster_client):
        return RedisPlayerStore(cluster_client)


class TestRatingStoreOnACluster(RatingStoreContract):
    @pytest.fixture
    def store(self, cluster_client):
        return RedisRatingStore(cluster_client)


def _events(n: int, first: int = 1) -> list:
    return stamp([event("noted", i=i) for i in range(n)], first, 1000.0, "")


def test_the_games_are_spread_over_the_masters(cluster_client, redis_cluster):
    store = RedisEventStore(cluster_client)
    for i in range(24):
        store.append(f"g{i}", 0, _events(1), b"s")
    masters = {redis_cluster.master_for_key(f"game:{{g{i}}}:events").port for i in range(24)}
    assert len(masters) == 3
    assert all(store.version(f"g{i}") == 1 for i in range(24))


def test_an_append_that_waits_for_a_replica_is_confirmed_by_it(cluster_client):
    store = RedisEventStore(cluster_client, wait_replicas=1, wait_timeout_ms=2000)
    first = store.append("g1", 0, _events(2), b"s2")
    assert (first.version, first.replicated) == (2, True)
    again = store.append("g1", 2, _events(1, first=3), None)
    assert (again.version, again.replicated) == (3, True)


def test_an_append_that_more_replicas_than_there_are_must_confirm_is_written_unconfirmed(
        cluster_client):
    # Each master has one replica: two never confirm, and the append says so after the
    # timeout (the service then answers 503); the events are written all the same.
    store = RedisEventStore(cluster_client, wait_replicas=2, wait_timeout_ms=50)
    result = store.append("g1", 0, _events(1), b"s1")
    assert (result.version, result.replicated) == (1, False)
    assert [e.seq for e in store.read("g1")] == [1]
