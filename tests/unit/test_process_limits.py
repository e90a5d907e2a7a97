"""The in-process sliding window counter of the move's rate limits."""

from __future__ import annotations

from api.process_limits import SlidingCounts, Window
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
