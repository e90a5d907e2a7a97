"""The table's chat on the real stack: seats write, spectators read but cannot write, the
creator hides a message and its text is never served again (the listing, a stream opened
after, a webhook delivery sent after); messages on the event stream in order with the
game's events, resumable; webhooks that ask for `messages` get them from real RQ workers."""

from __future__ import annotations

import json
import threading
from typing import Any

import httpx
import pytest
from rq import Queue

from api.rate_limits import RateLimits
from domain.service import NoHooks
from domain.store import RedisWebhookStore
from donkeypost.bootstrap import bootstrap, rq_worker, web_app
from donkeypost.settings import Settings
from tests.e2e.api_client import ApiClient
from tests.support.apps import shared_app
from tests.support.games import games_under_test
from tests.support.live import SseMessage, open_stream, serving
from tests.support.receiver import receiving
from workers.webhooks import QUEUE, WebhookHooks

RUDE = "something rude"



@pytest.fixture
def app(redis_url, redis_client):
    return shared_app(Settings(redis_url=redis_url, sse_keepalive_s=0.2,
                               rate_limits=RateLimits.off()))


@pytest.fixture
def api(app) -> ApiClient:
    return ApiClient(app.test_client())


def _say(api: ApiClient, game_id: str, token: str | None, text: Any) -> Any:
    return api.http.post(f"/games/{game_id}/messages", json={"text": text},
                         headers=api.auth(token))


def _chat(api: ApiClient, game_id: str, token: str | None = None,
          after: int = 0) -> list[dict[str, Any]]:
    r = api.http.get(f"/games/{game_id}/messages?after={after}", headers=api.auth(token))
    assert r.status_code == 200, r.get_json()
    return r.get_json()["messages"]


def _hide(api: ApiClient, game_id: str, n: int, credential: str | None) -> Any:
    return api.http.post(f"/games/{game_id}/messages/{n}/hide", headers=api.auth(credential))


def test_seats_write_spectators_read_and_a_hidden_text_is_never_served_again(api):
    created = api.create("high-card", 3, deadline_s=None)
    game_id, creator = created["id"], created["creator_token"]
    tokens = [api.join(game_id, name)[1] for name in ("ann", "bob", "cy")]
    r = _say(api, game_id, tokens[1], "  good luck, all \n")
    assert r.status_code == 201, r.get_json()
    first = r.get_json()
    assert (first["n"], first["seat"], first["name"], first["text"], first["hidden"]) == (
        1, 1, "bob", "good luck, all", False)
    # Only seats write: no credential, a bad token, a player without a seat here.
    assert _say(api, game_id, None, "hi").status_code == 401
    assert _say(api, game_id, "nope", "hi").status_code == 401
    key = api.http.post("/players", json={"name": "Dee"}).get_json()["key"]
    r = _say(api, game_id, key, "hi")
    assert r.status_code == 403 and r.get_json()["code"] == "not_seated"
    for bad in ("   ", "x" * 501, "bidi \u202e trick", "bell \x07", 5, None):
        r = _say(api, game_id, tokens[0], bad)
        assert r.status_code == 422, (bad, r.get_json())
    assert _say(api, game_id, tokens[2], RUDE).get_json()["n"] == 2
    assert _say(api, game_id, tokens[0], "line one\nline two").status_code == 201
    # Everybody reads, spectators too; the game's own log stays the rules' log.
    seen = _chat(api, game_id)
    assert [(m["n"], m["seat"], m["text"]) for m in seen] == [
        (1, 1, "good luck, all"), (2, 2, RUDE), (3, 0, "line one\nline two")]
    assert _chat(api, game_id, tokens[0]) == seen
    assert _chat(api, game_id, after=2) == seen[2:]
    assert not any("message" in e["type"] for e in api.events(game_id)["events"])
    # Only the creator hides: not a seat, not a spectator.
    assert _hide(api, game_id, 2, tokens[0]).status_code == 403
    assert _hide(api, game_id, 2, None).status_code == 401
    assert _hide(api, game_id, 9, creator).status_code == 404
    r = _hide(api, game_id, 2, creator)
    assert r.status_code == 200
    assert (r.get_json()["n"], r.get_json()["text"], r.get_json()["hidden"]) == (2, None, True)
    assert _hide(api, game_id, 2, creator).status_code == 200  # twice is fine: one record
    seen = _chat(api, game_id)
    assert [(m["n"], m["type"]) for m in seen] == [
        (1, "message"), (2, "message"), (3, "message"), (4, "message_hidden")]
    assert seen[1]["text"] is None and seen[1]["hidden"] and seen[3]["message"] == 2
    assert RUDE not in json.dumps(seen) and RUDE not in json.dumps(_chat(api, game_id, after=1))
    assert _hide(api, game_id, 4, creator).status_code == 404  # a hiding is not a message


