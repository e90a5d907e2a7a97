"""The per-process fan-out behind event streams, on a real Redis: it survives socket
timeouts, hands out buffered events, groups its streams, and stops when nobody listens."""

from __future__ import annotations

import time

import pytest

from api.event_hub import WAKE_GROUP, EventHub
from domain.connection import connect
from domain.service import GameService
from domain.store import RedisEventStore
from tests.support.games import games_under_test


@pytest.fixture
def service(monkeypatch, redis_url, redis_client):
    # A socket timeout shorter than the hub's blocking reads: they time out, often.
    return GameService(store=RedisEventStore(connect(redis_url, socket_timeout=0.2)),
                       games=games_under_test())


def _started(service: GameService) -> tuple[str, int]:
    table = service.create("high-card", {}, [{"kind": "human"}] * 2, deadline_s=None)
    service.join(table.id, "ann")
    _seat, _token, table = service.join(table.id, "bob")
    return table.id, table.version


def test_a_feed_outlives_socket_timeouts_and_delivers_what_follows(service):
    game_id, version = _started(service)
    hub = EventHub(service.store, read_block_s=0.5)
    feed, group = hub.watch(game_id)
    assert not feed.wait_beyond(version, 1.5, group), "nothing happened yet"
    assert not feed.broken, "the reads that timed out did not break the feed"
    hand = service.load(game_id)[0].game.hands[0]
    service.act(game_id, 0, {"type": "play", "card": hand[0]})
    assert feed.wait_beyond(version, 3.0, group)
    [played] = feed.events_after(version)
    assert (played.seq, played.type, played.data) == (version + 1, "played", {"card": hand[0]})
    assert feed.events_after(version + 1) == []
    assert feed.events_after(0) is None, "older events are read from the store"
    hub.leave(feed, group)
    deadline = time.monotonic() + 5
    while hub.watched():
        assert time.monotonic() < deadline, "the reader did not stop"
        time.sleep(0.05)


def test_streams_are_woken_in_groups_and_small_audiences_in_one(service):
    game_id, _version = _started(service)
    hub = EventHub(service.store, read_block_s=0.2)
    watches = [hub.watch(game_id) for _ in range(WAKE_GROUP * 2 + 6)]
    groups = [group for _feed, group in watches]
    assert groups == [0] * WAKE_GROUP + [1] * WAKE_GROUP + [2] * 6
    for feed, group in watches[:WAKE_GROUP]:
        hub.leave(feed, group)
    assert hub.watch(game_id)[1] == 0, "a newcomer fills the emptied group first"
