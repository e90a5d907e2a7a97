"""`GET /games/{id}/events/stream` over a real HTTP server: Server-Sent Events that resume
without missing or repeating an event, redacted exactly like the log, with keep-alives, and
that end after the game's end."""

from __future__ import annotations

import json
import random
import threading
import time

import pytest

from api.rate_limits import RateLimits
from domain.redaction import redact
from donkeypost.settings import Settings
from tests.e2e.api_client import ApiClient
from tests.e2e.test_full_games import _assert_private_parts_are_own
from tests.support.apps import shared_app
from tests.support.live import SseMessage, open_stream, serving

KEEPALIVE_S = 0.2



@pytest.fixture
def app(redis_url, redis_client):
    return shared_app(Settings(redis_url=redis_url, sse_keepalive_s=KEEPALIVE_S,
                               rate_limits=RateLimits.off()))  # whole games at full speed


@pytest.fixture
def api(app) -> ApiClient:
    return ApiClient(app.test_client())


@pytest.fixture
def base(app):
    with serving(app) as url:
        yield url


def _messages_until(messages, last_seq: int) -> list[SseMessage]:
    got: list[SseMessage] = []
    for m in messages:
        if isinstance(m, SseMessage):
            got.append(m)
            if int(m.id) == last_seq:
                return got
    raise AssertionError(f"the stream ended before event {last_seq}")


def _play_one(api, game_id, tokens) -> dict:
    seat = api.view(game_id)["to_act"][0]
    action = api.view(game_id, tokens[seat])["legal_actions"][0]
    r = api.act(game_id, tokens[seat], action)
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def test_a_stream_is_the_log_as_the_caller_sees_it_and_resumes_after_the_end(api, base):
    game_id, tokens = api.new_game("high-card", 3, {"cards": 5})
    for _ in range(4):
        _play_one(api, game_id, tokens)
    log = api.events(game_id, tokens[1])
    with open_stream(base, game_id, tokens[1]) as (response, messages):
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        first = _messages_until(messages, log["version"])
    assert [int(m.id) for m in first] == list(range(1, log["version"] + 1))
    assert [m.event for m in first] == [e["type"] for e in log["events"]]
    assert [json.loads(m.data) for m in first] == log["events"]
    dealt = next(json.loads(m.data) for m in first if m.event == "dealt")
    assert set(dealt["private"]) == {"1"}, "seat 1 sees only its own hand"

    api.play_to_end(game_id, tokens)
    rest = api.events(game_id, tokens[1], after=log["version"])
    assert rest["status"] == "finished"
    # Last-Event-ID wins over ?after= (a browser reconnects to the URL it first opened).
    with open_stream(base, game_id, tokens[1], last_event_id=log["version"],
                     after=1) as (response, messages):
        second = [m for m in messages if isinstance(m, SseMessage)]  # ends by itself
    assert [json.loads(m.data) for m in second] == rest["events"]
    assert second[-1].event == "game_finished"
    with open_stream(base, game_id, tokens[1], last_event_id=rest["version"]) as (done, _):
        assert done.status_code == 204, "nothing left: a browser stops reconnecting"


def test_the_stream_of_an_aborted_game_ends_too(api, base):
    """An aborted game has no `game_finished`: its stream ends after `game_aborted`, and a
    resume at its end gets 204, rather than keep-alives until `SSE_MAX_S`."""
    game_id, tokens = api.new_game("high-card", 2, {"cards": 5})
    with open_stream(base, game_id, tokens[0]) as (_response, messages):
        _messages_until(messages, api.view(game_id)["version"])
        for token in tokens:
            voted = api.http.post(f"/games/{game_id}/abort", headers=api.auth(token))
            assert voted.status_code == 200, voted.get_json()
        assert api.view(game_id)["status"] == "aborted"
        rest = [m for m in messages if isinstance(m, SseMessage)]  # ends by itself
    assert rest[-1].event == "game_aborted"
    version = api.view(game_id)["version"]
    with open_stream(base, game_id, tokens[0], after=1) as (_response, messages):
        again = [m for m in messages if isinstance(m, SseMessage)]  # ends by itself
    assert int(again[-1].id) == version
    with open_stream(base, game_id, tokens[0], last_event_id=version) as (done, _):
        assert done.status_code == 204