def test_a_player_creator_hides_with_their_key_and_a_cancelled_game_takes_no_chat(api):
    r = api.http.post("/players", json={"name": "Ann"})
    ann = r.get_json()["key"]
    game = api.http.post("/games", json={"type": "high-card", "seats": [
        {"kind": "human", "me": True}, {"kind": "human"}]}, headers=api.auth(ann)).get_json()
    # Seated before the start: the waiting table may talk.
    assert _say(api, game["id"], ann, "anyone?").status_code == 201
    assert _hide(api, game["id"], 1, ann).get_json()["hidden"] is True
    api.http.post(f"/games/{game['id']}/cancel", headers=api.auth(ann))
    r = _say(api, game["id"], ann, "bye")
    assert r.status_code == 409 and r.get_json()["code"] == "game_cancelled"
    assert api.http.get("/games/nope/messages").status_code == 404


def test_messages_come_on_the_event_stream_in_order_and_resume(api, app):
    game_id, tokens = api.new_game("high-card", 2)
    with serving(app) as base, open_stream(base, game_id) as (response, stream):
        assert response.status_code == 200
        seen: list[SseMessage] = []

        def read_until(kind: str) -> SseMessage:
            for m in stream:
                if isinstance(m, SseMessage):
                    seen.append(m)
                    if m.event == kind:
                        return m
            raise AssertionError(f"the stream ended before a {kind}")

        read_until("dealt")  # caught up with the game's log
        assert _say(api, game_id, tokens[0], "hello").status_code == 201
        said = read_until("message")
        assert json.loads(said.data) == _chat(api, game_id)[0]
        view = api.view(game_id, tokens[0])
        assert api.act(game_id, tokens[0], view["legal_actions"][0]).status_code == 200
        played = read_until("played")
        _say(api, game_id, tokens[1], "well played")
        read_until("message")
    version = api.view(game_id)["version"]
    assert said.id == f"{version - 1}:1"  # the last event and the last chat entry sent
    assert played.id == f"{version}:1"
    assert seen[-1].id == f"{version}:2"
    # Resuming after the first message gives what followed it, nothing twice.
    with serving(app) as base, open_stream(base, game_id, last_event_id=said.id) as (_r, s):
        again = [m for _, m in zip(range(2), (m for m in s if isinstance(m, SseMessage)),
                                   strict=False)]
    assert [(m.event, m.id) for m in again] == [("played", played.id),
                                                ("message", seen[-1].id)]
    # A plain seq resumes the chat from its start; ?messages_after= says where.
    with serving(app) as base, open_stream(base, game_id, after=version) as (_r, s):
        first = next(m for m in s if isinstance(m, SseMessage))
    assert (first.event, first.id) == ("message", f"{version}:1")


def test_a_message_hidden_while_streams_watch_is_not_shown_to_a_stream_opened_after(api, app):
    created = api.create("high-card", 2, deadline_s=None)
    game_id, creator = created["id"], created["creator_token"]
    tokens = [api.join(game_id, name)[1] for name in ("ann", "bob")]
    with serving(app) as base, open_stream(base, game_id) as (_r, watching):
        # The watching stream keeps this process's feed of the game (and its buffer) alive.
        events = (m for m in watching if isinstance(m, SseMessage))
        next(e for e in events if e.event == "dealt")
        _say(api, game_id, tokens[1], RUDE)
        assert RUDE in next(e for e in events if e.event == "message").data
        assert _hide(api, game_id, 1, creator).status_code == 200
        hidden = next(e for e in events if e.event == "message_hidden")
        assert json.loads(hidden.data)["message"] == 1
        with open_stream(base, game_id) as (_r2, later):
            got = []
            for m in later:
                if isinstance(m, SseMessage):
                    got.append(m)
                    if m.event == "message_hidden":
                        break
    message = next(m for m in got if m.event == "message")
    assert json.loads(message.data)["hidden"] is True
    assert all(RUDE not in m.data for m in got)


