"""The archive: a finished game's record expands into its log byte for byte, for every game
and variant and everything a table lives through; every answer about an archived game is
the one given before; what cannot be archived exactly is refused and kept whole."""

from __future__ import annotations

import hashlib
import math
import random

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.json import encode as _encode

from domain.archive.archiving import archive_game
from domain.archive.codec import (
    FIVE_BITS,
    FOUR_BITS,
    BitReader,
    BitWriter,
    DigitReader,
    Digits,
    FormatError,
    Reader,
    Writer,
    int_bytes,
    is_stamped_wait,
    length_symbol,
    nth_wait,
    read_delta,
    read_wait,
    write_delta,
    write_wait,
)
from domain.archive.explain import NotArchivable, archive, as_read
from domain.archive.lengths import ESCAPE, FittedCode
from domain.archive.reading import (
    KEPT_COPY,
    Archived,
    ArchivedGames,
    Kept,
    ReadCopies,
    copy_of,
    encode_final,
    layout_of,
    read_copy,
    rebuilt,
)
from domain.archive.record import (
    TIMES_WAITS,
    TIMES_WAITS_FITTED,
    TIMES_WAITS_WIDE,
    EventStep,
    Record,
    Verbatim,
    decode,
    encode,
)
from domain.archive.replay import expand
from domain.archive.summary import base_of, listed, summary_bytes, summary_fields
from domain.commitments import commitment_key
from domain.events import Event, event, stamp, verify_chain
from domain.game import Outcome
from domain.rng import drew, rng_for
from domain.service import GameService
from domain.service.folding import Stamped, stamp_time
from domain.store import MemoryEventStore
from domain.store.memory_archive import MemoryArchiveStore
from domain.store.port import StoredGame
from domain.table import encode_table, to_act
from tests.archive_kit import VARIANTS, play, viewers
from tests.support.games import games_under_test


class Clock:
    def __init__(self) -> None:
        self.now = 1_764_000_000.0

    def __call__(self) -> float:
        self.now += 0.0371  # moves a few tens of milliseconds apart
        return self.now


def service_pair() -> tuple[GameService, MemoryEventStore, MemoryArchiveStore]:
    store = MemoryEventStore()
    archives = MemoryArchiveStore(store)
    reading = ArchivedGames(store, archives, games_under_test(), cache_events=10_000)
    return GameService(reading, games_under_test(), clock=Clock()), store, archives


