"""The `PlayerStore` contract: players with unique name keys and a replaceable key hash,
and their inboxes (a game in one bucket at a time, pages by score). A subclass provides
`store`."""

from __future__ import annotations

import threading

import pytest

from domain.players.inbox import InboxMove, Position
from domain.players.records import Player
from domain.store.port import PlayerStore


def _player(n: int) -> Player:
    return Player(id=f"p{n}", name=f"Ann {n}", created_at=100.0 + n)


def _at(bucket: str, score: float) -> Position:
    return Position(bucket, score)


class PlayerStoreContract:
    @pytest.fixture
    def store(self) -> PlayerStore:
        raise NotImplementedError("a subclass gives the store under test")

    # --- players -------------------------------------------------------------------------
    def test_a_player_is_kept_with_its_key_hash(self, store):
        assert store.add(_player(1), "ann 1", "hash1")
        assert store.player("p1") == _player(1)
        assert store.with_key_hash("p1") == (_player(1), "hash1")
        assert store.named("ann 1") == "p1"
        assert store.players(["p1", "nope"]) == [_player(1), None]
        assert store.player("nope") is None and store.with_key_hash("nope") is None
        assert store.named("nobody") is None

    def test_a_name_key_is_held_once(self, store):
        assert store.add(_player(1), "ann", "h1")
        assert not store.add(_player(2), "ann", "h2")
        assert store.player("p2") is None  # nothing of the refused player is kept
        assert store.named("ann") == "p1"

    def test_racing_for_one_name_exactly_one_wins(self, store):
        wins: list[int] = []

        def claim(n: int) -> None:
            if store.add(_player(n), "same", f"h{n}"):
                wins.append(n)

        threads = [threading.Thread(target=claim, args=(n,)) for n in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(wins) == 1
        assert store.named("same") == f"p{wins[0]}"

    def test_a_key_hash_is_replaced(self, store):
        store.add(_player(1), "ann", "old")
        assert store.set_key_hash("p1", "new")
        assert store.with_key_hash("p1") == (_player(1), "new")
        assert not store.set_key_hash("nope", "new")
        assert store.with_key_hash("nope") is None

    # --- inboxes -------------------------------------------------------------------------
    def test_a_game_sits_in_one_bucket_at_a_time(self, store):
        store.place([InboxMove("p1", "g1", _at("open", 1.0))])
        assert store.inbox_ids("p1", "open", 0, 30)[:2] == (["g1"], 1)
        store.place([InboxMove("p1", "g1", _at("active", 5.0))])
        assert store.inbox_ids("p1", "open", 0, 30)[:2] == ([], 0)
        assert store.inbox_ids("p1", "active", 0, 30)[:2] == (["g1"], 1)
        store.place([InboxMove("p1", "g1", None)])
        assert store.inbox_ids("p1", "active", 0, 30)[:2] == ([], 0)

    def test_an_inbox_page_comes_with_the_player_and_key_hash(self, store):
        store.add(_player(1), "ann", "h1")
        store.place([InboxMove("p1", "g1", _at("active", 1.0))])
        assert store.inbox_ids("p1", "active", 0, 30) == (["g1"], 1, (_player(1), "h1"),
                                                           [1.0])
        assert store.inbox_ids("p2", "active", 0, 30) == ([], 0, None, [])

    def test_inbox_pages_by_score_within_a_range(self, store):
        store.place([InboxMove("p1", g, _at("active", score)) for g, score in
                     (("late", 300.0), ("soon", 100.0), ("mid", 200.0), ("other", 1e12))]
                    + [InboxMove("p2", "theirs", _at("active", 50.0))])
        assert store.inbox_ids("p1", "active", 0, 30)[:2] == (["soon", "mid", "late", "other"], 4)
        assert store.inbox_ids("p1", "active", 0, 2, high=1e12)[:2] == (["soon", "mid"], 3)
        assert store.inbox_ids("p1", "active", 0, 2, high=1e12).scores == [100.0, 200.0]
        assert store.inbox_ids("p1", "active", 2, 2, high=1e12)[:2] == (["late"], 3)
        assert store.inbox_ids("p1", "active", 0, 30, low=1e12)[:2] == (["other"], 1)
        assert store.inbox_ids("p1", "active", 0, 30, newest_first=True)[0] == \
            ["other", "late", "mid", "soon"]
        assert store.inbox_ids("p1", "active", 2**70, 30)[:2] == ([], 4)
        assert store.inbox_ids("p3", "active", 0, 30)[:2] == ([], 0)

    def test_moves_of_several_players_at_once(self, store):
        store.place([InboxMove("p1", "g1", _at("active", 10.0)),
                     InboxMove("p2", "g1", _at("active", 1e12))])
        store.place([InboxMove("p1", "g1", _at("active", 1e12)),
                     InboxMove("p2", "g1", _at("active", 20.0))])
        assert store.inbox_ids("p1", "active", 0, 30, high=1e12)[:2] == ([], 0)
        assert store.inbox_ids("p2", "active", 0, 30, high=1e12)[:2] == (["g1"], 1)

    # --- a player's own stream -----------------------------------------------------------
    def test_notes_go_to_their_players_streams_in_order_and_page_after_an_id(self, store):
        from domain.players.notes import PlayerNote, entry_order

        def note(player: str, kind: str, n: int) -> PlayerNote:
            return PlayerNote(player=player, type=kind, at=1000.0 + n, game=f"g{n}",
                              game_type="trash", data={"seat": n})

        assert store.last_player_event("p1") == "0-0"
        assert store.player_events("p1") == []
        store.place([], [note("p1", "my_turn", 1), note("p2", "invited", 2)])
        store.place([], [note("p1", "message", 3)], [("p1", "g1", 1003.0)])
        mine = store.player_events("p1")
        assert [e.shown()["type"] for e in mine] == ["my_turn", "message"]
        assert mine[0].shown() == {"id": mine[0].id, "type": "my_turn", "at": 1001.0,
                                   "game": "g1", "game_type": "trash", "data": {"seat": 1}}
        assert entry_order(mine[0].id) < entry_order(mine[1].id)
        assert store.last_player_event("p1") == mine[1].id
        assert store.player_events("p1", after=mine[0].id) == mine[1:]
        assert store.player_events("p1", count=1) == mine[:1]
        assert [e.shown()["type"] for e in store.player_events("p2")] == ["invited"]
