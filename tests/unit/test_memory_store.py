"""The in-memory stores: the storage contracts (tests/contract), and expiry on a clock."""

from __future__ import annotations

import pytest

from domain.events import event, stamp
from domain.store import (
    MemoryEventStore,
    MemoryPlayerStore,
    MemoryRatingStore,
    MemoryWebhookStore,
)
from domain.store.memory import (
    MemoryAnalyses,
    MemoryGameLog,
    MemoryListings,
    MemorySecrets,
    MemoryTableChat,
)
from domain.store.port import DELIVERY_TTL_S, IDEMPOTENCY_TTL_S, Idempotency
from tests.contract.event_store import (
    AnalysesContract,
    AppendNoticesContract,
    EventStoreContract,
    GameLogContract,
    ListingsContract,
    SecretsContract,
    TableChatContract,
)
from tests.contract.notify_store import NotifyStoreContract
from tests.contract.player_store import PlayerStoreContract
from tests.contract.rating_store import RatingStoreContract
from tests.contract.webhook_store import WebhookStoreContract, _delivery
from tests.support.clock import Clock


class TestMemoryGameLog(GameLogContract):
    @pytest.fixture
    def store(self):
        return MemoryGameLog()


class TestMemoryListings(ListingsContract):
    @pytest.fixture
    def store(self):
        return MemoryListings()


class TestMemoryTableChat(TableChatContract):
    @pytest.fixture
    def store(self):
        return MemoryTableChat()


class TestMemorySecrets(SecretsContract):
    @pytest.fixture
    def store(self):
        return MemorySecrets()


class TestMemoryAnalyses(AnalysesContract):
    @pytest.fixture
    def store(self):
        return MemoryAnalyses()


class TestMemoryAppendNotices(AppendNoticesContract):
    @pytest.fixture
    def store(self):
        return MemoryEventStore()


class TestMemoryEventStore(EventStoreContract):
    @pytest.fixture
    def store(self):
        return MemoryEventStore()


class TestMemoryWebhookStore(WebhookStoreContract):
    @pytest.fixture
    def store(self):
        return MemoryWebhookStore()


class TestMemoryPlayerStore(PlayerStoreContract):
    @pytest.fixture
    def store(self):
        return MemoryPlayerStore()


class TestMemoryRatingStore(RatingStoreContract):
    @pytest.fixture
    def store(self):
        return MemoryRatingStore()


def test_an_idempotency_record_expires_as_in_redis():
    clock = Clock(1000.0)
    store = MemoryEventStore(clock=clock)
    store.append("g1", 0, stamp([event("noted")], 1, 1.0, ""), b"s1",
                 idempotency=Idempotency("k", "r", b"answer"))
    clock.now += IDEMPOTENCY_TTL_S - 1
    assert store.first_answer("g1", "k") == Idempotency("k", "r", b"answer")
    clock.now += 1
    assert store.first_answer("g1", "k") is None


def test_a_delivery_expires_as_in_redis():
    clock = Clock(1000.0)
    store = MemoryWebhookStore(clock=clock)
    store.add_deliveries([_delivery(1, "h1")])
    clock.now += DELIVERY_TTL_S
    assert store.delivery("g1", "d1") is None
    assert store.deliveries("g1", "h1") == []


class TestMemoryNotifyStore(NotifyStoreContract):
    @pytest.fixture
    def store(self):
        from domain.store.memory_notify import MemoryNotifyStore

        return MemoryNotifyStore()