def answers(service: GameService, game_id: str, tokens: dict[int, str]) -> list[bytes]:
    """Every answer about the game that the API builds from the service, for every
    viewer: the view, the log, the view after a few events, the log after an event."""
    table, _ = service.load(game_id)
    out: list[bytes] = []
    for viewer in viewers(table):
        token = tokens.get(viewer) if viewer is not None else None
        loaded, seat = service.load(game_id, token)
        assert seat == (viewer if token is not None else None)
        view = service.view(loaded, seat)
        view["server_time"] = 0.0
        out.append(msgspec.json.encode(view))
        events, _ = service.events_for(game_id, seat)
        out.append(msgspec.json.encode(events))
        out.append(msgspec.json.encode(service.events_for(game_id, seat, after=5,
                                                          limit=3)[0]))
        for seq in sorted({1, 2, table.version // 2, 129, table.version}):
            if 1 <= seq <= table.version:
                out.append(msgspec.json.encode(service.state_at(game_id, seq, seat)))
    out.append(str(service.store.version(game_id)).encode())
    out.append(str(service.store.seed(game_id)).encode())
    return out


@pytest.mark.parametrize(("game_type", "players", "options"), VARIANTS)
@pytest.mark.parametrize("seed", [1, 2])
def test_every_game_archives_and_answers_as_before(game_type, players, options, seed):
    service, store, archives = service_pair()
    table, tokens = play(service, game_type, players, options, seed, people=2)
    assert table.status in ("finished", "aborted")
    before = answers(service, table.id, tokens)
    assert archive_game(archives, games_under_test(), table.id) == "archived"
    assert store.read(table.id) == [] and archives.archived(table.id) is not None
    assert archives.reads_kept.get(table.id) is not None  # (the copy for its reads)
    reading = service.store
    assert isinstance(reading, ArchivedGames)
    reading.cache.forget(table.id)  # as a process that never saw it
    assert answers(service, table.id, tokens) == before
    # A process that restarts: its views, seed and version from the copy.
    restarted = ArchivedGames(store, archives, games_under_test())
    assert answers(GameService(restarted, games_under_test(), clock=Clock()), table.id,
                   tokens) == before
    assert archive_game(archives, games_under_test(), table.id) == "already"


@pytest.mark.parametrize(("game_type", "players", "options"), VARIANTS)
@pytest.mark.parametrize("seed", [3, 4])
def test_the_final_table_rebuilds_from_the_slim_copy_and_the_summary_byte_for_byte(
        game_type, players, options, seed):
    """The copy kept for reads holds only what the record does not (the game state, the
    take-back memory, the last hash): with the record's summary, head and tokens it gives
    the final table as read, byte for byte, and the seed, creator, tokens and version."""
    games = games_under_test()
    service, _store, archives = service_pair()
    table, _ = play(service, game_type, players, options, seed, people=2)
    data, expansion = archive(archives.stored_game(table.id), games)
    record = decode(data)
    archived = Archived.of(record, data, expansion, games)
    copy = copy_of(archived, games)
    assert copy.startswith(KEPT_COPY)  # (not the whole table: that is the fallback)
    final = rebuilt(msgspec.msgpack.decode(copy[1:], type=Kept), data, games)
    assert final is not None
    assert final.snapshot == as_read(encode_table(expansion.table), games)
    assert (final.version, final.seed, final.creator, final.tokens) == \
        (len(expansion.events), record.seed, record.creator, record.tokens)
    assert read_copy(copy, data, games) == archived.final()
    whole = encode_final(archived.final())
    assert len(copy) < len(whole) - len(record.summary or b"")
    # A copy cut short, or of another record, is not used (the record is expanded).
    assert read_copy(copy[:-3], data, games) is None
    assert read_copy(copy, data + b"\0", games) is None
    kept = msgspec.msgpack.decode(copy[1:], type=Kept)
    # The game state by its fields' values alone: smaller than by their names.
    assert len(kept.game) < len(msgspec.msgpack.encode(expansion.table.game))
    # A copy of the earlier layout (its state by field names, first byte 1) is not read.
    earlier = msgspec.structs.replace(
        kept, game=msgspec.Raw(msgspec.msgpack.encode(expansion.table.game)))
    assert read_copy(b"\x01" + msgspec.msgpack.encode(earlier), data, games) is None
    for state in (b"\xc1", b"\x01"):  # a game state that does not read: ignored too
        odd = msgspec.structs.replace(kept, game=msgspec.Raw(state))
        assert read_copy(KEPT_COPY + msgspec.msgpack.encode(odd), data, games) is None
    # Written by code whose game state had another shape: not read by position.
    other = msgspec.structs.replace(kept, layout=bytes(4))
    assert read_copy(KEPT_COPY + msgspec.msgpack.encode(other), data, games) is None
    # Without the shape (the layout before it, first byte 2): not read either.
    before = [kept.digest, kept.version, kept.last_hash, kept.game, kept.undo]
    assert read_copy(b"\x02" + msgspec.msgpack.encode(before), data, games) is None


def test_a_states_layout_changes_with_its_fields_and_their_nested_structs():
    """Same names, other fields: a field added at the end, or in a nested struct."""
    inner = msgspec.defstruct("Inner", [("cards", list[int])])
    inner_seen = msgspec.defstruct("Inner", [("cards", list[int]), ("seen", int, 0)])
    state = msgspec.defstruct("State", [("players", int), ("inner", inner)])
    longer = msgspec.defstruct("State", [("players", int), ("inner", inner),
                                         ("extra", int, 0)])
    deeper = msgspec.defstruct("State", [("players", int), ("inner", inner_seen)])
    same = msgspec.defstruct("State", [("players", int), ("inner", inner)])
    layouts = {layout_of(t) for t in (state, longer, deeper)}
    assert len(layouts) == 3 and all(len(x) == 4 for x in layouts)
    assert layout_of(same) == layout_of(state)


def test_a_summary_keeps_a_games_own_outcome_in_short_and_any_other_whole():
    """An outcome a game gave (no seat conceded, not early) is kept without its keys, and
    without its places when they are the scores' competition ranking; places that break
    ties otherwise (a game's own tie-break), or an outcome the table ruled, come back
    too, byte for byte."""
    service, store, _archives = service_pair()
    table, _ = play(service, "ochs-und-esel", 4, {"rounds": 1}, 3, people=0)
    creation = store.read(table.id)[0]
    base = base_of(creation, service.store.seed(table.id) or "", table.version)
    ranked = Outcome(places=[3, 1, 3, 2], scores=[40.0, 10.0, 40.0, 20.0],
                     score_name="penalty", lower_is_better=True)
    tie_broken = msgspec.structs.replace(ranked, places=[4, 1, 3, 2])
    ruled = msgspec.structs.replace(ranked, conceded=[2])
    higher = Outcome(places=[2, 1], scores=[5.0, 7.0], score_name="points",
                     lower_is_better=False)
    sizes = {}
    for name, outcome in [("ranked", ranked), ("tie_broken", tie_broken), ("ruled", ruled),
                          ("higher", higher)]:
        final = msgspec.structs.replace(table, outcome=outcome)
        data = summary_bytes(final, base)
        assert _encode(summary_fields(data, base)) == _encode(
            msgspec.to_builtins(listed(final), str_keys=True)), name
        sizes[name] = len(data)
    # The places (a list of four: 6 bytes) are left out when ranked; the ruled one keeps
    # its keys (a word each) and its places.
    assert sizes["ranked"] + 6 == sizes["tie_broken"] < sizes["ruled"] - 4


def test_a_game_with_timeouts_away_seats_resigns_and_leaves_round_trips():
    """Games played until the people have timed out, gone away, come back, voted, taken
    moves back and given up (the deals are random: a few games are needed)."""
    wanted = {"turn_timed_out", "seat_returned", "auto:timeout", "auto:away", "abort_voted",
              "abort_vote_withdrawn", "move_taken_back"}
    seen: set[str] = set()
    for seed in range(40):
        if wanted <= seen and seen & {"seat_resigned", "seat_left"}:
            break
        service, store, archives = service_pair()
        table, _ = play(service, "ochs-und-esel", 4, {"rounds": 1}, seed, people=3)
        log = store.read(table.id)
        seen |= {e.type for e in log}
        seen |= {"auto:" + str(e.data["auto"]) for e in log if "auto" in e.data}
        _data, expansion = archive(archives.stored_game(table.id), games_under_test())
        assert [msgspec.json.encode(e) for e in expansion.events] == \
            [msgspec.json.encode(e) for e in log]
    assert wanted <= seen
    assert seen & {"seat_resigned", "seat_left"}


def test_aborted_cancelled_and_rematched_games_round_trip():
    service, store, archives = service_pair()
    aborted, _ = play(service, "crazy-donkey", 3, {"deals": 1}, 3, people=2, abort=True)
    assert aborted.status == "aborted"
    cancel_me = service.create("trash", {}, [{"kind": "human"}, {"kind": "bot"}])
    token = service.issue_creator_token(cancel_me.id)
    cancelled = service.cancel(cancel_me.id, token)
    finished, _ = play(service, "canyon-donkeys", 3, {}, 4, people=1)
    rematch = service.rematch(finished.id, 0)
    for game_id in (aborted.id, cancelled.id, finished.id, rematch.table.id):
        stored = archives.stored_game(game_id)
        _data, expansion = archive(stored, games_under_test())
        assert len(expansion.events) == len(stored.events)
    assert store.read(finished.id)[-1].type == "rematch_created"
    assert archives.stored_game(cancelled.id).creator is not None


class CountedArchives(MemoryArchiveStore):
    """Counts the reads of archive records."""

    def __init__(self, store: MemoryEventStore) -> None:
        super().__init__(store)
        self.reads = 0

    def archived(self, game_id: str) -> bytes | None:
        self.reads += 1
        return super().archived(game_id)

    def archives_of(self, game_ids):
        self.reads += len(game_ids)
        return super().archives_of(game_ids)

    def archived_and_read(self, game_id: str) -> tuple[bytes | None, bytes | None]:
        self.reads += 1
        return super().archived_and_read(game_id)


def test_a_restarted_process_reads_an_archived_games_table_from_the_copy_of_its_expansion():
    """The archiving, and a process that expands a record, keep what reads of the game's
    table need beside it: another process (or this one restarted) answers the view, the
    seat of a token, the seed, the creator and the version from it, without expanding, in
    one read; a copy made from another record is never used."""
    service, store, archives = service_pair()
    table, tokens = play(service, "ochs-und-esel", 4, {"rounds": 1}, 3, people=2,
                         life=False)
    other, other_tokens = play(service, "trash", 2, {"max_rounds": 1}, 4, people=1,
                               life=False)
    seat_tokens = {table.id: tokens, other.id: other_tokens}

    def views(service: GameService, game_id: str) -> list[bytes]:
        out = []
        for viewer in viewers(service.load(game_id)[0]):
            token = seat_tokens[game_id].get(viewer) if viewer is not None else None
            loaded, seat = service.load(game_id, token)
            out.append(msgspec.json.encode(service.view(loaded, seat) | {"server_time": 0}))
        store = service.store
        out.append(msgspec.json.encode([store.version(game_id), store.seed(game_id),
                                        store.creator(game_id)]))
        return out

    def restarted() -> tuple[ArchivedGames, CountedArchives]:
        counted = CountedArchives(store)
        counted.records, counted.reads_kept = archives.records, archives.reads_kept
        return ArchivedGames(store, counted, games_under_test()), counted

    before = {i: views(service, i) for i in (table.id, other.id)}
    # Archived with its copy (the default: a day), or without one.
    assert archive_game(archives, games_under_test(), table.id) == "archived"
    assert archive_game(archives, games_under_test(), other.id, ReadCopies(ttl_s=0)) == "archived"
    assert set(archives.reads_kept) == {table.id}

    # Read first right after its archiving: from the copy, nothing expanded.
    first, counted = restarted()
    assert views(GameService(first, games_under_test(), clock=Clock()), table.id) == \
        before[table.id]
    assert len(first.cache) == 0
    assert counted.reads == len(viewers(table)) + 1 + 3  # one read each

    # With no copy, the first reader expands the record and keeps the copy; a process
    # that restarts then answers from it.
    first, _ = restarted()
    assert views(GameService(first, games_under_test(), clock=Clock()), other.id) == \
        before[other.id]
    assert len(first.cache) == 1 and other.id in archives.reads_kept
    again, counted = restarted()
    assert views(GameService(again, games_under_test(), clock=Clock()), other.id) == \
        before[other.id]
    assert len(again.cache) == 0
    assert counted.reads == len(viewers(other)) + 1 + 3

    # A copy in the earlier form (the whole final table, zlib'd) is read as it was.
    assert archives.reads_kept[table.id].startswith(KEPT_COPY)
    archives.reads_kept[table.id] = encode_final(first.final(table.id))
    again, counted = restarted()
    assert views(GameService(again, games_under_test(), clock=Clock()), table.id) == \
        before[table.id]
    assert len(again.cache) == 0

    # The other game's copy under this game's name: not its record's, so not used.
    archives.reads_kept[table.id] = archives.reads_kept[other.id]
    again, _ = restarted()
    assert views(GameService(again, games_under_test(), clock=Clock()), table.id) == \
        before[table.id]
    assert len(again.cache) == 1

    # None kept when the copies are turned off.
    archives.reads_kept.clear()
    off = ArchivedGames(store, archives, games_under_test(), copies=ReadCopies(ttl_s=0))
    assert off.final(table.id) is not None and archives.reads_kept == {}


def test_reading_a_live_game_never_looks_for_its_archive():
    store = MemoryEventStore()
    archives = CountedArchives(store)
    reading = ArchivedGames(store, archives, games_under_test())
    service = GameService(reading, games_under_test(), clock=Clock())
    table = service.create("ochs-und-esel", {"rounds": 1}, [{"kind": "human"}] * 3,
                           deadline_s=None)
    version = table.version
    # Nothing new after the last event (the event hub's read after a notice), the view,
    # the log, the version: all from the live keys alone.
    assert reading.read(table.id, after=version) == []
    assert reading.wait(table.id, after=version, timeout_s=0.01) == []
    assert len(reading.read(table.id)) == version
    service.load(table.id)
    assert reading.version(table.id) == version
    assert archives.reads == 0
    # A game that is not here at all is looked for among the archives.
    assert reading.read("nope", after=2) == []
    assert archives.reads == 1


def test_listings_and_inboxes_read_archived_games_from_their_summaries():
    """A page of archived games (the listing, a player's finished games) is what it was
    before archiving, and expands no game: each is read from its record's summary."""
    service, store, archives = service_pair()
    ann, ann_key = service.register_player("ann")
    bob, _bob_key = service.register_player("bob")
    ids = []
    for i, (game_type, players, options) in enumerate(VARIANTS[:4]):
        table, _tokens = play(service, game_type, players, options, seed=i, people=0,
                             life=False)
        ids.append(table.id)
    seats = [{"kind": "human", "me": True}, {"kind": "human"}, {"kind": "bot"}]
    for seed in range(2):  # with players: names, ids, places, and one who resigned
        table = service.create("ochs-und-esel", {"rounds": 1}, seats, deadline_s=None,
                               by=ann)
        _seat, _token, table = service.join(table.id, None, bob)
        if seed:
            table = service.resign(table.id, table.seat_of(bob.id))
        table = finish_with_bots(service, table)
        ids.append(table.id)

    def pages() -> list[bytes]:
        listed, total = service.list_games("finished", None, 0, 50)
        assert total == len(ids) and all(t.game is None for t in listed)
        inbox, _ = service.inbox(ann_key, "finished", None, 0, 50)
        assert len(inbox) == 2
        return [msgspec.json.encode([service.view(t, None) | {"server_time": 0.0}
                                     for t in listed]), msgspec.json.encode(inbox)]

    before = pages()
    for game_id in ids:
        assert archive_game(archives, games_under_test(), game_id) == "archived"
    fresh = CountedArchives(store)
    fresh.records = archives.records
    reading = ArchivedGames(store, fresh, games_under_test())
    service.deps.store = reading
    assert pages() == before
    assert len(reading.cache) == 0  # no game expanded
    assert fresh.reads == len(ids) + 2  # each page read its records, nothing more
    assert pages() == before  # (again, from this process's summaries)
    for game_id in ids:
        assert decode(archives.records[game_id]).summary is not None


def finish_with_bots(service: GameService, table):
    """Play every seat as a bot would, to the end."""
    game = games_under_test().game(table.type)
    rng = random.Random(table.version)
    while table.status == "active":
        seat = sorted(to_act(table, game))[0]
        legal = game.legal_actions(table.game, seat)
        table = service.act(table.id, seat, msgspec.to_builtins(rng.choice(legal)),
                            by="bot").table
    return table


def test_a_rematch_asked_of_an_archived_game_restores_it_and_is_archived_again():
    service, store, archives = service_pair()
    finished, _ = play(service, "ochs-und-esel", 3, {"rounds": 1}, 5, people=0)
    log = store.read(finished.id)
    assert archive_game(archives, games_under_test(), finished.id) == "archived"
    rematch = service.rematch(finished.id, 1)
    assert rematch.created
    relinked = store.read(finished.id)
    assert relinked[:-1] == log and relinked[-1].type == "rematch_created"
    assert archives.archived(finished.id) is None
    assert finished.id in archives.due
    assert archive_game(archives, games_under_test(), finished.id) == "archived"
    assert service.store.read(finished.id) == relinked


def test_bots_only_record_is_small_and_mostly_digits():
    service, _store, archives = service_pair()
    table, _ = play(service, "ochs-und-esel", 4, {"rounds": 1}, 8, people=0)  # (no clock)
    data, _ = archive(archives.stored_game(table.id), games_under_test())
    record = decode(data)
    assert list(record.special) == [0]  # the creation; every move is a pair of digits
    assert isinstance(record.special[0], EventStep)
    assert len(data) < table.version + 200
    # The creation, in fields: 4 bot seats and the game's defaults in a few dozen bytes.
    alone = Record(seed=record.seed, version=0, steps=1, special=record.special, choices=0,
                   times=[])
    empty = Record(seed=record.seed, version=0, steps=1, special={}, choices=0, times=[])
    assert len(encode(alone)) - len(encode(empty)) < 50  # (95 as a map of words)
    assert decode(encode(alone)).special == record.special


def test_events_no_step_explains_are_kept_as_events_and_expand_exactly():
    """A kind of event this format does not know (a future take-back, a note) is kept as
    the event itself; one stamped otherwise (an old log) is kept as its bytes."""
    service, store, archives = service_pair()
    table, _ = play(service, "ochs-und-esel", 3, {"rounds": 1}, 8, people=0, max_moves=10)
    assert table.status == "active"
    seed = store.seed(table.id)
    extra = stamp([event("clock_note", seat=1, note="a new kind of input")],
                  table.version + 1, 1_764_000_123.456, table.last_hash,
                  commitment_key(seed))
    legacy = Event(type="note", data={"x": 1}, private={0: {"c": 2}}, seq=table.version + 2,
                   at=1.5, hash="0" * 64)
    stored = archives.stored_game(table.id)
    log = [*stored.events, *extra, legacy]
    game = StoredGame(events=log, snapshot=None, checkpoints=stored.checkpoints,
                      tokens={}, seed=seed, creator=None)
    data, expansion = archive(game, games_under_test())
    assert [msgspec.json.encode(e) for e in expansion.events] == \
        [msgspec.json.encode(e) for e in log]
    kinds = [type(s).__name__ for s in decode(data).special.values()]
    assert kinds[-2:] == ["EventStep", "Verbatim"]
    assert isinstance(list(decode(data).special.values())[-1], Verbatim)


def test_a_record_that_does_not_expand_exactly_is_refused_and_the_game_kept():
    service, store, archives = service_pair()
    table, _ = play(service, "crazy-donkey", 3, {"deals": 1}, 9, people=0)
    stored = archives.stored_game(table.id)
    altered = msgspec.structs.replace(stored, snapshot=stored.snapshot.replace(
        b'"rematch":null', b'"rematch":"x"'))
    with pytest.raises(NotArchivable):
        archive(altered, games_under_test())
    store._games[table.id].snapshot = altered.snapshot
    assert archive_game(archives, games_under_test(), table.id) == "refused"
    assert archives.archived(table.id) is None and store.read(table.id) == stored.events
    assert "final table" in archives.refused_archives()[table.id]


def test_codec_values_round_trip_with_their_types():
    value = {"a": [1, 1.0, -3, 300, True, False, None, "game_created", "élan"],
             "b": {"seat": 2.5, "x": []}, "c": 2**70}
    w = Writer()
    w.value(value)
    got = Reader(w.bytes()).value()
    assert msgspec.json.encode(got) == msgspec.json.encode(value)
    digits = Digits()
    for digit, radix in [(0, 1), (3, 7), (0, 2), (12, 13), (1, 2)]:
        digits.add(digit, radix)
    reader = DigitReader(digits.number())
    assert [reader.take(r) for r in (1, 7, 2, 13, 2)] == [0, 3, 0, 12, 1]


def test_the_rng_seeded_on_use_draws_what_random_random_draws():
    for version in range(20):
        lazy, eager = rng_for("s" * 64, version), random.Random()
        eager.seed(int.from_bytes(hashlib.sha256(f"{'s' * 64}:{version}".encode()).digest(),
                                  "big"))
        deck, same = list(range(52)), list(range(52))
        lazy.shuffle(deck)
        eager.shuffle(same)
        assert deck == same
        assert [lazy.random(), lazy.randrange(7), lazy.choice(deck), lazy.gauss(0, 1)] == \
            [eager.random(), eager.randrange(7), eager.choice(same), eager.gauss(0, 1)]
        assert lazy.getstate() == eager.getstate()
    # A shuffle of one card draws nothing; a method taken before the first draw (after
    # which the RNG is a plain Random) still draws what Random draws.
    lazy, eager = rng_for("s" * 64, 7), random.Random()
    eager.seed(int.from_bytes(hashlib.sha256(f"{'s' * 64}:7".encode()).digest(), "big"))
    bits = lazy.getrandbits
    lazy.shuffle([1])
    assert not drew(lazy)
    deck, same = list(range(104)), list(range(104))
    lazy.shuffle(deck)
    eager.shuffle(same)
    assert drew(lazy) and deck == same
    assert [bits(30), lazy.random(), lazy.sample(deck, 3)] == \
        [eager.getrandbits(30), eager.random(), eager.sample(same, 3)]


def test_packed_time_deltas_round_trip_and_cost_less_than_varints():
    rng = random.Random(3)
    deltas = [0, 1, 2, 3, 16383, 16384, -1, -1000, 2**40, 2**70, 2**90]
    deltas += [rng.randint(-5, 10**7) for _ in range(500)]
    bits = BitWriter()
    for delta in deltas:
        write_delta(bits, delta)
    reader = BitReader(bits.bytes())
    assert [read_delta(reader) for _ in deltas] == deltas
    quick = BitWriter()  # moves a few milliseconds apart: 4 or 5 bits, not a byte
    for delta in [0, 1, 2, 3] * 100:
        write_delta(quick, delta)
    assert len(quick.bytes()) <= 400 * 5 / 8


def test_a_code_fitted_to_a_records_lengths_round_trips_and_writes_common_ones_short():
    rng = random.Random(7)
    quick = [rng.choice([0, 1, 1, 2, 3]) for _ in range(400)]  # bots a few ms apart
    mixed = quick + [0, -1, -5000, 2**40, 2**90, 86_400_000] + \
        [rng.randint(0, 10**7) for _ in range(200)]
    for deltas in (quick, mixed, [7] * 50, [-3] * 5, [2**40] * 3):
        fitted = FittedCode.fitted(length_symbol(d, ESCAPE) for d in deltas)
        assert fitted is not None
        bits = BitWriter()
        fitted.describe(bits)
        for delta in deltas:
            write_delta(bits, delta, fitted)
        reader = BitReader(bits.bytes())
        code = FittedCode.read_description(reader)
        assert code == fitted
        assert [read_delta(reader, code) for _ in deltas] == deltas
        assert reader.size - reader.at < 8  # (only the last byte's padding is left)
    # Four lengths, two common: under two bits a length, description included (4 bits
    # each in the fixed code).
    bits = BitWriter()
    fitted = FittedCode.fitted(length_symbol(d, ESCAPE) for d in quick)
    assert fitted is not None
    fitted.describe(bits)
    for delta in quick:
        write_delta(bits, delta, fitted)
    fixed = BitWriter()
    for delta in quick:
        write_delta(fixed, delta)
    assert len(bits.bytes()) < 0.8 * len(fixed.bytes())
    assert FittedCode.fitted([]) is None
    # A single length costs no bits; the description alone.
    single = FittedCode.fitted([5] * 100)
    assert single is not None and single.lengths == (0,)
    with pytest.raises(KeyError):
        single.write(BitWriter(), 6)


_QUICK = st.integers(0, 3)  # bots at once
_WAITS = st.integers(0, 10**5).map(nth_wait)  # stamped waits, a millisecond to days apart
_ANY = st.integers(-10**6, 10**8)  # anything, clocks of two hosts that differ included
_LONG = st.integers(2**40, 2**60)  # (escaped lengths; a reading is below 2^63 ms)
_ABOUT_A_SECOND = st.integers(900, 1200).map(nth_wait)
# A game's waits are alike (each encoding gets its turn), or anything mixed.
_DELTAS = st.one_of(*(st.lists(s, max_size=300)
                      for s in (_QUICK, _WAITS, _ANY, _ABOUT_A_SECOND)),
                    st.lists(st.one_of(_QUICK, _WAITS), max_size=300),
                    st.lists(st.one_of(_QUICK, _WAITS, _ANY, _LONG), max_size=300))


@settings(max_examples=300, deadline=None)
@given(first=st.integers(1_700_000_000_000, 1_800_000_000_000), deltas=_DELTAS)
def test_any_clock_readings_round_trip_whichever_encoding_is_shortest(first, deltas):
    readings = [first]
    for delta in deltas:
        readings.append(readings[-1] + delta)
    record = Record(seed="ab" * 32, version=len(readings), steps=0, special={}, choices=0,
                    times=[ms / 1000 for ms in readings])
    data = encode(record)
    assert decode(data).times == record.times


def test_a_length_code_that_does_not_describe_a_prefix_code_is_refused():
    for lengths in ((1, 1, 1), (2, 2, 2), (13, 1)):  # over- and under-full, too long
        bits = BitWriter()
        bits.bits(0, 5)
        bits.bits(len(lengths) - 1, 5)
        for n in lengths:
            bits.bits(n, 4)
        with pytest.raises(FormatError):
            FittedCode.read_description(BitReader(bits.bytes()))
    bits = BitWriter()
    bits.bits(30, 5)
    bits.bits(3, 5)  # symbols 30 to 33: past the escape
    with pytest.raises(FormatError):
        FittedCode.read_description(BitReader(bits.bytes()))


def test_a_wait_is_stamped_to_the_unit_it_is_worth_never_after_the_clock():
    previous = 1_764_000_000.123
    for wait, unit in [(0.4567, 0.001), (5.4567, 0.01), (54.567, 0.1), (5456.7, 1.0)]:
        now = previous + wait
        at = stamp_time(now, previous)
        assert previous <= at <= now and now - at < unit
        assert round((at - previous) * 1000) % round(unit * 1000) == 0
    assert stamp_time(previous - 3.0, previous) == round((previous - 3.0) * 1000) / 1000
    assert stamp_time(1_764_000_000.5, 1_764_000_000.0001234) == 1_764_000_000.5  # (µs: ms)
    assert stamp_time(Stamped(1.2345), previous) == 1.2345  # a replay's own stamp


def test_waits_round_trip_in_a_mixed_radix_and_cost_their_units_only():
    rng = random.Random(5)
    deltas = [0, 1, 2, 999, 1000, 1010, 9990, 10_000, 99_900, 100_000, 86_400_000, -1,
              -5000, 2**70 - 2**70 % 1000, 2**90 - 2**90 % 1000]
    assert all(is_stamped_wait(d) for d in deltas if d >= 0)
    assert not any(is_stamped_wait(d) for d in (1001, 10_010, 100_100, 2**70))
    deltas += [nth_wait(rng.randint(0, 10**5)) for _ in range(300)]
    fitted = FittedCode.fitted(length_symbol(d, ESCAPE) for d in deltas)
    assert fitted is not None
    for code in (FOUR_BITS, FIVE_BITS, fitted):
        bits, places = BitWriter(), Digits()
        for delta in deltas:
            write_wait(bits, places, delta, code)
        reader, digits = BitReader(bits.bytes()), DigitReader(places.number())
        assert [read_wait(reader, digits, code) for _ in deltas] == deltas
    hours = [3_600_000 * h for h in range(1, 25)]  # a move an hour or a day after the last
    bits, places = BitWriter(), Digits()
    for delta in hours:
        write_wait(bits, places, delta, FIVE_BITS)
    size = len(bits.bytes()) + len(int_bytes(places.number()))
    packed = BitWriter()
    for delta in hours:
        write_delta(packed, delta)
    assert size * 8 / len(hours) < 23 and size < len(packed.bytes()) * 0.7


def test_a_game_of_long_waits_archives_its_times_by_their_units():
    class Waits:
        def __init__(self) -> None:
            self.now, self.rng = 1_764_000_000.0, random.Random(9)

        def __call__(self) -> float:  # a second to a day between readings
            self.now += math.exp(self.rng.uniform(0.0, math.log(86_400.0)))
            return self.now

    store = MemoryEventStore()
    archives = MemoryArchiveStore(store)
    service = GameService(ArchivedGames(store, archives, games_under_test()),
                          games_under_test(), clock=Waits())
    table, _tokens = play(service, "ochs-und-esel", 3, {"rounds": 1}, 4, people=0)
    log = store.read(table.id)
    data, _expansion = archive(archives.stored_game(table.id), games_under_test())
    assert data[1] in (TIMES_WAITS, TIMES_WAITS_WIDE, TIMES_WAITS_FITTED)
    assert archive_game(archives, games_under_test(), table.id) == "archived"
    assert store.read(table.id) == [] and service.store.read(table.id) == log
    readings = len(decode(data).times)
    assert readings > 20 and len(data) < 200 + readings * 2.2  # (not 4+ bytes a reading)


def test_a_log_that_does_not_replay_is_refused():
    service, _store, archives = service_pair()
    table, _ = play(service, "trash", 2, {"max_rounds": 1}, 3, people=0)
    stored = archives.stored_game(table.id)
    headless = msgspec.structs.replace(stored, events=stored.events[1:])
    with pytest.raises(NotArchivable, match="does not replay"):
        archive(headless, games_under_test())


# A record written by format version 1 (a 3-seat game of one round with two people: one
# left, moves by the server for an absent seat), its log's length and last hash.
_V1_RECORD = bytes.fromhex(
    "0102432e00ff14ee7b86a1932453c38e83272bc670b6a5315eec266d675fe45c396247084e0e000500070905"
    "0c2d63684d57504c61386e3842062a0a01062e0c07030624000003a03806270b090800000300060100080206"
    "1c0c061905027030000003010601000802061c0d0619050270310001030006090c0802061c0c061806240003"
    "030005067061737365640d080106450c00020300050a7365745f706c617965640d0804050576616c75651205"
    "076e756d626572730c05066a6f6b6572730b06450c00070300050a7365745f706c617965640d080405057661"
    "6c75650d05076e756d626572730d05066a6f6b6572730b06450c00050300050a7365745f706c617965640d08"
    "04050576616c75650c05076e756d626572730c05066a6f6b6572730b06450c00030300050a7365745f706c61"
    "7965640d0804050576616c75650f05076e756d626572730c05066a6f6b6572730b06450c00010300050a7365"
    "745f706c617965640d0804050576616c75650d05076e756d626572730c05066a6f6b6572730b06450c000303"
    "0005067061737365640d080106450c0002030005067061737365640d080106450c0002030005067061737365"
    "640d080106450c000201062808860056a96858550335caa0bfe9d6663a62b158ac562b158ae58315ca62b15c"
    "a62b158ce503158ae50394c5633158ae50394c562b15cb62b94c562b15ca63315ca62b15ca62b158cc562802"
    "be06be6c6c158942c6c4b3610e57a2ff88ac1e137d75fc926096da7509c830b60123567104519d1737701a20"
    "7ac40ea82dcd216511a81c933084366c8d28b524200200"
)
_V1_EVENTS, _V1_LAST_HASH = 67, "fcf1df09064e97af60172a3db6ac114bb8e7145e9b522016c1abecbbd4f41850"


def test_a_record_of_format_1_still_expands_and_archives_again_as_format_2():
    record = decode(_V1_RECORD)
    assert _V1_RECORD[0] == 1 and record.summary is None
    expansion = expand(record, games_under_test())
    assert len(expansion.events) == _V1_EVENTS
    assert expansion.events[-1].hash == _V1_LAST_HASH
    assert verify_chain(expansion.events) is None
    again = StoredGame(events=expansion.events, snapshot=encode_table(expansion.table),
                       checkpoints=expansion.checkpoints, tokens=record.tokens,
                       seed=record.seed, creator=record.creator)
    # Its copy for reads keeps the whole final table: the record has no summary.
    archived = Archived.of(record, _V1_RECORD, expansion, games_under_test())
    copy = copy_of(archived, games_under_test())
    assert not copy.startswith(KEPT_COPY)
    assert read_copy(copy, _V1_RECORD, games_under_test()) == archived.final()
    data, second = archive(again, games_under_test())
    assert data[0] == 2 and decode(data).summary is not None
    assert [e.hash for e in second.events] == [e.hash for e in expansion.events]
    assert len(data) < len(_V1_RECORD)


def test_a_backup_holds_every_key_the_service_needs_and_none_that_passes():
    from domain.store import keys
    from domain.store.redis_backup import owner

    kept = {keys.player("p1"): ("player", "p1"), keys.inbox("p1", "active"): ("player", "p1"),
            keys.standings("p1"): ("player", "p1"), keys.player_notify("p1"): ("player", "p1"),
            keys.push_subscriptions("p1"): ("player", "p1"),
            keys.player_events("p1"): ("player", "p1"),
            keys.chat("g1"): ("game", "g1"), keys.chat_texts("g1"): ("game", "g1"),
            keys.webhooks("g1"): ("game", "g1"), keys.analysis("g1"): ("game", "g1"),
            keys.PLAYER_NAMES: ("service", keys.PLAYER_NAMES),
            keys.leaderboard("trash"): ("service", keys.leaderboard("trash")),
            keys.bot_standings("trash"): ("service", keys.bot_standings("trash")),
            keys.VAPID_KEY: ("service", keys.VAPID_KEY), keys.AUDIT: ("service", keys.AUDIT)}
    for name, found in kept.items():
        assert owner(name) == found, name
    # The game's log and record travel in its own line; the rest passes or is rebuilt.
    for name in [keys.events("g1"), keys.snapshot("g1"), keys.archive("g1"),
                 keys.idempotency("g1", "k"), keys.stream_ticket("g1", "x"),
                 keys.delivery("g1", "d"), keys.hook_deliveries("g1", "h"),
                 keys.player_ticket("p1", "x"), keys.player_present("p1"), keys.ALL_GAMES,
                 keys.by_status("finished"), keys.ARCHIVE_REFUSED,
                 keys.webhook_receiver("r"), "rq:queue:bots", "donkeypost:timers"]:
        assert owner(name) is None, name
