"""Time controls on the in-memory store: per move (as before), correspondence banks with
their increment and cap, simultaneous decisions, none; the timeout rulings; a clock folded
from the log is the same clock whoever folds it."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.errors import BadOptions, OutOfTime
from domain.service import GameService
from domain.store import MemoryEventStore
from domain.table import AWAY_AFTER_TIMEOUTS, to_act
from tests.support.clock import Clock
from tests.support.games import games_under_test

BANK, INCREMENT = 3600.0, 600.0
CORRESPONDENCE = {"kind": "correspondence", "bank_s": BANK, "increment_s": INCREMENT}



@pytest.fixture
def clock() -> Clock:
    return Clock(1000.0)


@pytest.fixture
def service(clock) -> GameService:
    return GameService(MemoryEventStore(), games_under_test(), clock=clock)


def _started(service: GameService, players: int = 3, game: str = "high-card",
             options: dict[str, Any] | None = None, **create: Any):
    table = service.create(game, options, [{"kind": "human"}] * players, **create)
    for n in range(players):
        *_, table = service.join(table.id, f"p{n}")
    return table


def _play(service: GameService, table, seat: int, by: str = "player"):
    game = games_under_test().game(table.type)
    action = msgspec.to_builtins(game.legal_actions(table.game, seat)[0])
    return service.act(table.id, seat, action, by=by).table


def test_a_correspondence_bank_runs_only_for_the_seat_to_act(service, clock):
    table = _started(service, time_control=CORRESPONDENCE)
    start = clock.now
    assert table.deadline_s is None
    assert table.time_control() == {**CORRESPONDENCE, "vacation": True}
    assert [table.deadline(s) for s in range(3)] == [start + BANK, None, None]
    clock.now += 1000
    table = _play(service, table, 0)
    # Seat 0 spent 1,000 s and got the increment; seat 1's full bank now runs.
    assert [c.bank for c in table.clocks] == [BANK - 1000 + INCREMENT, BANK, BANK]
    assert table.deadline(0) is None and table.deadline(1) == clock.now + BANK
    view = service.view(table, None)
    assert view["time_control"]["kind"] == "correspondence"
    clock.now += 100
    assert [s["time_left"] for s in service.view(table, None)["seats"]] == [
        BANK - 400, BANK - 100, BANK]


def test_the_increment_never_fills_a_bank_above_its_size(service, clock):
    table = _started(service, time_control=CORRESPONDENCE)
    clock.now += 10
    table = _play(service, table, 0)
    assert table.clocks[0].bank == BANK


def test_a_fold_of_the_log_gives_the_same_clocks_as_the_writer(service, clock):
    """What a starting worker rebuilds: the same deadlines, to the second."""
    table = _started(service, time_control=CORRESPONDENCE)
    for seat, spent in ((0, 700), (1, 2500), (2, 10), (0, 3000)):
        clock.now += spent
        table = _play(service, table, seat)
    clock.now += 12345  # a restart much later changes nothing in what was recorded
    rebuilt = service.rebuild(table.id)
    assert rebuilt.clocks == table.clocks
    assert [rebuilt.deadline(s) for s in range(3)] == [table.deadline(s) for s in range(3)]
    assert table.clocks[1].bank == BANK - 2500 + INCREMENT


def test_a_move_after_the_bank_ran_out_is_refused(service, clock):
    table = _started(service, time_control=CORRESPONDENCE)
    clock.now += BANK + 1
    with pytest.raises(OutOfTime) as refused:
        _play(service, table, 0)
    assert refused.value.code == "out_of_time"
    # The timeout ruling plays it: the bank is spent, and the increment follows.
    after = _play(service, table, 0, by="timeout")
    assert after.clocks[0].bank == INCREMENT
    assert after.timeouts_in_row[0] == 1


def test_the_away_ruling_marks_the_seat_away_at_the_first_timeout(service, clock):
    table = _started(service, time_control=CORRESPONDENCE, on_timeout="away")
    clock.now += BANK
    after = _play(service, table, 0, by="timeout")
    timed_out = [e for e in service.store.read(table.id) if e.type == "turn_timed_out"]
    assert timed_out[0].data == {"seat": 0, "away": True}
    assert after.timeouts_in_row[0] == AWAY_AFTER_TIMEOUTS and after.is_away(0)


def test_a_per_move_deadline_is_as_it_was(service, clock):
    table = _started(service, deadline_s=60)
    assert table.time_control() == {"kind": "per_move", "deadline_s": 60}
    assert table.deadline(0) == clock.now + 60 and table.clocks == ()
    clock.now += 600  # past the deadline: a move that beats the timer's job is taken
    table = _play(service, table, 0)
    assert table.deadline(1) == clock.now + 60
    spec = service.create("high-card", None, [{"kind": "human"}] * 2,
                          time_control={"kind": "per_move", "deadline_s": 90})
    assert spec.deadline_s == 90


def test_no_clock(service, clock):
    table = _started(service, time_control={"kind": "none"})
    assert table.time_control() == {"kind": "none"} and not table.has_clock
    assert [table.deadline(s) for s in range(3)] == [None] * 3
    view = service.view(table, None)["seats"]
    assert [s["deadline"] for s in view] == [None] * 3


@pytest.mark.parametrize("control, why", [
    ({"kind": "correspondence"}, "bank_s"),
    ({"kind": "correspondence", "bank_s": 10, "increment_s": 20}, "increment_s"),
    ({"kind": "per_move", "deadline_s": None}, "deadline_s"),
    ({"kind": "sundial"}, "time_control"),
])
def test_a_time_control_that_does_not_hold_together_is_refused(service, control, why):
    with pytest.raises(BadOptions) as refused:
        service.create("high-card", None, [{"kind": "human"}] * 2, deadline_s=None,
                       time_control=control)
    assert refused.value.code == "bad_time_control" and why in refused.value.message


def test_simultaneous_decisions_run_every_seat_that_must_decide(service, clock):
    """The canyon game's loads: all seats decide at once, each on its own bank."""
    table = _started(service, 3, game="canyon-donkeys", time_control=CORRESPONDENCE,
                     options={"donkey_deck": ["normal"] * 8})
    game = games_under_test().game(table.type)
    assert to_act(table, game) == {0, 1, 2}
    start = clock.now
    assert [table.deadline(s) for s in range(3)] == [start + BANK] * 3
    clock.now += 500
    table = _play(service, table, 1)
    clock.now += 500
    assert table.deadline(1) is None and table.clocks[1].bank == BANK  # 500 + cap
    assert [table.deadline(s) for s in (0, 2)] == [start + BANK] * 2
    table = _play(service, table, 0)
    assert table.clocks[0].bank == BANK - 1000 + INCREMENT
    assert table.clocks[2].since == start
