"""The `PlayerClockStore` contract: forced-move settings, and vacations started and ended
in one step each (one at a time, within the year's allowance, whole days not begun given
back). A subclass provides `store`."""

from __future__ import annotations

import threading

import pytest

from domain.players.clock_settings import ClockSettings
from domain.store.player_clocks import (
    ALLOWANCE,
    ENDED,
    NONE,
    RUNNING,
    STARTED,
    PlayerClockStore,
)

DAY = 86400.0
T0 = 1_800_000_000.0  # in 2027


class PlayerClockStoreContract:
    @pytest.fixture
    def store(self) -> PlayerClockStore:
        raise NotImplementedError("a subclass gives the store under test")

    def test_a_player_who_set_nothing_has_the_defaults(self, store):
        assert store.settings(["nobody", "else"]) == [ClockSettings(), ClockSettings()]
        assert store.settings([]) == []

    def test_forced_moves_are_a_setting(self, store):
        store.set_auto_forced("p1", True)
        assert store.settings(["p1"])[0].auto_forced
        store.set_auto_forced("p1", False)
        assert not store.settings(["p1"])[0].auto_forced

    def test_a_vacation_uses_its_days_and_runs_until_its_end(self, store):
        outcome, after = store.start_vacation("p1", T0, 3, 2027, 30)
        assert outcome == STARTED
        assert (after.year, after.used, after.start, after.until) == (2027, 3, T0, T0 + 3 * DAY)
        assert after.on_vacation(T0 + 3 * DAY - 1) and not after.on_vacation(T0 + 3 * DAY)
        assert store.start_vacation("p1", T0 + DAY, 1, 2027, 30)[0] == RUNNING
        # Over: the next one counts on.
        outcome, after = store.start_vacation("p1", T0 + 3 * DAY, 5, 2027, 30)
        assert (outcome, after.used) == (STARTED, 8)

    def test_the_allowance_is_a_year_s(self, store):
        assert store.start_vacation("p1", T0, 10, 2027, 12)[0] == STARTED
        outcome, after = store.start_vacation("p1", T0 + 10 * DAY, 3, 2027, 12)
        assert (outcome, after.used) == (ALLOWANCE, 10)
        outcome, after = store.start_vacation("p1", T0 + 400 * DAY, 12, 2028, 12)
        assert (outcome, after.year, after.used) == (STARTED, 2028, 12)

    def test_ending_early_gives_back_the_whole_days_not_begun(self, store):
        store.start_vacation("p1", T0, 5, 2027, 30)
        outcome, after = store.end_vacation("p1", T0 + 1.5 * DAY)
        # Days 1 and 2 were begun; days 3, 4 and 5 come back.
        assert (outcome, after.used, after.until) == (ENDED, 2, T0 + 1.5 * DAY)
        assert not after.on_vacation(T0 + 1.5 * DAY)
        assert store.end_vacation("p1", T0 + 2 * DAY)[0] == NONE

    def test_two_vacations_asked_at_once_start_one(self, store):
        outcomes: list[str] = []

        def ask() -> None:
            outcomes.append(store.start_vacation("p1", T0, 2, 2027, 30)[0])

        threads = [threading.Thread(target=ask) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(outcomes) == [RUNNING] * 5 + [STARTED]
        assert store.settings(["p1"])[0].used == 2
