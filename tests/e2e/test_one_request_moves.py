"""A move as one request: the answer to `POST /games/{id}/actions` carries the acting seat's
new view, and an event stream opened with `?views=true` pushes each viewer's view after
every change, so that a client never needs a GET after a move or an event."""

from __future__ import annotations

import json
import random
import threading
import time

import pytest

from api.event_hub import EventHub
from domain.connection import connect
from domain.service import FanOutHooks, GameService
from domain.service.act import request_hash
from domain.store import MemoryEventStore, RedisEventStore, keys
from tests.support.games import games_under_test
from tests.support.live import SseMessage, open_stream, serving


@pytest.fixture
def base(app):
    with serving(app) as url:
        yield url


def _timeless(view: dict) -> dict:
    """A view without `server_time` (the clock at the answer, not a fact of the game)."""
    return {k: v for k, v in view.items() if k != "server_time"}


def test_the_answer_to_a_move_is_the_acting_seats_new_view(api):
    game_id, tokens = api.new_game("ochs-und-esel", 3, {"rounds": 1})
    rng = random.Random(7)
    acts_again = 0
    while (spectator := api.view(game_id))["status"] != "finished":
        seat = spectator["to_act"][0]
        action = rng.choice(api.view(game_id, tokens[seat])["legal_actions"])
        r = api.act(game_id, tokens[seat], action)
        assert r.status_code == 200, r.get_json()
        acted = r.get_json()
        view = acted["view"]
        assert r.headers["ETag"] == f'"{acted["version"]}"' == f'"{view["version"]}"'
        assert _timeless(view) == _timeless(api.view(game_id, tokens[seat]))
        assert view["you"] == seat and view["to_act"] == acted["to_act"]
        if seat in acted["to_act"] and view["status"] == "active":
            acts_again += 1  # e.g. it won the trick and leads the next one
            assert view["legal_actions"], "a seat still to act is told what it may play"
        else:
            assert view["legal_actions"] == []
    assert acts_again, "no seat had to act twice in a row: the case went untested"
    assert acted["view"]["status"] == "finished" and acted["view"]["outcome"]


def test_a_retry_gets_the_view_of_its_first_answer_after_the_game_moved_on(api):
    game_id, tokens = api.new_game("high-card", 2)
    key = {"Idempotency-Key": "once"}
    action = api.view(game_id, tokens[0])["legal_actions"][0]
    first = api.act(game_id, tokens[0], action, key)
    other = api.act(game_id, tokens[1], api.view(game_id, tokens[1])["legal_actions"][0])
    assert first.status_code == other.status_code == 200
    retry = api.act(game_id, tokens[0], action, key)
    assert retry.status_code == 200
    assert retry.get_json() == first.get_json()
    assert retry.get_json()["view"]["version"] == first.get_json()["version"]
    assert retry.headers["ETag"] == first.headers["ETag"]
    assert other.get_json()["version"] > first.get_json()["version"]


def test_a_retry_answered_by_another_process_rebuilds_the_view_of_its_first_answer(app, api):
    game_id, tokens = api.new_game("high-card", 2)
    key = {"Idempotency-Key": "once"}
    action = api.view(game_id, tokens[0])["legal_actions"][0]
    first = api.act(game_id, tokens[0], action, key).get_json()
    api.act(game_id, tokens[1], api.view(game_id, tokens[1])["legal_actions"][0])
    # Another process remembers no table: the first answer's is folded from the log.
    app.extensions["donkeypost"].deps.remembered.tables._data.clear()
    retry = api.act(game_id, tokens[0], action, key).get_json()
    assert _timeless(retry["view"]) == _timeless(first["view"])


