"""The contracts of the games' storage, one per port (`domain.store.port`): the log and its
atomic append (versioned appends, snapshots, idempotency, checkpoints, tokens, the blocking
wait), the listings, the table's chat, the secrets, the notices; and what crosses them in a
whole `EventStore`. A subclass provides `store`: the port alone, or a whole store."""

from __future__ import annotations

import threading
import time

import pytest

from domain.chat import HIDDEN, MESSAGE, ChatEntry
from domain.errors import VersionConflict
from domain.events import event, stamp, verify_chain
from domain.store.port import (
    CHECKPOINT_EVERY,
    SNAPSHOT_EVERY,
    Analyses,
    EventStore,
    GameLog,
    Idempotency,
    Listings,
    Secrets,
    Stored,
    TableChat,
)


def _events(n: int, first: int = 1, prev: str = "") -> list:
    return stamp([event("noted", i=i) for i in range(n)], first, 1000.0, prev)


def _snapshot(store: GameLog, game_id: str) -> bytes | None:
    stored = store.read_table(game_id)[0]
    return stored.snapshot if stored is not None else None


def _table(store: GameLog, game_id: str, token_hash: str | None = None,
           with_seed: bool = False) -> tuple[bytes | None, int | None, str | None]:
    """`read_table` with the snapshot alone in place of the stored table."""
    stored, seat, seed = store.read_table(game_id, token_hash, with_seed)
    return (stored.snapshot if stored is not None else None), seat, seed


def _message(seat: int, text: str, at: float = 1.0) -> ChatEntry:
    return ChatEntry(type=MESSAGE, at=at, seat=seat, name=f"seat {seat}", text=text)


def _hiding(message: int) -> ChatEntry:
    return ChatEntry(type=HIDDEN, at=9.0, message=message)


def _after_snapshot(stored: Stored, version: int) -> list:
    """The tail's events after the snapshot, which was written at `version`."""
    return [e for e in stored.tail if e.seq > version]


