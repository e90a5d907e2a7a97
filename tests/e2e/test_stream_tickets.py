"""Stream tickets: a browser's EventSource follows a seat's events with a short-lived,
single-use ticket taken with the seat's token, never with the token in the URL."""

from __future__ import annotations

import json
import time

import httpx
import pytest

from api.rate_limits import RateLimits
from api.stream_tickets import StreamTickets
from donkeypost.settings import Settings
from tests.e2e.api_client import ApiClient
from tests.support.apps import shared_app
from tests.support.live import SseMessage, serving, sse_messages


@pytest.fixture
def app(redis_url, redis_client):
    return shared_app(Settings(redis_url=redis_url, rate_limits=RateLimits.off()))


@pytest.fixture
def api(app) -> ApiClient:
    return ApiClient(app.test_client())


@pytest.fixture
def base(app):
    with serving(app) as url:
        yield url


def take_ticket(api: ApiClient, game_id: str, token: str | None) -> httpx.Response:
    return api.http.post(f"/games/{game_id}/events/stream/tickets", headers=api.auth(token))


def stream_with_ticket(base: str, game_id: str, ticket: str, after: int | None = None,
                       until: int | None = None) -> tuple[int, list[SseMessage], dict]:
    """Open the stream as an EventSource does (no header) and read it to its end, or until
    event `until`."""
    params = {"ticket": ticket, **({"after": after} if after is not None else {})}
    got: list[SseMessage] = []
    with httpx.stream("GET", f"{base}/games/{game_id}/events/stream", params=params,
                      timeout=10) as r:
        if r.status_code != 200:
            r.read()
            return r.status_code, [], r.json() if r.content else {}
        for m in sse_messages(r.iter_lines()):
            if isinstance(m, SseMessage):
                got.append(m)
                if until is not None and int(m.id) >= until:
                    break
    return 200, got, {}


def test_a_ticket_streams_its_seats_events_once(api, base, redis_client):
    game_id, tokens = api.new_game("high-card", 3, {"cards": 3})
    taken = take_ticket(api, game_id, tokens[1])
    assert taken.status_code == 201, taken.get_json()
    assert taken.headers["Cache-Control"] == "no-store"
    body = taken.get_json()
    assert body["seat"] == 1 and 0 < body["expires_in_s"] <= 60
    ticket = body["ticket"]
    assert tokens[1] not in ticket
    # Only its hash is kept: the ticket itself is nowhere in Redis.
    assert not any(ticket.encode() in k for k in redis_client.keys("*"))

    log = api.events(game_id, tokens[1])
    status, first, _ = stream_with_ticket(base, game_id, ticket, until=log["version"])
    assert status == 200
    # The seat's log exactly: its own hand, nobody else's.
    assert [json.loads(m.data) for m in first] == log["events"]
    dealt = next(json.loads(m.data) for m in first if m.event == "dealt")
    assert set(dealt["private"]) == {"1"}

    status, _, error = stream_with_ticket(base, game_id, ticket)
    assert (status, error["code"]) == (401, "invalid_ticket"), "a ticket opens one stream"


def test_a_new_ticket_resumes_after_the_last_seq_received(api, base):
    game_id, tokens = api.new_game("high-card", 2, {"cards": 3})
    seen = api.view(game_id)["version"]
    api.play_to_end(game_id, tokens)
    rest = api.events(game_id, tokens[0], after=seen)
    status, messages, _ = stream_with_ticket(
        base, game_id, take_ticket(api, game_id, tokens[0]).get_json()["ticket"], after=seen)
    assert status == 200
    assert [json.loads(m.data) for m in messages] == rest["events"]
    assert messages[-1].event == "game_finished"


def test_a_ticket_is_for_its_game_only_and_only_seats_take_one(api, base):
    game_id, tokens = api.new_game("high-card", 2)
    other_id, _ = api.new_game("high-card", 2)
    ticket = take_ticket(api, game_id, tokens[0]).get_json()["ticket"]
    status, _, error = stream_with_ticket(base, other_id, ticket)
    assert (status, error["code"]) == (401, "invalid_ticket")
    refused = {"no token": (None, 401, "missing_token"),
               "a made-up token": ("nope", 401, "invalid_token")}
    for what, (token, code_status, code) in refused.items():
        r = take_ticket(api, game_id, token)
        assert (r.status_code, r.get_json()["code"]) == (code_status, code), what
    r = take_ticket(api, "no-such-game", tokens[0])
    assert (r.status_code, r.get_json()["code"]) == (404, "unknown_game")
    status, _, error = stream_with_ticket(base, game_id, "st.made-up")
    assert (status, error["code"]) == (401, "invalid_ticket")


def test_a_ticket_expires_unused(redis_client):
    tickets = StreamTickets(redis_client, ttl_s=1)
    kept, expired = tickets.issue("g1", 2), tickets.issue("g1", 0)
    assert tickets.redeem("g1", kept) == 2
    time.sleep(1.2)
    assert tickets.redeem("g1", expired) is None