def test_webhooks_that_ask_for_messages_get_them_from_the_workers(redis_url, redis_client,
                                                                  monkeypatch):
    monkeypatch.setenv("WEBHOOK_ALLOWED_NETWORKS", "127.0.0.0/8")
    monkeypatch.setenv("WEBHOOK_ALLOWED_PORTS", "1024-65535")
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("RATE_LIMITS", "off")
    queue = Queue(QUEUE, connection=redis_client)
    components = bootstrap(Settings.from_env(),
                           hooks=WebhookHooks(RedisWebhookStore(redis_client), queue),
                           games=games_under_test())
    api = ApiClient(web_app(components, {"TESTING": True}).test_client())
    created = api.create("high-card", 2, deadline_s=None)
    game_id, creator = created["id"], created["creator_token"]
    tokens = [api.join(game_id, name)[1] for name in ("ann", "bob")]
    with receiving() as receiver:
        chatty = api.http.post(f"/games/{game_id}/webhooks", headers=api.auth(tokens[0]),
                               json={"url": receiver.url, "notify": ["messages"]})
        assert chatty.status_code == 201, chatty.get_json()
        quiet = api.http.post(f"/games/{game_id}/webhooks", headers=api.auth(tokens[1]),
                              json={"url": receiver.url + "/quiet"})
        assert quiet.status_code == 201
        _say(api, game_id, tokens[1], "hello")
        _say(api, game_id, tokens[1], RUDE)
        _hide(api, game_id, 2, creator)  # before any delivery is sent
        rq_worker(components, [QUEUE]).work(burst=True, logging_level="WARNING")
        bodies = [json.loads(r.body) for r in receiver.requests]
    assert {r.path for r in receiver.requests} == {"/hook"}  # only the one that asked
    assert [b["type"] for b in bodies] == ["messages"] * 3
    told = sorted((m for b in bodies for m in b["data"]["messages"]), key=lambda m: m["n"])
    assert [(m["n"], m["type"], m.get("text")) for m in told] == [
        (1, "message", "hello"), (2, "message", None), (3, "message_hidden", None)]
    assert told[1]["hidden"] is True
    # No record of a delivery shows the hidden text either.
    hook = chatty.get_json()["id"]
    listed = api.http.get(f"/games/{game_id}/webhooks/{hook}/deliveries",
                          headers=api.auth(tokens[0]))
    assert listed.status_code == 200 and RUDE not in listed.get_data(as_text=True)
    assert RUDE not in json.dumps(bodies)


def test_chat_is_rate_limited_per_token(redis_url, redis_client):
    app = web_app(bootstrap(Settings(redis_url=redis_url,
                                     rate_limits=RateLimits(limits={"chat": "3/minute"})),
                            hooks=NoHooks(), games=games_under_test()), {"TESTING": True})
    api = ApiClient(app.test_client())
    game_id, tokens = api.new_game("high-card", 2)
    answers = [_say(api, game_id, tokens[0], f"spam {i}").status_code for i in range(4)]
    assert answers == [201, 201, 201, 429]
    assert _say(api, game_id, tokens[1], "my turn to speak").status_code == 201
    assert len(_chat(api, game_id)) == 4


def test_concurrent_messages_get_distinct_numbers(api, app):
    game_id, tokens = api.new_game("high-card", 2)
    with serving(app) as base:
        def say(i: int) -> None:
            httpx.post(f"{base}/games/{game_id}/messages", json={"text": f"m{i}"},
                       headers={"Authorization": f"Bearer {tokens[i % 2]}"}, timeout=10)

        threads = [threading.Thread(target=say, args=(i,)) for i in range(12)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    seen = _chat(api, game_id)
    assert [m["n"] for m in seen] == list(range(1, 13))
    assert sorted(m["text"] for m in seen) == sorted(f"m{i}" for i in range(12))
