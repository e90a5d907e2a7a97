"""Vacations: a player's days counted once across games, their banks stopped in every
correspondence game that allows it (and only there), told to the tables as events, and
what a crash between the record and the games left behind made good by the sweep."""

from __future__ import annotations

import msgspec
import pytest

from domain.errors import BadOptions
from domain.players.notes import soon_due
from domain.service import GameService
from domain.service.seat_clocks import VacationRefused
from domain.store import MemoryEventStore
from tests.support.games import games_under_test

DAY = 86400.0
BANK = 3 * DAY
CORRESPONDENCE = {"kind": "correspondence", "bank_s": BANK, "increment_s": DAY}


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0  # in 2027

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(clock) -> GameService:
    return GameService(MemoryEventStore(), games_under_test(), clock=clock)


def _game(service: GameService, ann, control=CORRESPONDENCE):
    """Ochs & Esel: Ann in seat 0 (leading), two anonymous seats."""
    table = service.create("ochs-und-esel", {"first_player": 0},
                           [{"kind": "human", "me": True}, {"kind": "human"},
                            {"kind": "human"}], time_control=control, by=ann)
    for name in ("bob", "cy"):
        *_, table = service.join(table.id, name)
    return table


def _types(service: GameService, table, after: int) -> list[str]:
    return [e.type for e in service.store.read(table.id, after=after)]


def test_a_vacation_stops_the_bank_in_every_game_that_allows_it(service, clock):
    ann, _ = service.register_player("Ann")
    mine = _game(service, ann)
    strict = _game(service, ann, {**CORRESPONDENCE, "vacation": False})
    per_move = _game(service, ann, {"kind": "per_move", "deadline_s": DAY})
    clock.now += DAY  # Ann thought about it for a day
    settings = service.start_vacation(ann, 5)
    until = clock.now + 5 * DAY
    assert settings["vacation"]["until"] == until and settings["vacation"]["days_used"] == 5
    assert _types(service, mine, mine.version) == ["vacation_started"]
    assert _types(service, strict, strict.version) == []
    assert _types(service, per_move, per_move.version) == []
    table, _ = service.load(mine.id)
    # The bank stopped with two days left; it runs again when the vacation ends.
    assert table.clocks[0].bank == BANK - DAY and table.deadline(0) == until + BANK - DAY
    view = service.view(table, 1)["seats"][0]
    assert view["vacation_until"] == until and view["time_left"] == BANK - DAY
    clock.now += 3 * DAY  # still on vacation: no time passes on the bank
    assert service.view(table, 1)["seats"][0]["time_left"] == BANK - DAY


def test_coming_back_early_runs_the_clocks_and_gives_back_the_days_not_begun(service, clock):
    ann, _ = service.register_player("Ann")
    mine = _game(service, ann)
    service.start_vacation(ann, 5)
    clock.now += 1.5 * DAY
    settings = service.end_vacation(ann)
    assert settings["vacation"]["until"] is None and settings["vacation"]["days_used"] == 2
    table, _ = service.load(mine.id)
    assert _types(service, mine, mine.version) == ["vacation_started", "vacation_ended"]
    assert table.deadline(0) == clock.now + BANK
    assert service.end_vacation(ann)["vacation"]["days_used"] == 2  # ending twice is fine


def test_the_year_s_days_and_one_vacation_at_a_time(service, clock):
    ann, _ = service.register_player("Ann")
    service.start_vacation(ann, 14)
    with pytest.raises(VacationRefused) as refused:
        service.start_vacation(ann, 1)
    assert refused.value.code == "on_vacation"
    clock.now += 14 * DAY
    service.start_vacation(ann, 14)
    clock.now += 14 * DAY
    with pytest.raises(VacationRefused) as refused:
        service.start_vacation(ann, 3)  # 28 of 30 used
    assert refused.value.code == "vacation_allowance"
    assert service.start_vacation(ann, 2)["vacation"]["days_left"] == 0
    with pytest.raises(BadOptions):
        service.start_vacation(ann, 15)


def test_a_waiting_seat_on_vacation_starts_its_bank_when_the_vacation_ends(service, clock):
    ann, _ = service.register_player("Ann")
    table = service.create("ochs-und-esel", {"first_player": 1},
                           [{"kind": "human", "me": True}, {"kind": "human"},
                            {"kind": "human"}], time_control=CORRESPONDENCE, by=ann)
    for name in ("bob", "cy"):
        *_, table = service.join(table.id, name)
    service.start_vacation(ann, 2)
    until = clock.now + 2 * DAY
    game = games_under_test().game(table.type)
    for seat in (1, 2):  # Bob and Cy play; then it is Ann's turn, on vacation
        table, _ = service.load(table.id)
        action = msgspec.to_builtins(game.legal_actions(table.game, seat)[0])
        table = service.act(table.id, seat, action).table
    assert game.to_act(table.game) == {0}
    assert table.clocks[0].since == until and table.deadline(0) == until + BANK


def test_a_player_on_vacation_sits_down_with_a_stopped_clock(service, clock):
    ann, _ = service.register_player("Ann")
    service.start_vacation(ann, 3)
    table = _game(service, ann)
    log = [e.type for e in service.store.read(table.id)]
    assert log.index("vacation_started") < log.index("game_started")
    assert table.deadline(0) == clock.now + 3 * DAY + BANK


def test_the_sweep_tells_a_game_what_a_crash_kept_from_it(service, clock):
    ann, _ = service.register_player("Ann")
    table = _game(service, ann)
    # The record changed, and the process died before telling the game.
    service.deps.player_clocks.start_vacation(ann.id, clock.now, 4, 2027, 30)
    assert service.reconcile_clocks(service.active_games()) == 1
    assert service.reconcile_clocks(service.active_games()) == 0
    assert _types(service, table, table.version) == ["vacation_started"]


def test_the_deadline_warning_waits_for_the_end_of_a_vacation(service, clock):
    ann, _ = service.register_player("Ann")
    table = _game(service, ann)
    assert soon_due(table, 0, table.deadline(0)) == clock.now + 0.8 * BANK
    service.start_vacation(ann, 3)
    table, _ = service.load(table.id)
    until = clock.now + 3 * DAY
    assert soon_due(table, 0, table.deadline(0)) == until + 0.8 * BANK
