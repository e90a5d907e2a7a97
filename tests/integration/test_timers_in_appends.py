"""A move's deadline timers written by its append (real Redis): when the queues' Redis is
the games' Redis, the append script drops the version before's timers and arms the new
ones in its own atomic step, and the hooks send nothing for them; elsewhere (another
Redis for the queues) the hooks arm them after the append, as they always did."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import msgspec
import pytest
import redis

from domain.errors import VersionConflict
from domain.events import event, stamp
from domain.store import Idempotency, RedisEventStore, TimerChanges
from domain.table import to_act
from donkeypost.bootstrap import bootstrap, job_context
from donkeypost.settings import Settings
from tests.support.games import games_under_test
from workers import context
from workers.hooks import TIMERS
from workers.plan import duties


def _deadline_game(service):
    table = service.create("ochs-und-esel", {"rounds": 1, "first_player": 0},
                           [{"kind": "human"}] * 3, deadline_s=3600)
    for name in ("ann", "bob", "cy"):
        _seat, _token, table = service.join(table.id, name)
    return table


def _move(service, table, **kwargs):
    game = games_under_test().game(table.type)
    seat = min(to_act(table, game))
    action = msgspec.to_builtins(game.legal_actions(table.game, seat)[0])
    return service.act(table.id, seat, action, **kwargs)


def _timers_of(table) -> dict[str, float]:
    """The timers `table` needs at its version (its duties due later)."""
    return {d.job_id: d.due for d in duties(table, games_under_test().game(table.type))}


def _armed(client: redis.Redis) -> dict[str, float]:
    return {m.decode(): s for m, s in client.zrange(TIMERS, 0, -1, withscores=True)}


def _calls(client: redis.Redis, *commands: str) -> dict[str, int]:
    """How many times the server ran each command (a script's commands included)."""
    stats = client.info("commandstats")
    return {c: stats.get(f"cmdstat_{c}", {}).get("calls", 0) for c in commands}


@contextmanager
def _checkouts(client: redis.Redis) -> Iterator[list[int]]:
    """Counts the connections `client` takes from its pool (one per command or pipeline
    sent: its round trips)."""
    pool = client.connection_pool
    taken = [0]
    original: Callable[..., Any] = pool.get_connection

    def counted(*args: Any, **kwargs: Any) -> Any:
        taken[0] += 1
        return original(*args, **kwargs)

    pool.get_connection = counted  # type: ignore[method-assign]
    try:
        yield taken
    finally:
        del pool.get_connection


def test_a_move_swaps_its_timers_in_its_append_with_no_round_trip_of_its_own(
        service, components, redis_client):
    assert components.rq_hooks.timers_in_appends
    table = _deadline_game(service)
    first = _timers_of(table)
    assert first and _armed(redis_client) == first
    before = _calls(redis_client, "evalsha", "zadd", "zrem")
    with _checkouts(components.queue_redis) as queue_round_trips:
        moved = _move(service, table).table
    after = _calls(redis_client, "evalsha", "zadd", "zrem")
    # Exactly the new version's timers; the one of the version before is gone.
    assert _armed(redis_client) == _timers_of(moved) != first
    assert not set(first) & set(_armed(redis_client))
    # One script for the move, the timers' commands ran once (in it), and the hooks took
    # no connection of the queues' client: no round trip of their own.
    assert after["evalsha"] - before["evalsha"] == 1
    assert (after["zadd"] - before["zadd"], after["zrem"] - before["zrem"]) == (1, 1)
    assert queue_round_trips == [0]


def test_the_workers_see_the_timers_a_move_armed(service, components, clock):
    hooks = components.rq_hooks
    moved = _move(service, _deadline_game(service)).table
    # A starting worker finds every timer in place, and arms nothing again.
    counts = hooks.rebuild(service.active_games())
    assert (counts.duties, counts.enqueued, counts.armed) == (1, 0, 0)
    # When due, the pump turns it into its job.
    clock.advance(3601)
    assert hooks.release_due() == 1
    assert hooks.timers() == {}
    assert hooks.queues["deadlines"].job_ids == list(_timers_of(moved))


def test_an_idempotent_retry_changes_no_timer(service, redis_client):
    table = _deadline_game(service)
    first = _move(service, table, if_match=table.version, idempotency_key="k1")
    armed = _armed(redis_client)
    before = _calls(redis_client, "zadd", "zrem")
    again = _move(service, table, if_match=table.version, idempotency_key="k1")
    assert again.table.version == first.table.version
    assert _armed(redis_client) == armed
    assert _calls(redis_client, "zadd", "zrem") == before


def _event(seq: int):
    return stamp([event("noted", i=seq)], seq, 1000.0, "")


def test_the_store_applies_timers_only_with_an_append_that_lands(redis_client):
    store = RedisEventStore(redis_client)
    redis_client.zadd(TIMERS, {"old": 5.0, "other-game": 7.0})
    changes = TimerChanges(TIMERS, drop=["old"], arm={"new": 9.5, "newer": 11.25})
    landed = store.append("g1", 0, [_event(1)], b"snap", timers=changes,
                          idempotency=Idempotency("k", "r", b"{}"))
    assert landed.timers_applied
    assert _armed(redis_client) == {"other-game": 7.0, "new": 9.5, "newer": 11.25}

    later = TimerChanges(TIMERS, drop=["new", "newer"], arm={"stale": 1.0})
    with pytest.raises(VersionConflict):  # someone else appended first: nothing written
        store.append("g1", 0, [_event(1)], None, timers=later)
    duplicate = store.append("g1", 1, [_event(2)], None, timers=later,
                             idempotency=Idempotency("k", "r", b"{}"))
    assert duplicate.duplicate is not None and not duplicate.timers_applied
    assert _armed(redis_client) == {"other-game": 7.0, "new": 9.5, "newer": 11.25}

    # Dropping only, arming only, and no timers at all.
    assert store.append("g1", 1, [_event(2)], None,
                        timers=TimerChanges(TIMERS, drop=["new"], arm={})).timers_applied
    assert store.append("g1", 2, [_event(3)], None,
                        timers=TimerChanges(TIMERS, drop=[], arm={"x": 3.0})).timers_applied
    assert not store.append("g1", 3, [_event(4)], None).timers_applied
    assert _armed(redis_client) == {"other-game": 7.0, "newer": 11.25, "x": 3.0}


def _other_database(url: str) -> str:
    if url.startswith("unix://"):
        path, _, query = url.partition("?")
        kept = [q for q in query.split("&") if q and not q.startswith("db=")]
        return f"{path}?{'&'.join([*kept, 'db=1'])}"
    return urlunsplit(urlsplit(url)._replace(path="/1"))


@pytest.fixture
def queues_apart(redis_url, redis_client, clock):
    """A deployment whose queues are on another Redis (here: another database of the
    test's server), the service's jobs context set."""
    queue_url = _other_database(redis_url)
    components = bootstrap(Settings(redis_url=redis_url, rq_redis_url=queue_url),
                           clock=clock)
    components.queue_redis.flushdb()
    with context.running(job_context(components)):
        yield components
    components.queue_redis.flushdb()


def test_queues_on_another_redis_get_their_timers_from_the_hooks(queues_apart, redis_client):
    components = queues_apart
    assert not components.rq_hooks.timers_in_appends
    service = components.service
    table = _deadline_game(service)
    with _checkouts(components.queue_redis) as queue_round_trips:
        moved = _move(service, table).table
    assert components.rq_hooks.timers() == _timers_of(moved)
    assert queue_round_trips == [1]  # the hooks' own pipeline
    assert not redis_client.exists(TIMERS)  # nothing in the games' database
