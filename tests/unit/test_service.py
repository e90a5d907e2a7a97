"""The service on the in-memory store, no Redis: create, join, act, idempotent retries,
If-Match, conflicts, contention, and replay at any seq."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from domain.errors import (
    Contention,
    DomainError,
    IdempotencyKeyReused,
    NotYourTurn,
    PreconditionFailed,
    SeatTaken,
    UnknownGame,
    VersionConflict,
)
from domain.service import GameService
from domain.service.act import answer_again
from domain.store import SNAPSHOT_EVERY, MemoryEventStore
from domain.table import OVER, to_act
from tests.support.games import games_under_test


class Recorded:
    """Hooks that remember what they were told."""

    def __init__(self) -> None:
        self.appends: list[tuple[int, list[str]]] = []

    def timer_changes(self, table, new_events) -> None:
        return None

    def after_append(self, table, new_events, webhooks=None, timers=None) -> None:
        self.appends.append((table.version, [e.type for e in new_events]))


class Watched:
    """A store that records which of its methods were called, and may lose every race:
    with `beaten`, each append meets another writer that got there first."""

    def __init__(self, inner: MemoryEventStore) -> None:
        self.inner = inner
        self.calls: list[str] = []
        self.beaten = False

    def append(self, game_id: str, expected_version: int, *args: Any, **kwargs: Any) -> Any:
        self.calls.append("append")
        if self.beaten:
            raise VersionConflict(expected_version, expected_version + 1)
        return self.inner.append(game_id, expected_version, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.inner, name)
        if callable(found):
            def call(*args: Any, **kwargs: Any) -> Any:
                self.calls.append(name)
                return found(*args, **kwargs)
            return call
        return found


@pytest.fixture
def store() -> Watched:
    return Watched(MemoryEventStore())


@pytest.fixture
def hooks() -> Recorded:
    return Recorded()


@pytest.fixture
def service(store, hooks) -> GameService:
    return GameService(store, games_under_test(), clock=lambda: 1000.0, hooks=hooks)


def _started(service: GameService, players: int = 3) -> tuple[str, list[str]]:
    table = service.create("high-card", None, [{"kind": "human"}] * players, deadline_s=None)
    tokens = [""] * players
    for n in range(players):
        seat, token, _ = service.join(table.id, f"p{n}")
        tokens[seat] = token
    return table.id, tokens


def _card(service: GameService, game_id: str, seat: int, index: int = 0) -> dict[str, Any]:
    table, _ = service.load(game_id)
    return {"type": "play", "card": table.game.hands[seat][index]}


def test_create_then_join_every_seat_starts_the_game(service, store, hooks):
    table = service.create("high-card", None, [{"kind": "human"}] * 2, deadline_s=None)
    assert (table.status, table.version) == ("open", 1)
    assert service.list_games("open", None, 0, 10)[1] == 1
    first = service.join(table.id, "ann")
    second = service.join(table.id, "bob")
    assert [first[0], second[0]] == [0, 1] and first[1] != second[1]
    started = second[2]
    assert started.status == "active" and [s.name for s in started.seats] == ["ann", "bob"]
    assert [e.type for e in store.read(table.id)] == [
        "game_created", "player_joined", "player_joined", "game_started", "dealt"]
    assert service.load(table.id, first[1])[1] == 0 and service.load(table.id, "x")[1] is None
    listed, total = service.list_games("active", "high-card", 0, 10)
    assert total == 1 and listed[0].id == table.id
    assert service.list_games("open", None, 0, 10) == ([], 0)
    assert [v for v, _ in hooks.appends] == [1, 2, 5]
    with pytest.raises(SeatTaken):
        service.join(table.id, "cy")


def test_create_refuses_what_the_game_does_not_accept(service, store):
    with pytest.raises(DomainError) as err:
        service.create("high-card", None, [{"kind": "human"}] * 5)
    assert err.value.code == "bad_player_count"
    with pytest.raises(DomainError) as err:
        service.create("high-card", None, [{"kind": "bot", "level": "genius"}] * 2)
    assert err.value.code == "bad_bot_level"
    assert store.calls == []  # nothing was written


def test_an_action_appends_its_events_and_answers_the_seat(service, store, hooks):
    game_id, _tokens = _started(service)
    before = service.load(game_id)[0].version
    result = service.act(game_id, 0, _card(service, game_id, 0))
    assert [e.type for e in result.events] == ["played"]
    assert result.table.version == before + 1 == store.version(game_id)
    answer = json.loads(result.body)
    assert answer["version"] == before + 1 and answer["to_act"] == [1]
    assert [e["seq"] for e in answer["events"]] == [before + 1]
    assert hooks.appends[-1] == (before + 1, ["played"])
    with pytest.raises(NotYourTurn):
        service.act(game_id, 0, _card(service, game_id, 0))


def test_an_idempotent_retry_gets_the_first_answer_and_writes_nothing(service, store):
    game_id, _tokens = _started(service)
    action = _card(service, game_id, 0)
    first = service.act(game_id, 0, action, idempotency_key="k")
    version = store.version(game_id)
    again = service.act(game_id, 0, action, idempotency_key="k")
    assert again.body == first.body and again.events == []
    # The game moved on: the same retry would now be refused, yet it gets the first answer.
    service.act(game_id, 1, _card(service, game_id, 1))
    late = service.act(game_id, 0, action, idempotency_key="k")
    assert late.body == first.body
    assert store.version(game_id) == version + 1  # only seat 1's move was written
    # A key belongs to its seat: seat 1 with the same key is a new request.
    with pytest.raises(NotYourTurn):
        service.act(game_id, 1, _card(service, game_id, 1), idempotency_key="k")


def test_the_key_names_the_events_and_the_first_answer_is_made_again_from_them(service,
                                                                              store):
    game_id, _tokens = _started(service)
    action = _card(service, game_id, 0)
    before = store.version(game_id)
    first = service.act(game_id, 0, action, idempotency_key="k")
    record = store.inner.first_answer(game_id, "0:k")
    assert record is not None
    assert record.answer == f"events {before + 1}-{first.table.version}".encode()
    service.act(game_id, 1, _card(service, game_id, 1))
    # In a process that remembers nothing of the game, after it moved on: the same bytes.
    elsewhere = GameService(store.inner, games_under_test()).act(game_id, 0, action,
                                                                 idempotency_key="k")
    assert elsewhere.replayed and elsewhere.body == first.body
    # Events the log no longer holds (a deleted game) name no answer.
    assert answer_again(service.deps, "nope", 0, b"events 1-2") is None


def test_a_key_reused_for_another_action_is_refused_and_writes_nothing(service, store):
    game_id, _tokens = _started(service)
    legal = service.view(service.load(game_id)[0], 0)["legal_actions"]
    assert len(legal) >= 2
    first = service.act(game_id, 0, legal[0], idempotency_key="k")
    version = store.version(game_id)
    with pytest.raises(IdempotencyKeyReused):
        service.act(game_id, 0, legal[1], idempotency_key="k")
    # Refused also when the other action would itself be refused now (not seat 0's turn).
    with pytest.raises(IdempotencyKeyReused):
        service.act(game_id, 0, {"type": "nonsense"}, idempotency_key="k")
    assert store.version(game_id) == version
    # The same action, its keys in another order: the same request, the first answer.
    reordered = dict(reversed(list(legal[0].items())))
    assert service.act(game_id, 0, reordered, idempotency_key="k").body == first.body


def test_if_match_must_name_the_version(service, store):
    game_id, _tokens = _started(service)
    version = store.version(game_id)
    with pytest.raises(PreconditionFailed) as err:
        service.act(game_id, 0, _card(service, game_id, 0), if_match=version - 1)
    assert isinstance(err.value, DomainError)
    assert (err.value.code, err.value.version) == ("version_mismatch", version)
    assert service.act(game_id, 0, _card(service, game_id, 0),
                       if_match=version).table.version == version + 1


def test_an_action_at_a_remembered_version_costs_one_call_to_the_store(service, store):
    game_id, tokens = _started(service)
    service.act(game_id, 0, _card(service, game_id, 0))  # the process learns the seed
    table, _ = service.load(game_id, tokens[1])
    action = _card(service, game_id, 1)
    store.calls.clear()
    loaded = service.load_to_act(game_id, tokens[1], version=table.version)
    assert loaded.cached and loaded.seat == 1
    service.act(game_id, 1, action, if_match=table.version, loaded=loaded)
    assert store.calls == ["append"]
    # Without a version the action reads the latest table first: one read, one append;
    # the read is of the events since the table this process remembers.
    action = _card(service, game_id, 2)
    store.calls.clear()
    loaded = service.load_to_act(game_id, tokens[2])
    service.act(game_id, 2, action, loaded=loaded)
    assert store.calls == ["read_after", "append"]


def test_a_remembered_table_is_brought_up_to_date_with_the_events_since(service, store):
    game_id, tokens = _started(service)
    other = GameService(store.inner, games_under_test())  # another process, with its own memory
    service.load(game_id, tokens[0])
    for seat in (0, 1):
        other.act(game_id, seat, _card(other, game_id, seat))
    store.calls.clear()
    table, seat = service.load(game_id, tokens[2])
    assert store.calls == ["read_after"]
    assert (table, seat) == GameService(store.inner, games_under_test()).load(game_id, tokens[2])


def test_a_conflict_is_decided_again_on_the_latest_table(service, store):
    game_id, tokens = _started(service)
    other = GameService(store.inner, games_under_test())  # another process, with its own memory
    stale = service.load_to_act(game_id, tokens[0])
    other.act(game_id, 0, _card(other, game_id, 0))
    # Without If-Match: decided again on the latest table, where seat 0 may not act.
    with pytest.raises(NotYourTurn):
        service.act(game_id, 0, _card(service, game_id, 0), loaded=stale)
    # With If-Match: the version the client saw is gone, whatever the action.
    with pytest.raises(PreconditionFailed) as err:
        service.act(game_id, 0, {"type": "play", "card": stale.table.game.hands[0][1]},
                    if_match=stale.table.version, loaded=stale)
    assert err.value.version == stale.table.version + 1
    assert store.version(game_id) == stale.table.version + 1


def test_a_stale_version_is_refused_as_stale_even_when_its_table_is_remembered(service,
                                                                               store):
    game_id, tokens = _started(service, players=2)
    old = service.load_to_act(game_id, tokens[0])
    service.act(game_id, 0, _card(service, game_id, 0))
    service.act(game_id, 1, _card(service, game_id, 1))
    version = store.version(game_id)
    legal_then = _card(service, game_id, 0)
    illegal_then = {"type": "play", "card": 0}
    for action, calls in ((legal_then, ["append"]), (illegal_then, ["read_after"])):
        # Legal on the remembered table: its append fails. Refused on the remembered
        # table: decided again on the latest one. Either way, the version is stale.
        remembered = service.load_to_act(game_id, tokens[0], version=old.table.version)
        assert remembered.cached
        store.calls.clear()
        with pytest.raises(PreconditionFailed) as err:
            service.act(game_id, 0, action, if_match=old.table.version, loaded=remembered)
        assert err.value.version == version and store.calls == calls
    assert store.version(game_id) == version


def test_each_retry_loop_that_runs_out_raises_contention(service, store):
    game_id, _tokens = _started(service, players=2)
    # Seat 0 misses two deadlines in a row: it is away, and may come back.
    service.act(game_id, 0, _card(service, game_id, 0), by="timeout")
    service.act(game_id, 1, _card(service, game_id, 1))
    service.act(game_id, 0, _card(service, game_id, 0), by="timeout")
    assert service.load(game_id)[0].is_away(0)
    open_game = service.create("high-card", None, [{"kind": "human"}] * 2, deadline_s=None)
    version = store.version(game_id)
    store.beaten = True
    for attempts, command in (
            (5, lambda: service.join(open_game.id, "late")),
            (3, lambda: service.come_back(game_id, 0)),
            (3, lambda: service.act(game_id, 1, _card(service, game_id, 1)))):
        store.calls.clear()
        with pytest.raises(Contention) as err:
            command()
        assert store.calls.count("append") == attempts == err.value.attempts
        assert err.value.code == "contention" and isinstance(err.value, DomainError)
        assert err.value.retry_after_s > 0
    assert store.version(game_id) == version and store.version(open_game.id) == 1
    store.beaten = False
    assert service.come_back(game_id, 0).timeouts_in_row[0] == 0


def test_replay_shows_the_view_after_any_seq(service, store):
    game_id, _tokens = _started(service, players=2)
    seen: dict[int, dict[str, Any]] = {}
    while (table := service.load(game_id)[0]).status == "active":
        seat = table.game.turn
        seen[table.version] = service.view(table, 0)
        service.act(game_id, seat, _card(service, game_id, seat))
    final = service.load(game_id)[0]
    assert final.status == "finished" and final.outcome is not None
    assert service.rebuild(game_id) == final
    for seq, view in seen.items():
        past = service.state_at(game_id, seq, 0)
        assert past["version"] == seq and past["game"]["played"] == view["game"]["played"]
        assert past["game"]["hands"] is not None  # after the end everything is revealed
    with pytest.raises(UnknownGame) as err:
        service.state_at(game_id, final.version + 1, None)
    assert err.value.code == "unknown_seq"


def test_the_log_is_redacted_for_its_viewer(service):
    game_id, _tokens = _started(service, players=2)
    for viewer in (0, 1, None):
        events, table = service.events_for(game_id, viewer)
        dealt = next(e for e in events if e["type"] == "dealt")
        assert set(dealt["private"]) == ({str(viewer)} if viewer is not None else set())
        assert table.version == len(events)
    assert service.events_for(game_id, None, after=3, limit=1)[0][0]["seq"] == 4


def test_the_creator_token_is_its_own_credential(service):
    table = service.create("high-card", None, [{"kind": "human"}] * 2)
    token = service.issue_creator_token(table.id)
    assert service.is_creator(table.id, token)
    assert not service.is_creator(table.id, token + "x")
    assert not service.is_creator("other", token)


class SnapshotsSeen:
    """A store that records, for every append, whether it carried a snapshot."""

    def __init__(self, inner: MemoryEventStore) -> None:
        self.inner = inner
        self.snapshots: list[tuple[int, bool]] = []  # (version after the append, written)

    def append(self, game_id: str, expected_version: int, events: list, snapshot: Any,
               **kwargs: Any) -> Any:
        self.snapshots.append((expected_version + len(events), snapshot is not None))
        return self.inner.append(game_id, expected_version, events, snapshot, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def test_the_snapshot_is_written_every_few_events_and_a_load_folds_the_rest():
    store = SnapshotsSeen(MemoryEventStore())
    service = GameService(store, games_under_test())
    game_id, _tokens = _started(service, players=3)
    game = games_under_test().game("high-card")
    while (table := service.load(game_id)[0]).status == "active":
        seat = min(to_act(table, game))
        service.act(game_id, seat, _card(service, game_id, seat))
        # A process that remembers nothing reads the table as the log replays it, alone
        # and in a listing (without its game state once the game is over).
        replayed = service.rebuild(game_id)
        fresh = GameService(store.inner, games_under_test())
        assert fresh.load(game_id)[0] == replayed
        listed = msgspec.structs.replace(replayed, game=None) \
            if replayed.status in OVER else replayed
        assert fresh.list_games(None, None, 0, 10)[0] == [listed]
    versions = [version for version, _ in store.snapshots]
    written = [version for version, wrote in store.snapshots if wrote]
    assert len(versions) > SNAPSHOT_EVERY  # (a game long enough to tell)
    assert written[0] == versions[0] and written[-1] == versions[-1]  # first and last
    assert len(written) < len(versions) / 2  # not with every append
    # The stored snapshot is never SNAPSHOT_EVERY events behind the log.
    assert max(v - max(w for w in written if w <= v) for v in versions) < SNAPSHOT_EVERY
