"""The Redis event store's contract: versioned atomic appends, snapshots, idempotency."""

from __future__ import annotations

import threading
import time

import pytest

from domain.errors import VersionConflict
from domain.events import event, stamp, verify_chain
from domain.store import RedisEventStore


def _events(n: int, first: int = 1, prev: str = "") -> list:
    return stamp([event("noted", i=i) for i in range(n)], first, 1000.0, prev)


def test_append_then_read_back_in_order(redis_client):
    store = RedisEventStore(redis_client)
    batch = _events(3)
    assert store.append("g1", 0, batch, b"snap3").version == 3
    assert store.read("g1") == batch
    assert store.read("g1", after=1) == batch[1:]
    assert store.read("g1", after=1, until=2) == batch[1:2]
    assert store.snapshot("g1") == b"snap3"
    assert verify_chain(store.read("g1")) is None


def test_stale_expected_version_is_a_conflict_and_writes_nothing(redis_client):
    store = RedisEventStore(redis_client)
    store.append("g1", 0, _events(2), b"s2")
    with pytest.raises(VersionConflict) as err:
        store.append("g1", 1, _events(1, first=2), b"stale")
    assert err.value.actual == 2
    assert len(store.read("g1")) == 2
    assert store.snapshot("g1") == b"s2"


def test_racing_appends_at_one_version_exactly_one_wins(redis_client):
    store = RedisEventStore(redis_client)
    store.append("g1", 0, _events(1), b"s1")
    wins, conflicts = [], []

    def writer(i: int) -> None:
        try:
            store.append("g1", 1, _events(2, first=2), f"w{i}".encode())
            wins.append(i)
        except VersionConflict:
            conflicts.append(i)

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(wins) == 1 and len(conflicts) == 7
    assert len(store.read("g1")) == 3
    assert store.snapshot("g1") == f"w{wins[0]}".encode()


def test_idempotency_key_returns_the_first_answer_and_writes_once(redis_client):
    store = RedisEventStore(redis_client)
    store.append("g1", 0, _events(1), b"s1")
    first = store.append("g1", 1, _events(1, first=2), b"s2", idempotency=("k", b"answer"))
    assert first.duplicate is None and first.version == 2
    again = store.append("g1", 1, _events(1, first=2), b"s2", idempotency=("k", b"other"))
    assert again.duplicate == b"answer"
    assert len(store.read("g1")) == 2
    assert store.first_answer("g1", "k") == b"answer"


def test_checkpoints_and_tokens_are_written_with_the_append(redis_client):
    store = RedisEventStore(redis_client)
    store.append("g1", 0, _events(1), b"s1", checkpoint=(128, b"c128"), token=("h", 2))
    assert store.redis.hget("game:{g1}:ckpt", "128") == b"c128"
    assert store.checkpoint_at_or_before("g1", 200) == (128, b"c128")
    assert store.checkpoint_at_or_before("g1", 100) is None
    assert store.redis.hget("game:{g1}:tokens", "h") == b"2"


def test_every_key_of_a_game_shares_one_hash_tag(redis_client):
    store = RedisEventStore(redis_client)
    store.append("g1", 0, _events(1), b"s1", idempotency=("k", b"a"), token=("h", 0))
    store.save_secrets("g1", "seed")
    keys = [k.decode() for k in redis_client.keys("game:*")]
    assert keys and all("{g1}" in k for k in keys)


def test_wait_returns_new_events_or_nothing_after_the_timeout(redis_client):
    store = RedisEventStore(redis_client)
    store.append("g1", 0, _events(1), b"s1")
    assert store.wait("g1", 1, 0.05) == []
    later = _events(1, first=2)
    timer = threading.Timer(0.05, lambda: store.append("g1", 1, later, b"s2"))
    timer.start()
    got = store.wait("g1", 1, 2.0)
    timer.join()
    assert got == later


def test_a_wait_longer_than_one_blocking_read_goes_on_reading(redis_client, monkeypatch):
    # Blocking reads are cut below the client's socket timeout; the wait still lasts.
    monkeypatch.setattr("domain.store.MAX_BLOCK_S", 0.1)
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


def test_a_page_past_the_end_of_a_listing_is_empty(redis_client):
    store = RedisEventStore(redis_client)
    store.index("g1", "high-card", "open", 1.0)
    assert store.list_ids("open", None, 0, 30) == (["g1"], 1)
    # An offset beyond what Redis can take (a huge page number) is just past the end.
    assert store.list_ids("open", None, 2**70, 30) == ([], 1)