def test_a_key_whose_record_holds_a_whole_answer_gets_that_answer(api, redis_client):
    # Records once held the answer itself; those written since name the events.
    game_id, tokens = api.new_game("high-card", 2)
    view = api.view(game_id, tokens[0])
    action = view["legal_actions"][0]
    whole = json.dumps({"version": view["version"], "to_act": [0], "events": []}).encode()
    redis_client.set(keys.idempotency(game_id, "0:old"),
                     request_hash(action).encode() + b"\n" + whole)
    again = api.act(game_id, tokens[0], action, {"Idempotency-Key": "old"}).get_json()
    assert (again["version"], again["events"]) == (view["version"], [])
    assert api.view(game_id)["version"] == view["version"]  # nothing was played
    first = api.act(game_id, tokens[0], action, {"Idempotency-Key": "new"}).get_json()
    raw = redis_client.get(keys.idempotency(game_id, "0:new"))
    assert raw.split(b"\n")[1] == f"events {view['version'] + 1}-{first['version']}".encode()


def test_a_table_after_recent_events_is_folded_without_reading_the_store():
    service = GameService(MemoryEventStore(), games_under_test())
    table = service.create("high-card", {}, [{"kind": "human"}] * 2, deadline_s=None)
    for name in ("a", "b"):
        service.join(table.id, name)
    start, _ = service.load(table.id)
    service.act(table.id, start.game.turn, {"type": "play", "card": start.game.hands[0][0]})
    now, _ = service.load(table.id)
    recent = service.store.read(table.id, after=start.version)
    service.deps.remembered.tables._data.clear()
    service.deps.remembered.tables.put((table.id, start.version), start)

    def no_reads(*_args, **_kwargs):
        raise AssertionError("the store was read")

    service.deps.store.read = no_reads  # type: ignore[method-assign]
    folded = service.table_at(table.id, now.version, recent)
    assert folded == now


def _views(messages: list[SseMessage]) -> list[dict]:
    return [json.loads(m.data) for m in messages if m.event == "view"]


def test_a_stream_with_views_pushes_each_viewers_view_after_every_change(api, base):
    game_id, tokens = api.new_game("ochs-und-esel", 3, {"rounds": 1})
    viewers: list[int | None] = [0, 1, 2, None]
    streams: list[list[SseMessage]] = [[] for _ in viewers]
    opened = [threading.Event() for _ in viewers]

    started = api.view(game_id)["version"]

    def follow(n: int, viewer: int | None) -> None:
        token = tokens[viewer] if viewer is not None else None
        # The seats start from now, the spectator from the log's start (it catches up).
        after = started if viewer is not None else 0
        with open_stream(base, game_id, token, timeout_s=30, views=True,
                         after=after) as (_response, messages):
            for m in messages:
                if isinstance(m, SseMessage):
                    streams[n].append(m)
                    opened[n].set()

    threads = [threading.Thread(target=follow, args=(n, v)) for n, v in enumerate(viewers)]
    for t in threads:
        t.start()
    for o in opened:
        assert o.wait(10), "a stream with views sends the view when it opens"
    deadline = time.monotonic() + 10
    while not _views(streams[3]):
        assert time.monotonic() < deadline, "no view after the catch-up"
        time.sleep(0.002)
    for viewer, got in zip(viewers, streams, strict=True):
        token = tokens[viewer] if viewer is not None else None
        # A seat with nothing to catch up gets its view at once; the spectator after the
        # events it missed.
        first = got[0] if viewer is not None else got[started]
        assert first.event == "view" and first.id is None
        assert [int(m.id) for m in got if m.event != "view"][-1:] == ([] if viewer is not None
                                                                      else [started])
        assert _timeless(json.loads(first.data)) == _timeless(api.view(game_id, token))
    rng = random.Random(5)
    while (spectator := api.view(game_id))["status"] != "finished":
        seat = spectator["to_act"][0]
        # The seat to act plays from the view its stream pushed, never from a GET.
        pushed = _views(streams[seat])[-1]
        assert pushed["version"] == spectator["version"] and seat in pushed["to_act"]
        acted = api.act(game_id, tokens[seat], rng.choice(pushed["legal_actions"])).get_json()
        deadline = time.monotonic() + 10
        while not all(_views(s)[-1]["version"] >= acted["version"] for s in streams):
            assert time.monotonic() < deadline, "a view did not reach every stream"
            time.sleep(0.002)
        for viewer, got in zip(viewers, streams, strict=True):
            token = tokens[viewer] if viewer is not None else None
            # The view follows the events it reflects, and is the viewer's own.
            last = got[-1]
            assert last.event == "view"
            assert int(got[-2].id) == json.loads(last.data)["version"]
            if acted["view"]["status"] == "active":
                assert _timeless(json.loads(last.data)) == _timeless(api.view(game_id, token))
    for t in threads:
        t.join(timeout=10)
    for viewer, got in zip(viewers, streams, strict=True):
        token = tokens[viewer] if viewer is not None else None
        final = _views(got)[-1]
        assert final["status"] == "finished"
        assert _timeless(final) == _timeless(api.view(game_id, token))
        start = started + 1 if viewer is not None else 1
        assert [int(m.id) for m in got if m.event != "view"] == list(
            range(start, final["version"] + 1))


