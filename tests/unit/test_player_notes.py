"""What an append tells each player (`domain.players.notes`), on the service with memory
stores: a turn that comes back to a player is told, their own move is not; a deadline that
passes tells the seat's player a bot played for them; chat tells everyone but the writer;
a seat a bot plays after its player left is nobody's turn."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.service import GameService
from domain.store import MemoryEventStore
from tests.support.clock import Clock
from tests.support.games import games_under_test


@pytest.fixture
def clock() -> Clock:
    return Clock(1000.0)


@pytest.fixture
def service(clock) -> GameService:
    return GameService(MemoryEventStore(), games_under_test(), clock=clock)


def told(service: GameService, player_id: str) -> list[dict[str, Any]]:
    return [e.shown() for e in service.players.player_events(player_id)]


def kinds(service: GameService, player_id: str) -> list[str]:
    return [e["type"] for e in told(service, player_id)]


def three_players(service: GameService, deadline_s: float | None = 600.0):
    ann, _ = service.register_player("Ann")
    bob, _ = service.register_player("Bob")
    cy, _ = service.register_player("Cy")
    table = service.create("ochs-und-esel", {"rounds": 1, "first_player": 0}, [
        {"kind": "human", "me": True}, {"kind": "human", "invite": "Bob"},
        {"kind": "human", "invite": "Cy"}], deadline_s=deadline_s, by=ann)
    for p in (bob, cy):
        _seat, _token, table = service.join(table.id, None, p)
    return table, (ann, bob, cy)


def move(service: GameService, table: Any, by: str = "player") -> Any:
    game = service.games.game(table.type)
    seat = min(game.to_act(table.game))
    action = msgspec.to_builtins(game.legal_actions(table.game, seat)[0])
    return service.act(table.id, seat, action, by=by).table


def test_a_turn_is_told_to_the_player_whose_it_is_never_for_their_own_move(service):
    table, (ann, bob, cy) = three_players(service)
    assert kinds(service, bob.id) == ["invited", "game_started"]
    assert kinds(service, ann.id) == ["game_started", "my_turn"]  # she leads
    turn = told(service, ann.id)[-1]
    assert turn["game"] == table.id and turn["data"]["deadline"] == table.deadline(0)
    table = move(service, table)
    assert kinds(service, ann.id)[-1] == "my_turn"  # nothing new for her own move
    assert kinds(service, bob.id)[-1] == "my_turn"
    assert told(service, bob.id)[-1]["data"]["version"] == table.version
    assert kinds(service, cy.id) == ["invited", "game_started"]


def test_a_bot_playing_for_a_late_player_is_told_to_them(service, clock):
    table, (ann, _bob, _cy) = three_players(service, deadline_s=60.0)
    clock.advance(61)
    move(service, table, by="timeout")
    taken = [e for e in told(service, ann.id) if e["type"] == "seat_taken_over"]
    assert len(taken) == 1 and taken[0]["data"]["seat"] == 0
    assert taken[0]["data"]["away"] is False


def test_chat_is_told_to_the_others_at_the_table(service):
    table, (ann, bob, cy) = three_players(service)
    service.post_message(table, 1, "hello")
    assert "message" not in kinds(service, bob.id)
    for player in (ann, cy):
        said = [e for e in told(service, player.id) if e["type"] == "message"]
        assert [(e["data"]["n"], e["data"]["name"]) for e in said] == [(1, "Bob")]


def test_a_seat_given_to_a_bot_is_nobodys_turn(service):
    table, (_ann, bob, _cy) = three_players(service)
    table = move(service, table)  # Bob's turn now
    before = len(told(service, bob.id))
    table = service.leave(table.id, 1, "basic")
    assert len(told(service, bob.id)) == before  # no turn of his again
