"""The notifier on memory stores, as on Redis: the memory player store tells the memory
notification store what the Redis one writes into the same database in its pipeline (who
is due a look, who just moved), so a move's notes reach the notifier and a player who
just moved in a game is not sent what happens there right after."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.notify.digest import NotifyState
from domain.notify.mail import Links
from domain.notify.prefs import preferences
from domain.notify.records import PushSubscription
from domain.service import GameService
from domain.store import MemoryEventStore
from domain.store.memory_notify import MemoryNotifyStore
from domain.store.memory_players import MemoryPlayerStore
from tests.support.clock import Clock
from tests.support.games import games_under_test
from workers.notify import Notifier


class Pushes:
    """A push sender that keeps what it is given."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    def send_to_player(self, player_id: str, entry: dict[str, Any]) -> tuple[int, int]:
        self.sent.append((player_id, entry))
        return 1, 0

    def of(self, player_id: str) -> list[str]:
        return [e["type"] for p, e in self.sent if p == player_id]


def test_a_move_s_notes_reach_the_notifier_and_a_player_who_just_moved_is_let_be():
    clock = Clock(now=1_900_000_000.0)
    notify = MemoryNotifyStore()
    service = GameService(MemoryEventStore(), games_under_test(), clock=clock,
                          players=MemoryPlayerStore(notify=notify))
    pushes = Pushes()
    notifier = Notifier(service=service, store=notify, links=Links("http://play.test"),
                        link_secret=lambda: b"secret", push=pushes,  # type: ignore[arg-type]
                        clock=clock, threads=1)
    ann, _ = service.register_player("Ann")
    bob, _ = service.register_player("Bob")
    for player in (ann, bob):  # both want pushes, from now on
        notify.save_prefs(player.id, preferences({"channels": ["push"]}), NotifyState())
        notify.subscribe(player.id, PushSubscription(
            id=f"push_{player.id}", endpoint="https://203.0.113.7/push", p256dh="k",
            auth="a", created_at=clock()), 10)
    table = service.create("high-card", {"cards": 3}, [
        {"kind": "human", "me": True}, {"kind": "human", "invite": "Bob"}],
        deadline_s=None, by=ann)
    notifier.run_once()
    assert pushes.of(bob.id) == ["invited"]
    *_, table = service.join(table.id, None, bob)
    notifier.run_once()
    assert "game_started" in pushes.of(ann.id) and "game_started" in pushes.of(bob.id)
    game = service.games.game(table.type)

    def play() -> Any:
        seat = min(game.to_act(table.game))
        action = msgspec.to_builtins(game.legal_actions(table.game, seat)[0])
        return seat, service.act(table.id, seat, action).table

    clock.advance(600)
    seat, table = play()  # one moves; the other's turn reaches the notifier
    mover, other = (ann, bob) if seat == 0 else (bob, ann)
    told = len(pushes.of(other.id))
    notifier.run_once()
    assert pushes.of(other.id)[told:] == ["my_turn"]
    # The other answers at once: the first mover, still at the table, is not pushed.
    clock.advance(30)
    _seat, table = play()
    told = len(pushes.of(mover.id))
    notifier.run_once()
    assert pushes.of(mover.id)[told:] == []
