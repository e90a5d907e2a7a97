"""Retention on the in-memory stores: games nobody started are deleted after their time,
whole and in bounded sweeps; games in play or over, and younger ones, are kept."""

from __future__ import annotations

from typing import Any

from domain.service import GameService
from domain.service.retention import RetentionPolicy, sweep_unstarted
from domain.store import MemoryEventStore, MemoryWebhookStore
from domain.webhooks.registration import new_registration
from tests.support.clock import Clock
from tests.support.games import games_under_test

DAY = 24 * 3600.0
NOW = 1_800_000_000.0



def _open_game(service: GameService, joined: int = 0) -> str:
    table = service.create("high-card", None, [{"kind": "human"}] * 2, deadline_s=None)
    for n in range(joined):
        service.join(table.id, f"p{n}")
    return table.id


def test_games_never_started_are_deleted_after_their_time_with_all_they_hold():
    clock = Clock(NOW - 8 * DAY)
    store, hooks = MemoryEventStore(clock), MemoryWebhookStore(clock)
    service = GameService(store, games_under_test(), clock=clock)
    stale = [_open_game(service), _open_game(service, joined=1)]
    hooks.add(new_registration(stale[1], None, "https://example.org/h", ("your_turn",), 0.0),
              limit=5)
    started = _open_game(service, joined=2)
    clock.now = NOW - 6 * DAY
    young = _open_game(service)
    swept = sweep_unstarted(store, hooks, RetentionPolicy(unstarted_ttl_s=7 * DAY), NOW)
    assert (swept.looked_at, swept.deleted, swept.relisted, swept.raced) == (2, 2, 0, 0)
    for game_id in stale:
        assert store.read_table(game_id)[0] is None and store.read(game_id) == []
        assert store.seed(game_id) is None and hooks.registrations(game_id) == []
    assert {i for i in store.list_ids(None, None, 0, 10)[0]} == {started, young}
    assert service.load(started)[0].status == "active"
    assert service.load(young)[0].status == "open"
    # Nothing left to do: a second sweep looks at nothing.
    again = sweep_unstarted(store, hooks, RetentionPolicy(unstarted_ttl_s=7 * DAY), NOW)
    assert again.looked_at == 0


def test_a_sweep_is_bounded_and_the_oldest_go_first():
    clock = Clock(NOW - 30 * DAY)
    store = MemoryEventStore(clock)
    service = GameService(store, games_under_test(), clock=clock)
    ids = []
    for _ in range(5):
        ids.append(_open_game(service))
        clock.now += 1
    policy = RetentionPolicy(unstarted_ttl_s=DAY, batch=2)
    first = sweep_unstarted(store, MemoryWebhookStore(), policy, NOW)
    assert (first.looked_at, first.deleted) == (2, 2)
    assert sorted(store.list_ids("open", None, 0, 10)[0]) == sorted(ids[2:])
    while sweep_unstarted(store, MemoryWebhookStore(), policy, NOW).looked_at:
        pass
    assert store.list_ids(None, None, 0, 10) == ([], 0)


def test_a_game_listed_open_but_started_is_relisted_not_deleted():
    clock = Clock(NOW - 8 * DAY)
    store = MemoryEventStore(clock)
    service = GameService(store, games_under_test(), clock=clock)
    game_id = _open_game(service, joined=2)
    table = service.load(game_id)[0]
    store.index(game_id, table.type, "open", table.created_at)  # a lost listing update
    swept = sweep_unstarted(store, MemoryWebhookStore(), RetentionPolicy(), NOW)
    assert (swept.deleted, swept.relisted) == (0, 1)
    assert store.list_ids("active", None, 0, 10) == ([game_id], 1)
    assert store.list_ids("open", None, 0, 10) == ([], 0)


class JoinsFirst:
    """A store where a player joins just before the sweep's delete lands."""

    def __init__(self, inner: MemoryEventStore, service: GameService) -> None:
        self.inner = inner
        self.service = service

    def delete(self, game_id: str, version: int) -> bool:
        self.service.join(game_id, "late")
        return self.inner.delete(game_id, version)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def test_a_join_racing_the_sweep_keeps_the_game():
    clock = Clock(NOW - 8 * DAY)
    store = MemoryEventStore(clock)
    service = GameService(store, games_under_test(), clock=clock)
    game_id = _open_game(service)
    swept = sweep_unstarted(JoinsFirst(store, service), MemoryWebhookStore(),  # type: ignore[arg-type]
                            RetentionPolicy(), NOW)
    assert (swept.deleted, swept.raced) == (0, 1)
    assert service.load(game_id)[0].seats[0].name == "late"


def test_a_game_never_started_leaves_its_players_inboxes_and_the_lobby():
    clock = Clock(NOW - 8 * DAY)
    store = MemoryEventStore(clock)
    service = GameService(store, games_under_test(), clock=clock)
    ann, ann_key = service.register_player("Ann")
    _bob, bob_key = service.register_player("Bob")
    stale = service.create("high-card", None, [
        {"kind": "human", "me": True}, {"kind": "human", "invite": "Bob"},
        {"kind": "human"}], by=ann).id
    assert service.inbox(bob_key, "open", None, 0, 10)[1] == 1
    assert service.list_games("open", None, 0, 10, free_seat=True)[1] == 1
    swept = sweep_unstarted(store, MemoryWebhookStore(), RetentionPolicy(unstarted_ttl_s=7 * DAY),
                            NOW, service.players)
    assert swept.deleted == 1 and store.read_table(stale)[0] is None
    for key in (ann_key, bob_key):
        assert service.inbox(key, "open", None, 0, 10) == ([], 0)
    assert service.list_games("open", None, 0, 10, free_seat=True) == ([], 0)