def test_a_stream_without_views_sends_none(api, base):
    game_id, tokens = api.new_game("high-card", 2)
    version = api.act(game_id, tokens[0],
                      api.view(game_id, tokens[0])["legal_actions"][0]).get_json()["version"]
    with open_stream(base, game_id, tokens[1], timeout_s=10) as (_response, messages):
        got = []
        for m in messages:
            if isinstance(m, SseMessage):
                got.append(m)
                if int(m.id) == version:
                    break
    assert [int(m.id) for m in got] == list(range(1, version + 1))
    assert all(m.event != "view" for m in got)


class _HubsView:
    """The store as a hub sees it: the seqs its reads gave back are noted, and the append
    notices come late (as when the listener is busy), so a test knows which came first."""

    def __init__(self, store: RedisEventStore) -> None:
        self.store = store
        self.read_back: list[int] = []
        self.read_after: list[int] = []  # each read's `after`

    def __getattr__(self, name: str):
        return getattr(self.store, name)

    def read(self, game_id: str, after: int = 0, **kwargs):
        self.read_after.append(after)
        events = self.store.read(game_id, after=after, **kwargs)
        self.read_back.extend(e.seq for e in events)
        return events

    def appends(self):
        return _LateNotices(self.store.appends())


class _LateNotices:
    def __init__(self, notices) -> None:
        self.notices = notices

    def next(self, timeout_s: float):
        found = self.notices.next(timeout_s)
        if found:
            time.sleep(0.2)
        return found

    def close(self) -> None:
        self.notices.close()


def test_a_feed_takes_its_own_processs_append_without_reading_it_back(redis_url, redis_client):
    service = GameService(store=RedisEventStore(connect(redis_url)), games=games_under_test())
    seen_by_hub = _HubsView(service.store)
    hub = EventHub(seen_by_hub)  # type: ignore[arg-type]
    service.deps.hooks = FanOutHooks([hub])  # as the web app wires it
    table = service.create("high-card", {}, [{"kind": "human"}] * 2, deadline_s=None)
    service.join(table.id, "ann")
    _seat, _token, table = service.join(table.id, "bob")
    feed, group = hub.watch(table.id)
    # Another process's move (no hub among its hooks) reaches the feed through the notice
    # and a read.
    other = GameService(store=RedisEventStore(connect(redis_url)), games=games_under_test())
    other.act(table.id, 0, {"type": "play", "card": table.game.hands[0][0]})
    assert feed.wait_beyond(table.version, 5, group)
    assert table.version + 1 in seen_by_hub.read_back
    # This process's move: in the feed at once, and never read back once noticed.
    table, _ = service.load(table.id)
    card = table.game.hands[1][0]
    service.act(table.id, 1, {"type": "play", "card": card})
    [played] = feed.events_after(table.version)
    assert (played.seq, played.type, played.data) == (table.version + 1, "played",
                                                      {"card": card})
    time.sleep(0.6)  # the late notice arrived meanwhile
    assert played.seq not in seen_by_hub.read_back
    assert not [a for a in seen_by_hub.read_after if a >= played.seq], "no read at all"
    assert [e.seq for e in feed.events_after(table.version)] == [played.seq]
    hub.leave(feed, group)
