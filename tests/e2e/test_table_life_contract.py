"""The table's life and its chat answer what the OpenAPI document says: the views after
resigning, leaving and voting to abort, the finished game with its conceded seats, the
aborted one, their events, the chat's entries and a `messages` delivery's body all
validate against the published schemas (which are exact: an undeclared key fails)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest

from api.rate_limits import RateLimits
from domain.chat import ChatEntry
from domain.webhooks.registration import new_registration
from domain.webhooks.triggers import chat_notifications, delivery_body, with_texts
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.cli import OPENAPI_PATH
from donkeypost.settings import Settings
from tests.e2e.api_client import ApiClient
from tests.e2e.test_contract_shapes import assert_valid, validator
from tests.support.workers import burst


@pytest.fixture
def components(redis_url, redis_client):
    return bootstrap(Settings(redis_url=redis_url, rate_limits=RateLimits.off()))


@pytest.fixture
def api(components) -> ApiClient:
    return ApiClient(web_app(components, {"TESTING": True}).test_client())


def _post(api: ApiClient, game_id: str, what: str, token: str, body: Any = None,
          method: str = "POST") -> dict[str, Any]:
    r = api.http.open(f"/games/{game_id}/{what}", method=method, json=body,
                      headers=api.auth(token))
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def test_resigned_and_left_seats_and_their_finished_game_match_the_document(api, components):
    view, page = validator("GameView"), validator("EventsPage")
    game_id, tokens = api.new_game("ochs-und-esel", 3, {"rounds": 1})
    assert_valid(view, api.view(game_id, tokens[0]), "a view offering the table actions")
    resigned = _post(api, game_id, "resign", tokens[0])
    assert resigned["seats"][0]["resigned"]
    assert_valid(view, resigned, "the view after resigning")
    left = _post(api, game_id, "leave", tokens[1], {"level": "random"})
    assert left["seats"][1]["played_by"] == "random"
    assert_valid(view, left, "the view after leaving")
    rng = random.Random(1)
    for _ in range(500):  # seat 2 plays; bots on a real worker play the others
        burst(components)
        seen = api.view(game_id, tokens[2])
        if seen["status"] != "active":
            break
        if 2 in seen["to_act"]:
            r = api.act(game_id, tokens[2], rng.choice(seen["legal_actions"]))
            assert r.status_code == 200, r.get_json()
    finished = api.view(game_id)
    assert finished["status"] == "finished" and finished["outcome"]["conceded"] == [0, 1]
    assert_valid(view, finished, "the finished game with conceded seats")
    events = api.events(game_id)
    assert {"seat_resigned", "seat_left"} <= {e["type"] for e in events["events"]}
    assert_valid(page, events, "the log with a resignation and a seat left")


def test_an_early_end_and_an_abort_match_the_document(api):
    view, page = validator("GameView"), validator("EventsPage")
    duel, duel_tokens = api.new_game("trash", 2)
    ended = _post(api, duel, "resign", duel_tokens[1])
    assert ended["status"] == "finished" and ended["outcome"]["early"] is True
    assert_valid(view, ended, "a game ended early")
    game_id, tokens = api.new_game("trash", 2)
    voted = _post(api, game_id, "abort", tokens[0])
    assert voted["abort_votes"] == [0]
    assert_valid(view, voted, "the view after a vote to abort")
    assert_valid(view, _post(api, game_id, "abort", tokens[0], method="DELETE"),
                 "the view after a vote withdrawn")
    _post(api, game_id, "abort", tokens[0])
    aborted = _post(api, game_id, "abort", tokens[1])
    assert aborted["status"] == "aborted"
    assert_valid(view, aborted, "an aborted game")
    events = api.events(game_id)
    assert {"abort_voted", "abort_vote_withdrawn", "game_aborted"} <= \
        {e["type"] for e in events["events"]}
    assert_valid(page, events, "the log of an aborted game")


def test_chat_entries_and_a_messages_delivery_match_the_document(api, components):
    created = api.create("trash", 2, deadline_s=None)
    game_id = created["id"]
    tokens = [api.join(game_id, name)[1] for name in ("ann", "bob")]
    entry = validator("ChatEntry")
    said = api.http.post(f"/games/{game_id}/messages", json={"text": "hello"},
                         headers=api.auth(tokens[0]))
    assert said.status_code == 201
    assert_valid(entry, said.get_json(), "a message")
    api.http.post(f"/games/{game_id}/messages", json={"text": "oops"},
                  headers=api.auth(tokens[1]))
    hidden = api.http.post(f"/games/{game_id}/messages/2/hide",
                           headers=api.auth(created["creator_token"]))
    assert hidden.status_code == 200
    assert_valid(entry, hidden.get_json(), "a hidden message")
    listed = api.http.get(f"/games/{game_id}/messages").get_json()
    assert [m["type"] for m in listed["messages"]] == ["message", "message", "message_hidden"]
    assert_valid(validator("MessagesPage"), listed, "the chat")
    # A delivery's body as the worker sends it: the texts put in as they are then.
    service = components.service
    table, _ = service.load(game_id)
    entries = service.messages(game_id, 0, 10)
    reg = new_registration(game_id, 0, "https://203.0.113.7/hook", ("messages",), 0.0)
    (note,) = chat_notifications(reg, entries)
    texts = {e.n: e.text for e in entries if isinstance(e, ChatEntry)}
    body = msgspec.json.decode(with_texts(delivery_body("d1", reg, table, note), texts.get))
    assert [m.get("text") for m in body["data"]["messages"]] == ["hello", None, None]
    assert_valid(validator("WebhookPayload"), body, "a messages delivery")


BODIES = {"postAction": {"type": "pass"}, "leaveGame": {"level": "basic"},
          "postMessage": {"text": "hi"}, "joinGame": {"name": "eve"},
          "registerWebhook": {"url": "https://203.0.113.7/hook"}, "setForcedMoves": {"auto": True}}


def _game_operations() -> list[tuple[str, str, dict[str, Any]]]:
    document = json.loads(Path(OPENAPI_PATH).read_text())
    return [(method.upper(), path, op) for path, ops in document["paths"].items()
            for method, op in ops.items()
            if method != "parameters" and path.startswith("/games/{game_id}")]


def _given_up_and_voting(api: ApiClient) -> tuple[str, list[str | None]]:
    """Four people: seat 0 resigned, seat 1 left to a bot, seat 2 voted to abort."""
    game_id, tokens = api.new_game("ochs-und-esel", 4, {"rounds": 1})
    _post(api, game_id, "resign", tokens[0])
    _post(api, game_id, "leave", tokens[1], {"level": "strong"})
    _post(api, game_id, "abort", tokens[2])
    return game_id, [*tokens, None]


def _aborted(api: ApiClient) -> tuple[str, list[str | None]]:
    game_id, tokens = api.new_game("trash", 2)
    for token in tokens:
        _post(api, game_id, "abort", token)
    return game_id, [*tokens, None]


def _ended_early(api: ApiClient) -> tuple[str, list[str | None]]:
    game_id, tokens = api.new_game("trash", 2)
    _post(api, game_id, "resign", tokens[0])
    return game_id, [*tokens, None]


def test_every_operation_on_a_given_up_seat_an_aborted_or_early_ended_game_is_documented(api):
    """Each state table life makes (a seat resigned, one left, a vote cast, a game
    aborted, one ended early), met by every operation on a game with each credential (a
    fresh game each time: the operations change it): the status is documented and an
    error's code is among the status's `x-codes`."""
    seen: set[tuple[str, int, str | None]] = set()
    for make in (_given_up_and_voting, _aborted, _ended_early):
        for method, path, op in _game_operations():
            for who in range(len(make(api)[1])):
                game_id, credentials = make(api)
                token = credentials[who]
                hook = api.http.post(f"/games/{game_id}/webhooks",
                                     headers=api.auth(credentials[1]),
                                     json=BODIES["registerWebhook"]).get_json().get("id", "none")
                api.http.post(f"/games/{game_id}/messages", headers=api.auth(credentials[1]),
                              json=BODIES["postMessage"])
                url = path.format(game_id=game_id, n=1, seq=1, hook_id=hook)
                r = api.http.open(url, method=method, headers=api.auth(token),
                                  json=BODIES.get(op["operationId"]))
                answer = op["responses"].get(str(r.status_code))
                assert answer is not None, (op["operationId"], r.status_code, r.get_data())
                code = r.get_json()["code"] if r.status_code >= 400 else None
                rules_own = op["operationId"] == "postAction" and r.status_code == 422
                assert code is None or rules_own or code in answer["x-codes"], \
                    (make.__name__, who, op["operationId"], r.status_code, r.get_json())
                seen.add((op["operationId"], r.status_code, code))
    # The states were met: the refusals that say so, where they apply.
    assert {("comeBack", 409, "seat_left"), ("postAction", 409, "seat_resigned"),
            ("resignGame", 409, "game_aborted"), ("leaveGame", 409, "game_over"),
            ("voteAbort", 200, None), ("postMessage", 201, None),
            ("setForcedMoves", 409, "game_aborted")} <= seen, sorted(seen)
