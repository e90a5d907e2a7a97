"""The rate limits' counters: the sliding window counter in this process, and the `limits`
library's in Redis as `api.limit_counters` relies on it (a change of its behaviour fails
here, not in production)."""

from __future__ import annotations

from limits.storage import storage_from_string

from api.limit_counters import RedisCounts, SlidingCounts, Window
from tests.support.clock import Clock


def test_a_window_refuses_past_its_amount_and_a_refusal_costs_no_budget():
    clock = Clock(1000.0)
    counts = SlidingCounts(clock)
    per_second = Window.parse("3/second")
    verdicts = [counts.check([("seat", per_second)]) for _ in range(3)]
    assert [v.refused for v in verdicts] == [False, False, False]
    assert [v.remaining for v in verdicts] == [2, 1, 0]
    refused = counts.check([("seat", per_second)])
    assert refused.refused and refused.window.amount == 3 and refused.reset_s == 1
    # Two windows later the previous one no longer weighs: the full budget is back.
    clock.now += 2
    assert counts.check([("seat", per_second)]).remaining == 2


def test_the_previous_window_weighs_by_how_much_the_sliding_window_still_covers():
    clock = Clock(1000.0)
    counts = SlidingCounts(clock)
    ten = Window.parse("10/minute")
    for _ in range(10):
        assert not counts.check([("k", ten)]).refused
    clock.now = 1020.0 + 45  # next minute (started at 1020), three quarters through it
    # 10 * 0.25 = 2.5 still count: 7 more fit, the 8th is refused.
    assert [counts.check([("k", ten)]).refused for _ in range(8)] == [False] * 7 + [True]


def test_a_request_refused_by_one_rule_is_counted_by_none():
    counts = SlidingCounts(Clock(1000.0))
    seat, address = Window.parse("1/minute"), Window.parse("5/minute")
    assert not counts.check([("seat:a", seat), ("addr:x", address)]).refused
    refused = counts.check([("seat:a", seat), ("addr:x", address)])
    assert refused.refused and refused.window == seat[0]
    # The address counted one request, not two: four more seats fit.
    assert [counts.check([(f"seat:{s}", seat), ("addr:x", address)]).refused
            for s in "bcdef"] == [False] * 4 + [True]


def test_the_nearest_window_to_refusing_is_named():
    counts = SlidingCounts(Clock(1000.0))
    windows = Window.parse("10/second;7/minute")
    for _ in range(5):
        verdict = counts.check([("k", windows)])
    assert verdict.window.seconds == 60 and verdict.remaining == 2


def test_counters_stay_bounded():
    clock = Clock(1000.0)
    counts = SlidingCounts(clock, max_counters=100)
    window = Window.parse("5/second")
    for n in range(1000):
        clock.now += 0.001
        counts.check([(f"addr:{n}", window)])
        assert len(counts) <= 100


def test_in_redis_a_window_refuses_past_its_amount_and_names_what_is_left(redis_client):
    counts = RedisCounts(storage_from_string(
        "redis://", connection_pool=redis_client.connection_pool))
    minute = Window.parse("3/minute;5/hour")
    verdicts = [counts.check([("create:addr:x", minute)]) for _ in range(3)]
    assert [(v.refused, v.remaining, v.window.amount) for v in verdicts] == [
        (False, 2, 3), (False, 1, 3), (False, 0, 3)]
    assert all(0 < v.reset_s <= 60 for v in verdicts) and verdicts[0].key == "create:addr:x"
    refused = counts.check([("create:addr:x", minute)])
    assert refused.refused and refused.window == minute[0] and refused.reset_s >= 1
    assert counts.check([("create:addr:y", minute)]).remaining == 2  # another key: its own
    # Tested without counting, then counted.
    failures = Window.parse("2/minute")
    assert counts.refused("auth:addr:x", failures) is None
    counts.count("auth:addr:x", failures)
    counts.count("auth:addr:x", failures)
    assert counts.refused("auth:addr:x", failures).window == failures[0]
    assert list(redis_client.scan_iter(match="LIMITS:*"))  # the library's keys, in Redis
