"""The storage contracts (tests/contract) on a real Redis Cluster of three masters: every
script and command the stores send is legal there (the cluster refuses a command whose
keys are in different slots), and an append can wait for a replica."""

from __future__ import annotations

import threading
import time

import pytest

import domain.store.keys as keys
from domain.events import event, stamp
from domain.store import (
    RedisEventStore,
    RedisPlayerStore,
    RedisRatingStore,
    RedisWebhookStore,
    TimerChanges,
)
from domain.store.redis_analyses import RedisAnalyses
from domain.store.redis_chat import RedisTableChat
from domain.store.redis_listings import RedisListings
from domain.store.redis_log import RedisGameLog
from domain.store.redis_secrets import RedisSecrets
from tests.contract.event_store import (
    AnalysesContract,
    AppendNoticesContract,
    EventStoreContract,
    GameLogContract,
    ListingsContract,
    SecretsContract,
    TableChatContract,
)
from tests.contract.player_store import PlayerStoreContract
from tests.contract.rating_store import RatingStoreContract
from tests.contract.webhook_store import WebhookStoreContract


class TestGameLogOnACluster(GameLogContract):
    @pytest.fixture
    def store(self, cluster_client):
        return RedisGameLog(cluster_client)


class TestListingsOnACluster(ListingsContract):
    @pytest.fixture
    def store(self, cluster_client):
        return RedisListings(cluster_client)


class TestTableChatOnACluster(TableChatContract):
    @pytest.fixture
    def store(self, cluster_client):
        return RedisTableChat(cluster_client)


class TestSecretsOnACluster(SecretsContract):
    @pytest.fixture
    def store(self, cluster_client):
        return RedisSecrets(cluster_client)


class TestAnalysesOnACluster(AnalysesContract):
    @pytest.fixture
    def store(self, cluster_client):
        return RedisAnalyses(cluster_client)


class TestAppendNoticesOnACluster(AppendNoticesContract):
    @pytest.fixture
    def store(self, cluster_client):
        return RedisEventStore(cluster_client)


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


def test_an_append_on_a_cluster_leaves_the_timers_to_the_hooks(cluster_client):
    # The timers' set is one key, in another slot than the game's: never in its script.
    store = RedisEventStore(cluster_client)
    timers = TimerChanges("donkeypost:timers", drop=["old"], arm={"new": 5.0})
    result = store.append("g1", 0, _events(1), b"s", timers=timers)
    assert (result.version, result.timers_applied) == (1, False)
    assert not cluster_client.exists("donkeypost:timers")


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


def test_a_burst_of_notices_from_another_node_arrives_whole(cluster_client, redis_cluster):
    # Forwarded over the cluster bus while the subscriber drains them, notices arrive in
    # pieces: the drain after a first notice must wait for a notice's rest, not fail on it
    # (redis-py then drops the subscription, and the notices it had, to subscribe again).
    store = RedisEventStore(cluster_client)
    notices = store.appends()
    count = 20_000
    got: list = []
    resubscribed: list[int] = []

    def drain() -> None:
        deadline = time.monotonic() + 30
        while len(got) < count and time.monotonic() < deadline:
            found = notices.next(1.0)
            if found is None:
                resubscribed.append(len(got))
            else:
                got.extend(found)

    try:
        assert notices.next(5.0) is None  # subscribed
        # A master other than the one the subscription is on (that of the channel's slot).
        subscribed = redis_cluster.master_for_key(keys.APPENDED).port
        publisher = next(m for m in (redis_cluster.master_for_key(f"k{i}") for i in range(99))
                         if m.port != subscribed).client()
        reader = threading.Thread(target=drain)
        reader.start()
        for first in range(0, count, 1000):
            pipe = publisher.pipeline(transaction=False)
            for n in range(first + 1, first + 1001):
                pipe.publish(keys.APPENDED, f"burst {n}")
            pipe.execute()
        reader.join()
    finally:
        notices.close()
    assert resubscribed == []
    assert got == [("burst", n) for n in range(1, count + 1)]