class GameLogContract:
    """The log and its atomic append."""

    @pytest.fixture
    def store(self) -> GameLog:
        raise NotImplementedError("a subclass gives the store under test")

    def test_append_then_read_back_in_order(self, store):
        batch = _events(3)
        assert store.append("g1", 0, batch, b"snap3").version == 3
        assert store.read("g1") == batch
        assert store.read("g1", after=1) == batch[1:]
        assert store.read("g1", after=1, until=2) == batch[1:2]
        assert store.read("g1", count=2) == batch[:2]
        assert _snapshot(store, "g1") == b"snap3"
        assert store.version("g1") == 3
        assert verify_chain(store.read("g1")) is None

    def test_stale_expected_version_is_a_conflict_and_writes_nothing(self, store):
        store.append("g1", 0, _events(2), b"s2")
        with pytest.raises(VersionConflict) as err:
            store.append("g1", 1, _events(1, first=2), b"stale", token=("h", 1),
                         idempotency=Idempotency("k", "r", b"a"))
        assert err.value.actual == 2 and err.value.expected == 1
        assert len(store.read("g1")) == 2
        assert _snapshot(store, "g1") == b"s2"
        assert _table(store, "g1", "h")[1] is None
        assert store.first_answer("g1", "k") is None

    def test_racing_appends_at_one_version_exactly_one_wins(self, store):
        store.append("g1", 0, _events(1), b"s1")
        wins, conflicts = [], []

        def writer(i: int) -> None:
            try:
                store.append("g1", 1, _events(2, first=2), f"w{i}".encode())
                wins.append(i)
            except VersionConflict:
                conflicts.append(i)

        threads = [threading.Thread(target=writer, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(wins) == 1 and len(conflicts) == 7
        assert len(store.read("g1")) == 3
        assert _snapshot(store, "g1") == f"w{wins[0]}".encode()

    def test_idempotency_key_returns_the_first_answer_and_writes_once(self, store):
        store.append("g1", 0, _events(1), b"s1")
        record = Idempotency("k", "a" * 64, b'{"answer": 1}')
        first = store.append("g1", 1, _events(1, first=2), b"s2", idempotency=record)
        assert first.duplicate is None and first.version == 2
        again = store.append("g1", 1, _events(1, first=2), b"s2",
                             idempotency=Idempotency("k", "a" * 64, b"other"))
        assert again.duplicate == record
        assert len(store.read("g1")) == 2
        assert store.first_answer("g1", "k") == record

    def test_the_record_keeps_the_first_requests_hash_for_another_request(self, store):
        record = Idempotency("k", "a" * 64, b"answer\nwith a line feed")
        store.append("g1", 0, _events(1), b"s1", idempotency=record)
        other = store.append("g1", 1, _events(1, first=2), b"s2",
                             idempotency=Idempotency("k", "b" * 64, b"other answer"))
        # Nothing written; the caller sees that the key answered another request.
        assert other.duplicate == record and other.duplicate.request != "b" * 64
        assert store.version("g1") == 1 and _snapshot(store, "g1") == b"s1"

    def test_a_used_key_answers_first_even_when_the_game_moved_on(self, store):
        record = Idempotency("k", "r", b"answer")
        store.append("g1", 0, _events(1), b"s1", idempotency=record)
        store.append("g1", 1, _events(1, first=2), b"s2")
        again = store.append("g1", 1, _events(1, first=2), b"s2",
                             idempotency=Idempotency("k", "r", b"x"))
        assert again.duplicate == record and again.version == 1
        assert store.version("g1") == 2
        assert store.first_answer("g1", "other") is None
        assert store.first_answer("g2", "k") is None  # keys belong to one game

    def test_checkpoints_and_tokens_are_written_with_the_append(self, store):
        at = CHECKPOINT_EVERY
        store.append("g1", 0, _events(1), b"s1", checkpoint=(at, b"c128"), token=("h", 2))
        assert store.checkpoint_at_or_before("g1", at + 72) == (at, b"c128")
        assert store.checkpoint_at_or_before("g1", at) == (at, b"c128")
        assert store.checkpoint_at_or_before("g1", at - 28) is None
        assert store.checkpoint_at_or_before("g1", 2 * at + 5) is None  # none kept there
        assert _table(store, "g1", "h") == (b"s1", 2, None)
        assert _table(store, "g1", "unknown") == (b"s1", None, None)

    def test_after_a_known_version_too_many_events_or_no_game_read_as_none(self, store):
        # Past SNAPSHOT_EVERY - 1 events the stored table costs less to read and fold.
        store.append("g1", 0, _events(1), b"s1", token=("h", 0))
        store.append("g1", 1, _events(SNAPSHOT_EVERY, first=2), b"s2")
        assert store.read_after("g1", 1, "h") == (None, 0, None)
        assert store.read_after("g1", 2)[0] is not None
        assert store.read_after("nope", 0) == (None, None, None)
        assert store.delete("g1", SNAPSHOT_EVERY + 1)
        assert store.read_after("g1", SNAPSHOT_EVERY + 1) == (None, None, None)

    def test_a_read_from_a_held_event_tells_no_log_from_nothing_new(self, store):
        batch = _events(3)
        store.append("g1", 0, batch, b"s3")
        assert store.read_logged("g1") == batch
        assert store.read_logged("g1", after=1) == batch[1:]
        assert store.read_logged("g1", after=1, until=2) == batch[1:2]
        assert store.read_logged("g1", after=1, count=1) == batch[1:2]
        assert store.read_logged("g1", after=3) == []  # nothing new: the log is there
        assert store.read_logged("g1", after=4) is None  # event 4 is not in it
        assert store.read_logged("nope") is None
        assert store.read_logged("nope", after=2) is None
        assert store.delete("g1", 3)
        assert store.read_logged("g1", after=3) is None

    def test_wait_returns_new_events_or_nothing_after_the_timeout(self, store):
        store.append("g1", 0, _events(1), b"s1")
        assert store.wait("g1", 1, 0.05) == []
        later = _events(1, first=2)
        timer = threading.Timer(0.05, lambda: store.append("g1", 1, later, b"s2"))
        timer.start()
        got = store.wait("g1", 1, 2.0)
        timer.join()
        assert got == later

    def test_wait_returns_at_once_what_is_already_there(self, store):
        batch = _events(3)
        store.append("g1", 0, batch, b"s3")
        assert store.wait("g1", 0, 5.0, count=2) == batch[:2]
        assert store.wait("g1", 1, 5.0) == batch[1:]

    def test_snapshots_of_several_games_at_once(self, store):
        store.append("g1", 0, _events(1), b"s1")
        store.append("g2", 0, _events(1), b"s2")
        found = store.snapshots(["g2", "nope", "g1"])
        assert [s.snapshot if s else None for s in found] == [b"s2", None, b"s1"]
        assert store.snapshots([]) == []

    def test_an_append_without_a_snapshot_keeps_the_last_and_the_tail_covers_the_rest(
            self, store):
        first = _events(2)
        store.append("g1", 0, first, b"s2")
        later = []
        for version in range(2, 2 + SNAPSHOT_EVERY - 1):
            batch = _events(1, first=version + 1, prev=(later or first)[-1].hash)
            store.append("g1", version, batch, None)
            later += batch
        stored, _seat, _seed = store.read_table("g1")
        assert stored is not None and stored.snapshot == b"s2"
        assert _after_snapshot(stored, 2) == later  # every event after it, in order
        assert [e.seq for e in stored.tail] == sorted(e.seq for e in stored.tail)
        assert store.snapshots(["g1"]) == [stored]
        # The next snapshot replaces it; the tail after it is empty.
        last = _events(1, first=len(later) + 3, prev=later[-1].hash)
        store.append("g1", len(later) + 2, last, b"s-new")
        stored = store.read_table("g1")[0]
        assert stored is not None and stored.snapshot == b"s-new"
        assert _after_snapshot(stored, len(later) + 3) == []
        assert last[0] in stored.tail or stored.tail == []

    def test_a_conflicting_append_without_a_snapshot_writes_nothing(self, store):
        store.append("g1", 0, _events(1), b"s1")
        with pytest.raises(VersionConflict):
            store.append("g1", 0, _events(1), None)
        stored = store.read_table("g1")[0]
        assert stored is not None and stored.snapshot == b"s1"
        assert _after_snapshot(stored, 1) == []

    def test_the_log_is_deleted_only_at_the_version_it_was_read(self, store):
        store.append("g1", 0, _events(2), b"s2", token=("h", 0))
        store.append("g2", 0, _events(1), b"other", token=("h", 1))
        assert not store.delete("g1", 1)  # the game moved on: kept
        assert _table(store, "g1", "h") == (b"s2", 0, None)
        assert not store.delete("nope", 0)
        assert store.delete("g1", 2)
        assert store.read_table("g1", "h") == (None, None, None)
        assert (store.read("g1"), store.version("g1")) == ([], 0)
        assert _table(store, "g2", "h") == (b"other", 1, None)  # the other game is whole


class ListingsContract:
    """The listings."""

    @pytest.fixture
    def store(self) -> Listings:
        raise NotImplementedError("a subclass gives the store under test")

    def test_listing_is_newest_first_filtered_and_paged(self, store):
        store.index("a", "high-card", "open", 1.0)
        store.index("b", "trash", "open", 2.0)
        store.index("c", "high-card", "open", 3.0)
        store.index("a", "high-card", "active", 1.0)  # a's status changed
        assert store.list_ids(None, None, 0, 30) == (["c", "b", "a"], 3)
        assert store.list_ids(None, None, 1, 1) == (["b"], 3)
        assert store.list_ids("open", None, 0, 30) == (["c", "b"], 2)
        assert store.list_ids("active", None, 0, 30) == (["a"], 1)
        assert store.list_ids(None, "high-card", 0, 30) == (["c", "a"], 2)
        assert store.list_ids("open", "high-card", 0, 30) == (["c"], 1)
        assert store.list_ids("active", "high-card", 0, 30) == (["a"], 1)
        assert store.list_ids("active", "trash", 0, 30) == ([], 0)
        assert store.list_ids("finished", None, 0, 30) == ([], 0)
        store.index("c", "high-card", "finished", 3.0)  # and on (an index kept on write)
        assert store.list_ids("open", "high-card", 0, 30) == ([], 0)
        assert store.list_ids("finished", "high-card", 0, 30) == (["c"], 1)
        store.index("c", "high-card", "open", 3.0)
        assert sorted(store.scan_ids("open", batch=1)) == ["b", "c"]
        assert list(store.scan_ids("finished")) == []

    def test_the_lobby_lists_open_games_with_a_free_seat_by_type(self, store):
        store.index("a", "high-card", "open", 1.0, free_seat=True)
        store.index("b", "trash", "open", 2.0, free_seat=True)
        store.index("c", "high-card", "open", 3.0, free_seat=False)  # invitations only
        store.index("d", "high-card", "open", 4.0, free_seat=True)
        assert store.list_ids("open", None, 0, 30, free_seat=True) == (["d", "b", "a"], 3)
        assert store.list_ids(None, "high-card", 0, 30, free_seat=True) == (["d", "a"], 2)
        assert store.list_ids("open", "high-card", 1, 1, free_seat=True) == (["a"], 2)
        store.index("d", "high-card", "active", 4.0)  # the last seat was taken
        assert store.list_ids("open", "high-card", 0, 30, free_seat=True) == (["a"], 1)
        assert store.list_ids("active", None, 0, 30, free_seat=True) == ([], 0)
        assert store.list_ids("open", None, 0, 30) == (["c", "b", "a"], 3)

    def test_a_page_past_the_end_of_a_listing_is_empty(self, store):
        store.index("g1", "high-card", "open", 1.0)
        assert store.list_ids("open", None, 0, 30) == (["g1"], 1)
        # An offset beyond what Redis can take (a huge page number) is just past the end.
        assert store.list_ids("open", None, 2**70, 30) == ([], 1)

    def test_listed_before_gives_the_oldest_of_a_status_first_and_at_most_limit(self, store):
        store.index("c", "trash", "open", 3.0)
        store.index("a", "high-card", "open", 1.0)
        store.index("b", "high-card", "open", 2.0)
        store.index("d", "high-card", "active", 0.5)
        assert store.listed_before("open", 2.5, 10) == ["a", "b"]
        assert store.listed_before("open", 10.0, 2) == ["a", "b"]
        assert store.listed_before("open", 1.0, 10) == []  # strictly before
        assert store.listed_before("active", 10.0, 10) == ["d"]

    def test_unlist_removes_a_games_entries_from_every_listing(self, store):
        store.index("g1", "high-card", "open", 1.0, free_seat=True)
        store.index("g2", "high-card", "open", 2.0)
        store.unlist("g1", None)
        assert store.list_ids(None, None, 0, 10) == (["g2"], 1)
        assert store.list_ids("open", None, 0, 10) == (["g2"], 1)
        assert store.list_ids(None, None, 0, 10, free_seat=True) == ([], 0)
        # Without its type, the type's listings keep it; with it, every listing drops it.
        assert store.list_ids(None, "high-card", 0, 10) == (["g2", "g1"], 2)
        store.unlist("g1", "high-card")
        store.unlist("g2", "high-card")
        for status, game_type in ((None, None), ("open", None), (None, "high-card"),
                                  ("open", "high-card")):
            assert store.list_ids(status, game_type, 0, 10) == ([], 0)


class TableChatContract:
    """The table's chat."""

    @pytest.fixture
    def store(self) -> TableChat:
        raise NotImplementedError("a subclass gives the store under test")

    def test_chat_messages_are_numbered_and_read_back_with_their_texts(self, store):
        assert store.read_chat("g1") == [] and store.chat_version("g1") == 0
        texts = ["hi", "gl hf", "ünïcode ✓\nand a second line"]
        assert [store.post_message("g1", _message(i % 2, t), 10)
                for i, t in enumerate(texts)] == [1, 2, 3]
        read = store.read_chat("g1")
        assert [(e.n, e.seat, e.text) for e in read] == [(1, 0, "hi"), (2, 1, "gl hf"),
                                                        (3, 0, texts[2])]
        assert read[0] == ChatEntry(type=MESSAGE, at=1.0, n=1, seat=0, name="seat 0",
                                    text="hi")
        assert [e.n for e in store.read_chat("g1", after=1, count=1)] == [2]
        assert store.read_chat("g1", after=3) == [] and store.chat_version("g1") == 3
        assert store.read_chat("g2") == []  # one chat per game

    def test_a_full_chat_refuses_messages_and_still_hides(self, store):
        for i in range(3):
            store.post_message("g1", _message(0, f"m{i}"), 3)
        assert store.post_message("g1", _message(0, "one more"), 3) is None
        assert store.chat_version("g1") == 3
        assert store.hide_message("g1", 2, _hiding(2)) == 4

    def test_hiding_erases_the_text_once_and_is_recorded(self, store):
        store.post_message("g1", _message(0, "fine"), 10)
        store.post_message("g1", _message(1, "rude"), 10)
        assert store.hide_message("g1", 2, _hiding(2)) == 3
        read = store.read_chat("g1")
        assert [(e.n, e.type, e.text) for e in read] == [
            (1, MESSAGE, "fine"), (2, MESSAGE, None), (3, HIDDEN, None)]
        assert read[1].seat == 1 and read[2].message == 2
        assert store.hide_message("g1", 2, _hiding(2)) == 0  # hidden already: nothing new
        assert store.hide_message("g1", 3, _hiding(3)) is None  # not a message
        assert store.hide_message("g1", 9, _hiding(9)) is None  # no such entry
        assert store.chat_version("g1") == 3
        assert store.read_chat("g1", after=1, count=1)[0].text is None


class SecretsContract:
    """A game's secrets."""

    @pytest.fixture
    def store(self) -> Secrets:
        raise NotImplementedError("a subclass gives the store under test")

    def test_the_first_seed_kept_stays(self, store):
        # Two creators racing for one game id (a rematch) agree on the first seed.
        assert store.save_secrets("g1", "first") == "first"
        assert store.save_secrets("g1", "second") == "first"
        assert store.seed("g1") == "first"

    def test_the_creator_token_hash_is_kept(self, store):
        store.save_creator("g1", "abc")
        assert store.creator("g1") == "abc"
        assert store.creator("g2") is None


class AnalysesContract:
    """A finished game's analysis."""

    @pytest.fixture
    def store(self) -> Analyses:
        raise NotImplementedError("a subclass gives the store under test")

    def test_one_analysis_is_kept_per_game(self, store):
        assert store.analysis("g1") is None
        assert store.keep_analysis("g1", b'{"moments": []}')
        assert not store.keep_analysis("g1", b'{"moments": [1]}')  # a second run's
        assert store.analysis("g1") == b'{"moments": []}'
        assert store.analysis("g2") is None


class AppendNoticesContract:
    """The notices of appends and of chat writes, heard through `AppendFeed.appends` (the
    writes are the other ports': it runs on a whole store)."""

    @pytest.fixture
    def store(self) -> EventStore:
        raise NotImplementedError("a subclass gives the store under test")

    def test_a_subscription_starts_with_look_again_then_tells_each_append(self, store):
        # Games of this test alone: on a cluster, a notice of an earlier test's append on
        # another node may still be crossing the cluster bus when this one subscribes.
        g1, g2 = "notice-g1", "notice-g2"

        def ours(found: list | None) -> list:
            return [n for n in found or [] if n[0] in (g1, g2)]

        notices = store.appends()
        try:
            assert notices.next(2.0) is None  # subscribed: look at everything once
            assert ours(notices.next(0.05)) == []
            store.append(g1, 0, _events(2), b"s2")
            store.append(g2, 0, _events(1), b"s1")
            with pytest.raises(VersionConflict):
                store.append(g1, 0, _events(1), b"x")  # nothing landed: no notice
            store.append(g1, 2, _events(1, first=3), None,
                         idempotency=Idempotency("k", "r", b"a"))
            store.append(g1, 2, _events(1, first=3), None,
                         idempotency=Idempotency("k", "r", b"b"))  # a retry: nothing
            got: list = []
            deadline = time.monotonic() + 5
            while len(got) < 3 and time.monotonic() < deadline:
                got += ours(notices.next(1.0))
            # Each game's notices in order; two games' may come in either order (on a
            # cluster they come from two nodes, the other one's over the cluster bus).
            assert sorted(got) == [(g1, 2), (g1, 3), (g2, 1)]
            assert [v for g, v in got if g == g1] == [2, 3]
            assert ours(notices.next(0.1)) == []
        finally:
            notices.close()

    def test_a_chat_write_is_told_as_a_look_at_the_game(self, store):
        notices = store.appends()
        try:
            assert notices.next(2.0) is None
            store.post_message("g1", _message(0, "hi"), 10)
            store.post_message("g1", _message(0, "no room"), 1)  # refused: no notice
            store.hide_message("g1", 1, _hiding(1))
            store.hide_message("g1", 1, _hiding(1))  # hidden already: no notice
            got: list = []
            deadline = time.monotonic() + 5
            while len(got) < 2 and time.monotonic() < deadline:
                got += notices.next(1.0) or []
            assert got == [("g1", None), ("g1", None)]
            assert notices.next(0.1) == []
        finally:
            notices.close()


class EventStoreContract:
    """The ports together in one backend: what crosses them."""

    @pytest.fixture
    def store(self) -> EventStore:
        raise NotImplementedError("a subclass gives the store under test")

    def test_an_unknown_game_has_no_log_and_no_snapshot(self, store):
        assert store.read("nope") == []
        assert store.version("nope") == 0
        assert store.read_table("nope", "h", with_seed=True) == (None, None, None)
        assert store.snapshots(["nope"]) == [None]
        assert store.seed("nope") is None and store.creator("nope") is None

    def test_the_table_the_seat_and_the_seed_are_read_together(self, store):
        store.save_secrets("g1", "seed")
        store.append("g1", 0, _events(1), b"s1", token=("h", 0))
        assert _table(store, "g1") == (b"s1", None, None)
        assert _table(store, "g1", "h", with_seed=True) == (b"s1", 0, "seed")
        assert _table(store, "g1", with_seed=True) == (b"s1", None, "seed")
        assert store.seed("g1") == "seed"

    def test_what_came_after_a_known_version_is_read_with_the_seat_and_the_seed(self, store):
        store.save_secrets("g1", "seed")
        first, later = _events(2), _events(3, first=3)
        store.append("g1", 0, first, b"s1", token=("h", 1))
        store.append("g1", 2, later, None)
        assert store.read_after("g1", 2, "h", with_seed=True) == (later, 1, "seed")
        assert store.read_after("g1", 4) == (later[-1:], None, None)
        assert store.read_after("g1", 5, "unknown") == ([], None, None)  # nothing new

    def test_a_game_is_deleted_whole_only_at_the_version_it_was_read(self, store):
        at = CHECKPOINT_EVERY
        store.save_secrets("g1", "seed")
        store.save_creator("g1", "creator")
        store.append("g1", 0, _events(2), b"s2", checkpoint=(at, b"c"), token=("h", 0))
        store.index("g1", "high-card", "open", 1.0, free_seat=True)
        store.append("g2", 0, _events(1), b"other", token=("h", 1))
        store.index("g2", "high-card", "open", 2.0)
        assert not store.delete("g1", 1)  # the game moved on: kept
        assert _table(store, "g1", "h", with_seed=True) == (b"s2", 0, "seed")
        assert not store.delete("nope", 0)
        assert store.delete("g1", 2)
        assert store.list_ids("open", None, 0, 10) == (["g2", "g1"], 2)  # listings: unlist
        store.unlist("g1", "high-card")
        assert store.read_table("g1", "h", with_seed=True) == (None, None, None)
        assert (store.read("g1"), store.version("g1")) == ([], 0)
        assert store.seed("g1") is None and store.creator("g1") is None
        assert store.checkpoint_at_or_before("g1", at) is None
        for status, game_type in ((None, None), ("open", None), (None, "high-card"),
                                  ("open", "high-card")):
            assert store.list_ids(status, game_type, 0, 10) == (["g2"], 1)
        assert store.list_ids(None, None, 0, 10, free_seat=True) == ([], 0)  # the lobby
        assert _table(store, "g2", "h") == (b"other", 1, None)  # the other game is whole

    def test_unlist_removes_the_listing_entries_only(self, store):
        store.append("g1", 0, _events(1), b"s1")
        store.index("g1", "high-card", "open", 1.0)
        store.unlist("g1", None)
        assert store.list_ids(None, None, 0, 10) == ([], 0)
        assert store.list_ids("open", None, 0, 10) == ([], 0)
        assert _snapshot(store, "g1") == b"s1"
        store.index("g1", "high-card", "open", 1.0)
        store.unlist("g1", "high-card")
        assert store.list_ids(None, "high-card", 0, 10) == ([], 0)
        assert store.list_ids("open", "high-card", 0, 10) == ([], 0)

    def test_the_chat_goes_with_its_game(self, store):
        store.append("g1", 0, _events(1), b"s1")
        store.index("g1", "high-card", "open", 1.0)
        store.post_message("g1", _message(0, "anyone?"), 10)
        assert store.delete("g1", 1)
        assert store.read_chat("g1") == [] and store.chat_version("g1") == 0

    def test_the_analysis_goes_with_its_game(self, store):
        store.append("g1", 0, _events(1), b"s1")
        assert store.keep_analysis("g1", b'{"moments": []}')
        assert store.delete("g1", 1)
        assert store.analysis("g1") is None
