"""The Redis stores: the storage contracts (tests/contract) on a real Redis, and what only
Redis has — its key layout, and blocking reads cut below the client's socket timeout."""

from __future__ import annotations

import threading
import time

import pytest

from domain.events import event, stamp, verify_chain
from domain.players.inbox import InboxMove, Position
from domain.players.records import Player
from domain.store import (
    Idempotency,
    RedisEventStore,
    RedisPlayerStore,
    RedisRatingStore,
    RedisWebhookStore,
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
from tests.contract.notify_store import NotifyStoreContract
from tests.contract.player_store import PlayerStoreContract
from tests.contract.rating_store import START, RatingStoreContract, _change
from tests.contract.webhook_store import WebhookStoreContract, _delivery


def _events(n: int, first: int = 1, prev: str = "") -> list:
    return stamp([event("noted", i=i) for i in range(n)], first, 1000.0, prev)


class TestRedisGameLog(GameLogContract):
    @pytest.fixture
    def store(self, redis_client):
        return RedisGameLog(redis_client)


class TestRedisListings(ListingsContract):
    @pytest.fixture
    def store(self, redis_client):
        return RedisListings(redis_client)


class TestRedisTableChat(TableChatContract):
    @pytest.fixture
    def store(self, redis_client):
        return RedisTableChat(redis_client)


class TestRedisSecrets(SecretsContract):
    @pytest.fixture
    def store(self, redis_client):
        return RedisSecrets(redis_client)


class TestRedisAnalyses(AnalysesContract):
    @pytest.fixture
    def store(self, redis_client):
        return RedisAnalyses(redis_client)


class TestRedisAppendNotices(AppendNoticesContract):
    @pytest.fixture
    def store(self, redis_client):
        return RedisEventStore(redis_client)


class TestRedisEventStore(EventStoreContract):
    @pytest.fixture
    def store(self, redis_client):
        return RedisEventStore(redis_client)


class TestRedisWebhookStore(WebhookStoreContract):
    @pytest.fixture
    def store(self, redis_client):
        return RedisWebhookStore(redis_client)


class TestRedisPlayerStore(PlayerStoreContract):
    @pytest.fixture
    def store(self, redis_client):
        return RedisPlayerStore(redis_client)


class TestRedisRatingStore(RatingStoreContract):
    @pytest.fixture
    def store(self, redis_client):
        return RedisRatingStore(redis_client)


def test_checkpoints_and_tokens_are_kept_in_the_games_keys(redis_client):
    store = RedisEventStore(redis_client)
    store.append("g1", 0, _events(1), b"s1", checkpoint=(128, b"c128"), token=("h", 2))
    assert store.redis.hget("game:{g1}:ckpt", "128") == b"c128"
    assert store.checkpoint_at_or_before("g1", 200) == (128, b"c128")
    assert store.checkpoint_at_or_before("g1", 100) is None
    assert store.redis.hget("game:{g1}:tokens", "h") == b"2"


def test_every_key_of_a_game_shares_one_hash_tag(redis_client):
    store = RedisEventStore(redis_client)
    store.append("g1", 0, _events(1), b"s1", idempotency=Idempotency("k", "r", b"a"),
                 token=("h", 0))
    store.save_secrets("g1", "seed")
    store.save_creator("g1", "hash")
    hooks = RedisWebhookStore(redis_client)
    hooks.add_deliveries([_delivery(1, "h1")])
    keys = [k.decode() for k in redis_client.keys("game:*")]
    assert len(keys) >= 8 and all("{g1}" in k for k in keys)


def test_every_key_of_a_player_shares_one_hash_tag(redis_client):
    players = RedisPlayerStore(redis_client)
    players.add(Player(id="p1", name="Ann", created_at=1.0), "ann", "h")
    players.place([InboxMove("p1", "g1", Position(b, 1.0)) for b in ("open", "finished")])
    players.place([InboxMove("p1", "g2", Position("active", 1.0))])
    RedisRatingStore(redis_client).apply("p1", None, _change("g1", START, 1600.0))
    found = sorted(k.decode() for k in redis_client.keys("player:*"))
    assert found == ["player:{p1}", "player:{p1}:inbox:active", "player:{p1}:inbox:finished",
                     "player:{p1}:rated", "player:{p1}:ratings"]


def test_a_wait_longer_than_one_blocking_read_goes_on_reading(redis_client, monkeypatch):
    # Blocking reads are cut below the client's socket timeout; the wait still lasts.
    monkeypatch.setattr("domain.store.redis_log.MAX_BLOCK_S", 0.1)
    store = RedisEventStore(redis_client)
    store.append("g1", 0, _events(1), b"s1")
    started = time.monotonic()
    assert store.wait("g1", 1, 0.35) == []
    assert time.monotonic() - started >= 0.35
    later = _events(1, first=2)
    timer = threading.Timer(0.3, lambda: store.append("g1", 1, later, b"s2"))
    timer.start()
    got = store.wait("g1", 1, 5.0)
    timer.join()
    assert got == later


def test_tampering_breaks_the_hash_chain():
    batch = _events(3)
    assert verify_chain(batch) is None
    forged = [batch[0], batch[1].__class__(**{**{f: getattr(batch[1], f)
                                                 for f in batch[1].__struct_fields__},
                                              "data": {"i": 99}}), batch[2]]
    assert verify_chain(forged) == 2


def test_an_idempotency_record_kept_before_requests_were_hashed_still_answers(redis_client):
    # Records written before the request's hash was kept hold the answer alone.
    store = RedisEventStore(redis_client)
    store.append("g1", 0, _events(1), b"s1")
    redis_client.set("game:{g1}:idem:k", b'{"version": 1}')
    assert store.first_answer("g1", "k") == Idempotency("k", "", b'{"version": 1}')


class TestRedisNotifyStore(NotifyStoreContract):
    @pytest.fixture
    def store(self, redis_client):
        from domain.store.redis_notify import RedisNotifyStore

        return RedisNotifyStore(redis_client)
