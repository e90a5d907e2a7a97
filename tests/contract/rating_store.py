"""The `RatingStore` contract: standings per game type, a game applied once per player and
only over the standing it was computed from, leaderboards best first, and the games
awaiting their rating. A subclass provides `store`."""

from __future__ import annotations

import threading

import pytest

from domain.ratings.standing import RatingChange, Standing
from domain.store.port import RatingStore

START = Standing()


def _change(game: str, before: Standing, rating: float, game_type: str = "trash") -> RatingChange:
    after = Standing(rating=rating, deviation=200.0, volatility=0.06, games=before.games + 1,
                     wins=before.wins + 1)
    return RatingChange(game=game, type=game_type, place=1, before=before, after=after,
                        at=10.0)


class RatingStoreContract:
    @pytest.fixture
    def store(self) -> RatingStore:
        raise NotImplementedError("a subclass gives the store under test")

    def test_a_game_is_applied_once_per_player(self, store):
        change = _change("g1", START, 1600.0)
        assert store.apply("p1", None, change) == "applied"
        assert store.apply("p1", None, change) == "already"
        assert store.apply("p1", change.after, change) == "already"
        assert store.standings("trash", ["p1", "p2"]) == [change.after, None]
        assert store.changes("p1", ["g1", "g2"]) == [change, None]
        assert store.changes("p2", ["g1"]) == [None]
        assert store.changes("p1", []) == []

    def test_a_standing_changed_since_it_was_read_is_a_conflict(self, store):
        first = _change("g1", START, 1600.0)
        store.apply("p1", None, first)
        stale = _change("g2", START, 1550.0)
        assert store.apply("p1", None, stale) == "conflict"
        assert store.changes("p1", ["g2"]) == [None]
        fresh = _change("g2", first.after, 1650.0)
        assert store.apply("p1", first.after, fresh) == "applied"
        assert store.standings("trash", ["p1"]) == [fresh.after]

    def test_standings_are_per_game_type(self, store):
        store.apply("p1", None, _change("g1", START, 1600.0, "trash"))
        store.apply("p1", None, _change("g2", START, 1400.0, "ochs-und-esel"))
        found = store.all_standings("p1")
        assert sorted(found) == ["ochs-und-esel", "trash"]
        assert found["trash"].rating == 1600.0 and found["ochs-und-esel"].rating == 1400.0
        assert store.all_standings("p2") == {}

    def test_racing_runs_of_one_rating_apply_it_once(self, store):
        answers: list[str] = []
        change = _change("g1", START, 1600.0)
        threads = [threading.Thread(target=lambda: answers.append(
            store.apply("p1", None, change))) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(answers) == ["already"] * 7 + ["applied"]

    def test_the_leaderboard_is_best_first_and_paged(self, store):
        store.rank("trash", {"p1": 1500.0, "p2": 1700.0, "bot:basic": 1400.0})
        store.rank("trash", {"p1": 1800.0})  # p1 was rated again
        store.rank("canyon", {"p3": 2000.0})
        assert store.leaderboard("trash", 0, 30) == (
            [("p1", 1800.0), ("p2", 1700.0), ("bot:basic", 1400.0)], 3)
        assert store.leaderboard("trash", 1, 1) == ([("p2", 1700.0)], 3)
        assert store.leaderboard("trash", 5, 30) == ([], 3)
        assert store.leaderboard("nothing", 0, 30) == ([], 0)

    def test_games_awaiting_their_rating_oldest_first(self, store):
        store.await_rating("g2", 20.0)
        store.await_rating("g1", 10.0)
        store.await_rating("g3", 30.0)
        assert store.awaiting(25.0, 10) == ["g1", "g2"]
        assert store.awaiting(25.0, 1) == ["g1"]
        store.rated("g1")
        store.rated("never-awaited")
        assert store.awaiting(100.0, 10) == ["g2", "g3"]

    def test_a_calibration_of_the_bots_is_kept_per_game_type(self, store):
        assert store.bot_standings("trash") == {}
        basic = Standing(rating=1420.0, deviation=40.0, games=300, wins=120)
        store.calibrated("trash", {"basic": basic, "strong": START})
        store.calibrated("canyon", {"basic": START})
        store.calibrated("trash", {"strong": basic})  # a later calibration of one level
        assert store.bot_standings("trash") == {"basic": basic, "strong": basic}
        assert store.bot_standings("canyon") == {"basic": START}
