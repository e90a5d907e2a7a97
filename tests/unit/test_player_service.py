"""Players through the service on the in-memory stores: register, keys, invitations, the
inbox and its order, cancelling, the rematch, and a rating applied once."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import (
    AlreadySeated,
    BadCredentials,
    BadOptions,
    GameNotFinished,
    GameOver,
    GameStarted,
    NameTaken,
    NotAllowed,
    SeatTaken,
    UnknownPlayer,
)
from domain.players.records import Player
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


def _player(service: GameService, name: str) -> tuple[Player, str]:
    return service.register_player(name)


def _play_to_end(service: GameService, game_id: str) -> None:
    """Every seat plays its first card in turn (acting as the server may for any seat)."""
    while True:
        table, _ = service.load(game_id)
        if table.status == "finished":
            return
        seat = table.game.turn
        service.act(game_id, seat, {"type": "play", "card": table.game.hands[seat][0]})


def _ids(entries: list[dict[str, Any]]) -> list[str]:
    return [e["id"] for e in entries]


# --- identity ----------------------------------------------------------------------------
def test_a_player_key_authenticates_until_it_is_rotated(service):
    ann, key = _player(service, "Ann")
    assert key.startswith(f"pk.{ann.id}.")
    assert service.authenticate(key) == ann
    new_key = service.rotate_key(ann)
    assert service.authenticate(new_key) == ann
    with pytest.raises(BadCredentials):
        service.authenticate(key)
    with pytest.raises(BadCredentials):
        service.authenticate(f"pk.{ann.id}.guessed")
    with pytest.raises(BadCredentials):
        service.authenticate("pk.nobody.secret")


def test_names_are_unique_whatever_their_case_or_form(service):
    _player(service, "Ann")
    for same in ("ann", "ANN", "Ａｎｎ"):
        with pytest.raises(NameTaken):
            _player(service, same)
    assert service.profile(service.register_player("Anne")[0].id)["name"] == "Anne"


def test_the_profile_is_public_and_unknown_players_are_404(service):
    ann, _ = _player(service, "Ann")
    assert service.profile(ann.id) == {"id": ann.id, "name": "Ann", "created_at": 1000.0,
                                       "bot": False, "games": []}
    with pytest.raises(UnknownPlayer):
        service.profile("nobody")


# --- the lobby ---------------------------------------------------------------------------
def test_a_player_creates_a_game_seated_with_an_invitation_and_an_open_seat(service):
    ann, ann_key = _player(service, "Ann")
    bob, bob_key = _player(service, "Bob")
    cid, cid_key = _player(service, "Cid")
    table = service.create("high-card", None, [
        {"kind": "human", "me": True}, {"kind": "human", "invite": "bob"},
        {"kind": "human"}], deadline_s=None, by=ann)
    assert table.created_by == ann.id and table.status == "open"
    assert table.seats[0].player == ann.id and table.seats[0].taken
    assert table.seats[1].invited == bob.id and table.seats[1].name == "Bob"
    assert service.list_games("open", "high-card", 0, 10, free_seat=True)[1] == 1
    # The open seat goes to the first who asks; the invited one is Bob's alone.
    seat, token, _ = service.join(table.id, "anon")
    assert seat == 2 and token is not None
    with pytest.raises(SeatTaken, match="kept for the players invited"):
        service.join(table.id, None, cid)
    with pytest.raises(AlreadySeated):
        service.join(table.id, None, ann)
    assert service.list_games("open", None, 0, 10, free_seat=True)[1] == 0
    seat, token, started = service.join(table.id, None, bob)
    assert (seat, token, started.status) == (1, None, "active")
    # Each player's key finds their seat; a player without one here is a spectator.
    assert service.load(table.id, ann_key)[1] == 0
    assert service.load(table.id, bob_key)[1] == 1
    assert service.load(table.id, cid_key)[1] is None
    assert service.load_to_act(table.id, bob_key).seat == 1


def test_seats_of_players_are_checked(service):
    ann, _ = _player(service, "Ann")
    with pytest.raises(BadCredentials):
        service.create("high-card", None, [{"kind": "human", "me": True}] * 2)
    with pytest.raises(UnknownPlayer, match="no player named") as err:
        service.create("high-card", None, [{"kind": "human", "invite": "nobody"}] * 2, by=ann)
    assert err.value.code == "unknown_player"
    with pytest.raises(BadOptions, match="at most once"):
        service.create("high-card", None, [{"kind": "human", "me": True},
                                           {"kind": "human", "invite": "ann"}], by=ann)
    with pytest.raises(BadOptions):
        service.create("high-card", None, [{"kind": "bot", "invite": "ann"}] * 2, by=ann)


def test_only_the_creator_cancels_and_only_before_the_start(service):
    ann, ann_key = _player(service, "Ann")
    bob, bob_key = _player(service, "Bob")
    table = service.create("high-card", None, [{"kind": "human", "me": True},
                                               {"kind": "human", "invite": "Bob"}], by=ann)
    with pytest.raises(NotAllowed):
        service.cancel(table.id, bob_key)
    with pytest.raises(NotAllowed):
        service.cancel(table.id, "a-stranger's-token")
    assert service.inbox(bob_key, "open", None, 0, 10)[1] == 1
    cancelled = service.cancel(table.id, ann_key)
    assert cancelled.status == "cancelled" and service.cancel(table.id, ann_key).version == \
        cancelled.version  # twice is once
    assert service.inbox(ann_key, "open", None, 0, 10) == ([], 0)
    assert service.inbox(bob_key, "open", None, 0, 10) == ([], 0)
    assert service.list_games("open", None, 0, 10)[1] == 0
    assert service.list_games("cancelled", None, 0, 10)[1] == 1
    with pytest.raises(GameOver, match="cancelled"):
        service.join(table.id, None, bob)
    started = service.create("high-card", None, [{"kind": "human", "me": True},
                                                 {"kind": "bot"}], by=ann)
    with pytest.raises(GameStarted):
        service.cancel(started.id, ann_key)
    anonymous = service.create("high-card", None, [{"kind": "human"}] * 2)
    assert service.cancel(anonymous.id, service.issue_creator_token(anonymous.id)).status == \
        "cancelled"


# --- the inbox ---------------------------------------------------------------------------
def test_the_inbox_puts_my_turn_first_by_deadline_then_the_others(service, clock):
    ann, ann_key = _player(service, "Ann")
    bob, bob_key = _player(service, "Bob")
    games = []
    for deadline in (300.0, 100.0, 200.0, None):
        clock.now += 1
        table = service.create("high-card", None, [
            {"kind": "human", "me": True}, {"kind": "human", "invite": "Bob"}],
            deadline_s=deadline, by=ann)
        service.join(table.id, None, bob)
        games.append(table.id)
    by_deadline = [games[1], games[2], games[0], games[3]]  # the one without comes last
    entries, total = service.inbox(ann_key, "active", True, 0, 10)
    assert _ids(entries) == by_deadline and total == 4
    assert all(e["my_turn"] and e["seat"] == 0 for e in entries)
    assert entries[0]["deadline"] == pytest.approx(clock.now - 3 + 100.0, abs=1)
    assert [s["name"] for s in entries[0]["seats"]] == ["Ann", "Bob"]
    assert service.inbox(bob_key, "active", True, 0, 10) == ([], 0)
    # Ann plays in the soonest one: it leaves her turn and becomes Bob's.
    table, _ = service.load(games[1])
    service.act(games[1], 0, {"type": "play", "card": table.game.hands[0][0]})
    assert _ids(service.inbox(ann_key, "active", True, 0, 10)[0]) == by_deadline[1:]
    assert _ids(service.inbox(ann_key, "active", False, 0, 10)[0]) == [games[1]]
    assert _ids(service.inbox(ann_key, "active", None, 0, 10)[0]) == [*by_deadline[1:], games[1]]
    assert _ids(service.inbox(bob_key, "active", True, 0, 10)[0]) == [games[1]]
    # Paged like the listings; "my turn" means nothing for a game not being played.
    assert _ids(service.inbox(ann_key, "active", True, 1, 2)[0]) == by_deadline[2:4]
    assert service.inbox(ann_key, "active", True, 1, 2)[1] == 3
    assert service.inbox(ann_key, "open", True, 0, 10) == ([], 0)
    # The finished game moves to the finished bucket, with its place.
    _play_to_end(service, games[1])
    finished, total = service.inbox(ann_key, "finished", None, 0, 10)
    assert _ids(finished) == [games[1]] and finished[0]["place"] in (1, 2)
    assert finished[0]["rating"] is None  # not rated yet: the rating job does that
    with pytest.raises(BadCredentials):
        service.inbox(f"pk.{ann.id}.guessed", "active", None, 0, 10)
    with pytest.raises(BadCredentials):
        service.inbox("a-seat-token", "active", None, 0, 10)


# --- the rematch -------------------------------------------------------------------------
def test_a_rematch_rotates_the_seats_and_is_one_game_however_often_asked(service):
    ann, ann_key = _player(service, "Ann")
    table = service.create("high-card", None, [
        {"kind": "human", "me": True}, {"kind": "bot", "level": "random"},
        {"kind": "human"}], deadline_s=600, by=ann)
    anon_seat, _token, _ = service.join(table.id, "anon")
    assert anon_seat == 2
    with pytest.raises(GameNotFinished):
        service.rematch(table.id, 0)
    _play_to_end(service, table.id)
    first = service.rematch(table.id, 0)
    again = service.rematch(table.id, 0)
    assert first.table.id == again.table.id and first.token is None
    new = first.table
    # Rotated by one: old seat 1 (the bot) first, the anonymous seat kept, Ann last.
    assert [s.kind for s in new.seats] == ["bot", "human", "human"]
    assert new.seats[0].level == "random"
    assert new.seats[1].rematch_seat == 2 and not new.seats[1].taken
    assert new.seats[2].player == ann.id and first.seat == 2
    assert (new.rematch_of, new.options, new.deadline_s) == (table.id, table.options, 600)
    assert service.load(table.id)[0].rematch == new.id
    assert new.status == "open"
    # Nobody else takes the kept seat; its old holder does, through the rematch.
    with pytest.raises(SeatTaken):
        service.join(new.id, "stranger")
    claimed = service.rematch(table.id, 2)
    assert claimed.seat == 1 and claimed.token is not None
    assert claimed.table.status == "active" and claimed.table.seats[1].name == "anon"
    assert service.load(new.id, claimed.token)[1] == 1
    assert service.rematch(table.id, 2).token is None  # shown once
    assert service.load(new.id, ann_key)[1] == 2


# --- ratings -----------------------------------------------------------------------------
def test_a_finished_game_is_rated_once_however_often_its_job_runs(service):
    ann, ann_key = _player(service, "Ann")
    bob, bob_key = _player(service, "Bob")
    table = service.create("high-card", None, [
        {"kind": "human", "me": True}, {"kind": "human", "invite": "Bob"},
        {"kind": "bot", "level": "basic"}, {"kind": "human"}], deadline_s=None, by=ann)
    service.join(table.id, None, bob)
    service.join(table.id, "anon")
    _play_to_end(service, table.id)
    assert service.awaiting_rating(2000.0) == [table.id]
    assert service.rate_game(table.id) == "rated"
    assert service.rate_game(table.id) == "already"
    assert service.awaiting_rating(2000.0) == []
    done, _ = service.load(table.id)
    places = done.outcome["places"]
    for player, key, seat in ((ann, ann_key, 0), (bob, bob_key, 1)):
        games = service.profile(player.id)["games"]
        assert [(g["type"], g["played"], g["won"]) for g in games] == [
            ("high-card", 1, int(places[seat] == 1))]
        entry = service.inbox(key, "finished", None, 0, 10)[0][0]
        assert entry["rating"]["after"] == pytest.approx(games[0]["rating"])
        assert entry["rating"]["before"] == 1500.0
        # Above the newcomers' 1500 when ahead of everyone, below when behind everyone.
        if places[seat] == 1:
            assert entry["rating"]["delta"] > 0
        if places[seat] == max(places):
            assert entry["rating"]["delta"] < 0
    board, total = service.leaderboard("high-card", 0, 10)
    assert total == 3  # two players and the basic bot; the anonymous seat is not rated
    assert [e["rating"] for e in board] == sorted((e["rating"] for e in board), reverse=True)
    assert {e["level"] for e in board if e["kind"] == "bot"} == {"basic"}
    assert {e["player"]["name"] for e in board if e["kind"] == "player"} == {"Ann", "Bob"}