def test_a_client_that_keeps_reconnecting_misses_and_repeats_nothing(app, api, base):
    game_id, tokens = api.new_game("high-card", 3, {"cards": 5})
    store = app.extensions["donkeypost"].store

    def play() -> None:
        player = ApiClient(app.test_client())
        while player.view(game_id)["status"] != "finished":
            time.sleep(0.01)
            _play_one(player, game_id, tokens)

    player = threading.Thread(target=play)
    player.start()
    received: list[SseMessage] = []
    last = None
    for _connection in range(100):
        with open_stream(base, game_id, tokens[0], last_event_id=last) as (response, messages):
            if response.status_code == 204:
                break
            for m in messages:
                if isinstance(m, SseMessage):
                    received.append(m)
                    last = int(m.id)
                    if len(received) % 3 == 0:
                        break  # hang up in the middle of the game
    player.join()
    final = store.read(game_id)
    assert [int(m.id) for m in received] == [e.seq for e in final]
    for m, stored in zip(received, final, strict=True):
        assert json.loads(m.data) in (redact(stored, 0), redact(stored, 0, reveal_all=True))
    assert received[-1].event == "game_finished"


def test_an_idle_stream_gets_keep_alive_comments(api, base):
    game_id, tokens = api.new_game("high-card", 2)
    version = api.view(game_id)["version"]
    with open_stream(base, game_id, after=version) as (_response, messages):
        started = time.monotonic()
        assert next(messages).startswith(":")
        assert next(messages).startswith(":")
        assert time.monotonic() - started < 10 * KEEPALIVE_S
        # and a move still arrives on the same connection
        acted = _play_one(api, game_id, tokens)
        arrived = next(m for m in messages if isinstance(m, SseMessage))
        assert int(arrived.id) == version + 1 and arrived.event == "played"
        assert json.loads(arrived.data) == acted["events"][0]


def test_stream_errors_share_the_error_shape(api, base):
    game_id, _tokens = api.new_game("high-card", 2)
    cases = [("nope", "", None, 404, "unknown_game"),
             (game_id, "not-a-token", None, 401, "invalid_token"),
             (game_id, None, "x", 400, "bad_last_event_id")]
    for gid, token, last_event_id, status, code in cases:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        r = api.http.get(f"/games/{gid}/events/stream", headers=headers)
        assert (r.status_code, r.get_json()["code"]) == (status, code)


def test_a_whole_game_streamed_to_every_seat_and_a_spectator_leaks_nothing(app, api, base):
    game_id, tokens = api.new_game("ochs-und-esel", 3, {"rounds": 1})
    viewers: list[int | None] = [0, 1, 2, None]
    streams: list[list[SseMessage]] = [[] for _ in viewers]

    def follow(viewer: int | None, out: list[SseMessage]) -> None:
        token = tokens[viewer] if viewer is not None else None
        with open_stream(base, game_id, token, timeout_s=30) as (_response, messages):
            out.extend(m for m in messages if isinstance(m, SseMessage))

    threads = [threading.Thread(target=follow, args=(v, out))
               for v, out in zip(viewers, streams, strict=True)]
    for t in threads:
        t.start()
    rng = random.Random(4)
    last_batch_from = 0
    while (spectator := api.view(game_id))["status"] != "finished":
        seat = spectator["to_act"][0]
        action = rng.choice(api.view(game_id, tokens[seat])["legal_actions"])
        acted = api.act(game_id, tokens[seat], action).get_json()
        last_batch_from = acted["events"][0]["seq"]
        # Every stream gets each move before the next one is made.
        deadline = time.monotonic() + 10
        while not all(s and int(s[-1].id) >= acted["version"] for s in streams):
            assert time.monotonic() < deadline, "a move did not reach every stream"
            time.sleep(0.002)
    for t in threads:
        t.join(timeout=10)
    final = app.extensions["donkeypost"].store.read(game_id)
    for viewer, got in zip(viewers, streams, strict=True):
        assert [int(m.id) for m in got] == [e.seq for e in final]
        for m, stored in zip(got, final, strict=True):
            event = json.loads(m.data)
            # Only the append that ended the game was read after the end: in full.
            assert event == redact(stored, viewer, reveal_all=stored.seq >= last_batch_from)
            if stored.seq < last_batch_from:
                _assert_private_parts_are_own(event, viewer)
    assert any(e.private for e in final), "the game dealt hidden cards"
