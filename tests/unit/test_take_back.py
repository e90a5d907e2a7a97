"""Taking a move back: only the seat's own last action, before anyone else acts, one its
game allows; the fold undoes it (the log keeps both events), replays and snapshots agree,
the clock is as it was, and a random game full of take-backs still verifies."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from domain.errors import GameOver
from domain.redaction import redact
from domain.service import GameService
from domain.service.loading import kept_undo
from domain.service.take_back import TakeBackClosed
from domain.store import MemoryEventStore
from domain.table import (
    Undo,
    decode_table,
    encode_table,
    evolve_table,
    may_take_back,
    to_act,
)
from domain.verify import check_log
from tests.support.games import games_under_test

BANK, INCREMENT = 3600.0, 600.0


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(clock) -> GameService:
    return GameService(MemoryEventStore(), games_under_test(), clock=clock)


def _started(service: GameService, game: str, players: int = 3,
             options: dict[str, Any] | None = None, **create: Any):
    table = service.create(game, options, [{"kind": "human"}] * players, deadline_s=None,
                           **create)
    for n in range(players):
        *_, table = service.join(table.id, f"p{n}")
    return table


def _act(service: GameService, table, seat: int, index: int = 0, by: str = "player"):
    game = service.games.game(table.type)
    action = msgspec.to_builtins(game.legal_actions(table.game, seat)[index])
    return service.act(table.id, seat, action, by=by).table


def _taken_back_offered(service: GameService, table, seat: int) -> bool:
    names = [a["name"] for a in service.view(table, seat)["table_actions"]]
    return "take_back" in names


def test_a_lead_is_taken_back_and_the_table_is_as_before(service):
    table = _started(service, "ochs-und-esel", options={"first_player": 0})
    before = table
    moved = _act(service, table, 0)
    assert may_take_back(moved, 0) and not may_take_back(moved, 1)
    assert _taken_back_offered(service, moved, 0)
    assert not _taken_back_offered(service, moved, 1)
    back = service.take_back(table.id, 0)
    assert back.version == moved.version + 1
    assert back.game == before.game and back.waiting_since == before.waiting_since
    assert back.undo is None and not _taken_back_offered(service, back, 0)
    log = service.store.read(table.id, after=before.version)
    assert [e.type for e in log] == ["set_played", "move_taken_back"]
    assert log[0].data["undoable"] == 1
    assert log[1].actor == 0 and log[1].data == {"seat": 0, "first": log[0].seq,
                                                 "last": log[0].seq}
    # Twice: nothing left to take back.
    with pytest.raises(TakeBackClosed):
        service.take_back(table.id, 0)
    # The fold from the log agrees with the writer; a snapshot keeps which events may be
    # taken back, not the table before them, which the log gives again.
    assert service.rebuild(table.id) == back
    snapped = decode_table(encode_table(moved), service.games)
    assert snapped.undo == Undo(seat=0, first=log[0].seq, last=log[0].seq)
    assert kept_undo(service.store, service.games, snapped) == moved


def test_once_another_seat_acted_it_is_too_late(service):
    table = _started(service, "ochs-und-esel", options={"first_player": 0})
    moved = _act(service, table, 0)
    other = _act(service, moved, 1)
    assert not may_take_back(other, 0)
    with pytest.raises(TakeBackClosed):
        service.take_back(table.id, 0)
    # Seat 1 may take its own back.
    service.take_back(table.id, 1)


def test_what_completes_a_trick_or_was_played_for_the_seat_is_final(service):
    table = _started(service, "ochs-und-esel", options={"first_player": 0})
    for seat in (0, 1):
        table = _act(service, table, seat)
    last = _act(service, table, 2)  # the trick completes: it was won, cards were taken
    assert not may_take_back(last, 2)
    game = service.games.game(table.type)
    seat = min(to_act(last, game))
    timed_out = _act(service, last, seat, by="timeout")
    assert not may_take_back(timed_out, seat)


def test_the_clock_is_as_it_was_before_the_action(service, clock):
    control = {"kind": "correspondence", "bank_s": BANK, "increment_s": INCREMENT}
    table = _started(service, "ochs-und-esel", options={"first_player": 0},
                     time_control=control)
    deadline = table.deadline(0)
    clock.now += 1000
    moved = _act(service, table, 0)
    assert moved.clocks[0].bank == BANK - 1000 + INCREMENT and moved.deadline(1) is not None
    clock.now += 50
    back = service.take_back(table.id, 0)
    # The 1,050 s taken count against seat 0, whose bank never got the increment.
    assert back.deadline(0) == deadline and back.deadline(1) is None
    assert back.clocks == table.clocks


def test_a_canyon_load_is_taken_back_but_not_a_look(service):
    table = _started(service, "canyon-donkeys", options={"donkey_deck": ["holed"] * 8})
    game = service.games.game(table.type)
    loaded = _act(service, table, 1)
    assert may_take_back(loaded, 1)
    back = service.take_back(table.id, 1)
    assert back.game == table.game
    # The others see that a load was played and taken back, never its card.
    for ev in service.store.read(table.id, after=table.version):
        for viewer in (0, 2, None):
            assert redact(ev, viewer)["private"] == {}
    # On to the holed donkey's looks (each may look at another's load: it shows a card).
    for _ in range(20):
        seat = min(to_act(back, game))
        looks = [i for i, a in enumerate(game.legal_actions(back.game, seat))
                 if type(a).__name__ == "CanyonLook"]
        if looks:
            break
        back = _act(service, back, seat)
    looked = _act(service, back, seat, looks[0])
    assert not may_take_back(looked, seat)


def test_a_trash_draw_is_final(service):
    table = _started(service, "trash", 2)
    game = service.games.game(table.type)
    (seat,) = to_act(table, game)
    drawn = _act(service, table, seat)
    assert not may_take_back(drawn, seat)


def test_a_game_is_over_no_take_back(service):
    table = _started(service, "ochs-und-esel", options={"first_player": 0})
    moved = _act(service, table, 0)
    service.resign(table.id, 1)
    service.resign(table.id, 2)  # nothing left to play for: the game ends
    assert not may_take_back(service.load(table.id)[0], 0)
    with pytest.raises(GameOver):
        service.take_back(moved.id, 0)


@pytest.mark.parametrize("game_type, players", [("ochs-und-esel", 3), ("crazy-donkey", 4),
                                                ("canyon-donkeys", 3), ("trash", 2)])
def test_random_games_full_of_take_backs_replay_and_verify(service, game_type, players):
    """Every other action that may be taken back is: the game goes on, the log replays
    into the very table the writer holds, and the exported log verifies."""
    table = _started(service, game_type, players)
    game = service.games.game(game_type)
    rng = random.Random(7)
    taken = 0
    for _ in range(400):
        if table.status != "active":
            break
        seat = rng.choice(sorted(to_act(table, game)))
        legal = game.legal_actions(table.game, seat)
        table = _act(service, table, seat, rng.randrange(len(legal)))
        if may_take_back(table, seat) and rng.random() < 0.5:
            table = service.take_back(table.id, seat)
            taken += 1
    assert taken  # (Trash allows few: only the choices over a face-up wild)
    assert service.rebuild(table.id) == table
    lines = [msgspec.json.encode(redact(e, None, reveal_all=True))
             for e in service.store.read(table.id)]
    assert check_log(lines, service.games).problems == []


def test_checkpoints_and_snapshots_taken_while_a_move_may_be_taken_back(service):
    """A replay from a checkpoint stored while the last action could still be taken back
    (its marks encoded with it, not the table before it) is the fold from the start, at
    every version; a process that remembers nothing takes a move back as the writer
    would, the table before it folded again from the log when its snapshot lacks it."""
    table = _started(service, "ochs-und-esel", options={"first_player": 0, "rounds": 1})
    game = service.games.game(table.type)
    rng = random.Random(3)
    refolded = 0
    while table.status == "active" and table.version < 150:
        seat = min(to_act(table, game))
        legal = game.legal_actions(table.game, seat)
        table = _act(service, table, seat, rng.randrange(len(legal)))
        # A process that remembers nothing reads the snapshot and tail: the same table,
        # but for the table before a take-back when the snapshot came after the action.
        fresh = GameService(service.store, service.games)
        loaded = fresh.load(table.id)[0]
        assert kept_undo(service.store, service.games, loaded) == table
        missing = loaded.undo is not None and loaded.undo.before is None
        if may_take_back(table, seat) and (missing or rng.random() < 0.3):
            refolded += missing
            back = fresh.take_back(table.id, seat)
            assert back == service.rebuild(table.id)
            table = service.load(table.id)[0]
            assert table == back
    assert refolded > 0  # (some take-backs found their table before the action missing)
    log = service.store.read(table.id)
    folded = None
    undone = 0
    for ev in log:
        folded = evolve_table(folded, ev, game)
        assert service.rebuild(table.id, until=ev.seq) == folded
        undone += folded.undo is not None
    assert undone > 10
