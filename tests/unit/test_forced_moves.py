"""Forced moves that play themselves: each game's ruling (a lone action that tells nothing
plays itself, one that would tell the table something does not), and the service playing
them in the seat's name, marked in the log, in the same append."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.errors import GameOver
from domain.games.canyon_donkeys.actions import CanyonLoad, CanyonNoFavour
from domain.games.ochs_und_esel import GAME as OCHS
from domain.games.trick_engine import DONKEY, JOKER
from domain.rulings import forced_action
from domain.service import GameService
from domain.store import MemoryEventStore
from domain.table import to_act
from tests.support.games import games_under_test
from tests.unit.test_trick_engine import DONKEY_LEAD, PASS, S, deal, run


# --- the rulings -----------------------------------------------------------------------------
def test_in_a_donkey_trick_a_choice_of_cards_is_not_forced():
    state = deal(OCHS, [[DONKEY, 3, 4], [5, 9], [7, 8]], leader=0)
    state, _ = run(OCHS, state, (0, DONKEY_LEAD))
    assert forced_action(OCHS, state, 1) is None


def test_a_lone_pass_that_would_tell_the_table_is_not_forced():
    # Seat 1 holds two low cards against a pair of 9s: it must pass, but nobody knows.
    state = deal(OCHS, [[9, 9, 2], [3, 4], [5, 6, 7]], leader=0)
    state, _ = run(OCHS, state, (0, S(9, 2)))
    assert OCHS.legal_actions(state, 1) == [PASS]
    assert forced_action(OCHS, state, 1) is None


def test_a_pass_everybody_sees_coming_is_forced():
    # One card against a pair: everybody can count it.
    state = deal(OCHS, [[9, 9, 2], [3], [5, 6, 7]], leader=0)
    state, _ = run(OCHS, state, (0, S(9, 2)))
    assert forced_action(OCHS, state, 1) == PASS
    # Jokers alone cannot be beaten.
    state = deal(OCHS, [[JOKER, JOKER, 2], [3, 4, 8], [5, 6, 7]], leader=0)
    state, _ = run(OCHS, state, (0, S(14, 0, 2)))
    assert forced_action(OCHS, state, 1) == PASS


def test_the_canyon_never_plays_a_lone_no_favour():
    game = games_under_test().game("canyon-donkeys")
    assert game.is_forced(None, 0, CanyonLoad(cards=((0, 3),)))
    assert not game.is_forced(None, 0, CanyonNoFavour())


# --- the service ---------------------------------------------------------------------------
class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def service() -> GameService:
    return GameService(MemoryEventStore(), games_under_test(), clock=Clock())


def _joined(service: GameService, game: str, players: int,
            options: dict[str, Any] | None = None, auto: tuple[int, ...] = ()):
    table = service.create(game, options, [{"kind": "human"}] * players, deadline_s=None)
    for n in range(players):
        seat, _token, table = service.join(table.id, f"p{n}")
        if seat in auto:
            table = service.set_seat_forced(table.id, seat, True)
    return table


def test_a_seat_that_asked_has_its_forced_draw_played_at_the_start(service):
    """Trash: the round's first player has no choice but the stock (the discard is empty)."""
    table = _joined(service, "trash", 2, auto=(0, 1))
    log = service.store.read(table.id)
    first = next(e for e in log if e.type == "card_drawn")
    assert first.data["auto"] == "forced" and first.data["source"] == "stock"
    assert [e.type for e in log].count("forced_moves_set") == 2
    # Every move played for a seat is its forced one; the game waits for a real choice.
    game = games_under_test().game("trash")
    for seat in to_act(table, game):
        assert forced_action(game, table.game, seat) is None or table.status != "active"


def test_without_the_setting_the_game_waits(service):
    table = _joined(service, "trash", 2)
    log = service.store.read(table.id)
    assert not any(e.data.get("auto") for e in log)
    game = games_under_test().game("trash")
    (seat,) = to_act(table, game)
    assert forced_action(game, table.game, seat) is not None  # it waits, although forced


def test_turning_the_setting_on_plays_the_waiting_forced_move(service):
    table = _joined(service, "trash", 2)
    game = games_under_test().game("trash")
    (seat,) = to_act(table, game)
    after = service.set_seat_forced(table.id, seat, True)
    new = service.store.read(table.id, after=table.version)
    assert new[0].type == "forced_moves_set" and new[0].data == {"seat": seat, "auto": True}
    assert new[1].actor == seat and new[1].data["auto"] == "forced"
    assert seat in after.auto_forced
    view = service.view(after, seat)
    assert view["seats"][seat]["auto_forced"] is True
    # Asking twice changes nothing; turning it off is an event too.
    assert service.set_seat_forced(table.id, seat, True).version == after.version
    off = service.set_seat_forced(table.id, seat, False)
    assert seat not in off.auto_forced and off.version == after.version + 1


def test_a_player_s_setting_follows_them_to_the_tables_they_sit_at(service):
    ann, _key = service.register_player("Ann")
    service.set_player_forced(ann, True)
    table = service.create("trash", None, [{"kind": "human", "me": True}, {"kind": "human"}],
                           deadline_s=None, by=ann)
    assert 0 in table.auto_forced
    *_, table = service.join(table.id, "bob")
    assert service.clock_settings(ann)["auto_forced"] is True


def test_the_setting_is_refused_once_the_game_is_over(service):
    table = _joined(service, "trash", 2)
    service.resign(table.id, 1)
    with pytest.raises(GameOver):
        service.set_seat_forced(table.id, 0, True)


def test_forced_moves_replay_from_the_log(service):
    table = _joined(service, "trash", 2, auto=(0, 1))
    game = games_under_test().game("trash")
    for _ in range(40):
        if table.status != "active":
            break
        seat = min(to_act(table, game))
        action = msgspec.to_builtins(game.legal_actions(table.game, seat)[0])
        table = service.act(table.id, seat, action).table
    assert service.rebuild(table.id) == table
    played = [e for e in service.store.read(table.id) if e.data.get("auto") == "forced"]
    assert played  # the draws nobody chooses played themselves
