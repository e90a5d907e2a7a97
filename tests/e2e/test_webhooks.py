"""Webhooks end to end: registration over HTTP, deliveries sent by real RQ workers (burst
mode, with the scheduler) to receivers on loopback that check the signatures, retries with
backoff, failure, the attempts read back through the API, and no hidden card of another
seat in any body."""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import itertools
import json
import random
import threading
import time
from typing import Any

import pytest
from rq import Queue

from domain.store import RedisWebhookStore
from domain.webhooks.receivers import ReceiverBackoff
from donkeypost.bootstrap import bootstrap, job_context, web_app
from donkeypost.settings import Settings
from tests.e2e.api_client import ApiClient
from tests.e2e.test_full_games import _assert_private_parts_are_own
from tests.support.games import games_under_test
from tests.support.receiver import Receiver, receiving
from workers.runner import make_worker
from workers.webhooks import QUEUE, WebhookHooks

MAX_ATTEMPTS = 3
FIRST_RETRY_S = 0.1


@pytest.fixture(autouse=True)
def settings(monkeypatch, redis_url):
    for name, value in {"REDIS_URL": redis_url, "WEBHOOK_ALLOWED_NETWORKS": "127.0.0.0/8",
                        "WEBHOOK_ALLOWED_PORTS": "9, 1024-65535", "RATE_LIMITS": "off",
                        "WEBHOOK_MAX_ATTEMPTS": str(MAX_ATTEMPTS),
                        "WEBHOOK_RETRY_FIRST_S": str(FIRST_RETRY_S),
                        "WEBHOOK_RETRY_FACTOR": "2", "WEBHOOK_TIMEOUT_S": "5"}.items():
        monkeypatch.setenv(name, value)


@pytest.fixture
def queue(redis_client) -> Queue:
    return Queue(QUEUE, connection=redis_client)


@pytest.fixture
def app(redis_client, queue):
    """Wired from the environment set above, with the webhook hooks alone after appends."""
    hooks = WebhookHooks(RedisWebhookStore(redis_client), queue)
    return web_app(bootstrap(Settings.from_env(), hooks=hooks,
                             games=games_under_test()), {"TESTING": True})


@pytest.fixture
def api(app) -> ApiClient:
    return ApiClient(app.test_client())


def work(queue: Queue, until: Any = None, timeout_s: float = 20.0) -> None:
    """Run burst workers (with the scheduler, for retries) until `until()` or no job is left.
    Each is wired from the environment as it starts, as `donkeypost worker` is, but for a
    failing receiver's block, as short as the first retry's wait (not 5 s, then 10)."""
    deadline = time.monotonic() + timeout_s
    while True:
        components = bootstrap(Settings.from_env(), games=games_under_test())
        context = job_context(components)
        context = dataclasses.replace(context, webhooks=dataclasses.replace(
            context.webhooks, receivers=ReceiverBackoff(first_s=FIRST_RETRY_S)))
        make_worker(context, components.rq_hooks, components.settings.sweep_s,
                    [queue.name]).work(burst=True, with_scheduler=True)
        scheduled = queue.scheduled_job_registry.get_job_ids()
        if (until() if until is not None else not scheduled and not queue.count):
            return
        assert time.monotonic() < deadline, "the deliveries did not settle in time"
        time.sleep(0.02)


def register(api, game_id: str, token: str, url: str, notify: list[str] | None = None,
             status: int = 201) -> dict:
    body: dict[str, Any] = {"url": url}
    if notify is not None:
        body["notify"] = notify
    r = api.http.post(f"/games/{game_id}/webhooks", json=body, headers=api.auth(token))
    assert r.status_code == status, r.get_json()
    return r.get_json()


def deliveries(api, game_id: str, token: str, hook_id: str) -> list[dict]:
    r = api.http.get(f"/games/{game_id}/webhooks/{hook_id}/deliveries", headers=api.auth(token))
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def verified_bodies(receiver: Receiver, secret: str) -> list[dict]:
    """Check every request's signature the way a receiver would, without our code."""
    bodies = []
    for req in receiver.requests:
        timestamp = req.headers["X-Donkeypost-Timestamp"]
        assert abs(time.time() - int(timestamp)) < 300
        mac = hmac.new(secret.encode(), timestamp.encode() + b"." + req.body, hashlib.sha256)
        assert hmac.compare_digest(req.headers["X-Donkeypost-Signature"], "v1=" + mac.hexdigest())
        body = json.loads(req.body)
        assert req.headers["X-Donkeypost-Delivery"] == body["id"]
        assert req.headers["X-Donkeypost-Event"] == body["type"]
        assert req.headers["Content-Type"] == "application/json"
        bodies.append(body)
    return bodies


def test_registration_shows_the_secret_once_and_refuses_what_it_must(api):
    created = api.create("high-card", 2)
    game_id, creator = created["id"], created["creator_token"]
    seat0, token0 = api.join(game_id, "ann")
    _seat1, token1 = api.join(game_id, "bob")
    mine = register(api, game_id, token0, "http://127.0.0.1:9/hook")
    assert mine["scope"] == "seat" and mine["seat"] == seat0
    assert mine["notify"] == ["your_turn", "game_finished"] and mine["secret"].startswith("whsec_")
    game_wide = register(api, game_id, creator, "http://127.0.0.1:9/all", ["events"])
    assert game_wide["scope"] == "game" and game_wide["seat"] is None
    listed = api.http.get(f"/games/{game_id}/webhooks", headers=api.auth(token0)).get_json()
    assert listed == [{k: v for k, v in mine.items() if k != "secret"}]
    listed = api.http.get(f"/games/{game_id}/webhooks", headers=api.auth(creator)).get_json()
    assert [h["id"] for h in listed] == [game_wide["id"]]
    # Another seat can neither see nor delete it.
    other = api.http.get(f"/games/{game_id}/webhooks/{mine['id']}", headers=api.auth(token1))
    assert (other.status_code, other.get_json()["code"]) == (404, "unknown_webhook")
    assert api.http.delete(f"/games/{game_id}/webhooks/{mine['id']}",
                           headers=api.auth(token1)).status_code == 404

    def refused(token: str | None, url: str, status: int, code: str) -> None:
        r = api.http.post(f"/games/{game_id}/webhooks", json={"url": url},
                          headers=api.auth(token))
        assert (r.status_code, r.get_json()["code"]) == (status, code), (url, r.get_json())

    refused(None, "http://127.0.0.1:9/", 401, "missing_token")
    refused("someone-else", "http://127.0.0.1:9/", 401, "invalid_token")
    for url in ("ftp://127.0.0.1/", "http://10.0.0.7/", "http://192.168.1.1/",
                "http://169.254.169.254/latest", "http://[::1]/", "http://[fe80::1]/",
                "http://0.0.0.0/", "http://224.0.0.1/", "http://user:pw@127.0.0.1/",
                "http://[::ffff:10.0.0.1]/", "https:///nohost", "http://127.0.0.1:0/",
                "http://192.0.0.8/", "http://[2002:7f00:1::]/", "http://127.0.0.1:22/",
                "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/"):
        refused(token0, url, 422, "url_not_allowed")
    for _ in range(4):
        register(api, game_id, token0, "http://127.0.0.1:9/more")
    refused(token0, "http://127.0.0.1:9/", 409, "too_many_webhooks")
    assert api.http.delete(f"/games/{game_id}/webhooks/{mine['id']}",
                           headers=api.auth(token0)).status_code == 204
    assert api.http.get(f"/games/{game_id}/webhooks/{mine['id']}",
                        headers=api.auth(token0)).status_code == 404


def test_concurrent_registrations_stop_at_the_limit(app, api):
    created = api.create("high-card", 2)
    game_id = created["id"]
    _seat, token = api.join(game_id, "ann")
    barrier = threading.Barrier(20)
    statuses: list[int] = []

    def register_one(n: int) -> None:
        client = app.test_client()
        barrier.wait()
        r = client.post(f"/games/{game_id}/webhooks", json={"url": f"http://127.0.0.1:9/{n}"},
                        headers=api.auth(token))
        statuses.append(r.status_code)

    threads = [threading.Thread(target=register_one, args=(n,)) for n in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [201] * 5 + [409] * 15
    listed = api.http.get(f"/games/{game_id}/webhooks", headers=api.auth(token)).get_json()
    assert len(listed) == 5


def test_signed_deliveries_reach_a_receiver_on_loopback(api, queue):
    with receiving() as seat_receiver, receiving() as game_receiver:
        created = api.create("high-card", 2, deadline_s=None)
        game_id, creator = created["id"], created["creator_token"]
        game_hook = register(api, game_id, creator, game_receiver.url)
        _seat, token0 = api.join(game_id, "ann")
        seat_hook = register(api, game_id, token0, seat_receiver.url)
        _seat, token1 = api.join(game_id, "bob")  # the game starts: seat 0 is to act
        api.play_to_end(game_id, [token0, token1])
        work(queue)
        seat_bodies = verified_bodies(seat_receiver, seat_hook["secret"])
        game_bodies = verified_bodies(game_receiver, game_hook["secret"])
    # Seat 0 plays its three cards: told three times it is its turn, then of the end.
    assert sorted(b["type"] for b in seat_bodies) == ["game_finished"] + ["your_turn"] * 3
    assert all(b["seat"] == 0 and b["hook"] == seat_hook["id"] for b in seat_bodies)
    assert all(s["seat"] == 0 for b in seat_bodies if b["type"] == "your_turn"
               for s in b["data"]["seats"])
    turns = sorted((b["version"], b["data"]["seats"][0]["seat"]) for b in game_bodies
                   if b["type"] == "your_turn")
    assert [seat for _version, seat in turns] == [0, 1, 0, 1, 0, 1]
    finished = next(b for b in game_bodies if b["type"] == "game_finished")
    assert finished["data"]["outcome"]["places"] and finished["data"]["seed"]
    assert finished["data"] == next(b for b in seat_bodies if b["type"] == "game_finished")["data"]
    record = deliveries(api, game_id, token0, seat_hook["id"])
    assert len(record) == 4 and {d["status"] for d in record} == {"delivered"}
    assert all(len(d["attempts"]) == 1 and d["attempts"][0]["status_code"] == 200
               for d in record)
    assert sorted(d["id"] for d in record) == sorted(b["id"] for b in seat_bodies)


def _webhook_attempts() -> dict[str, float]:
    """The metrics' webhook attempts by outcome, as this process counted them."""
    from api.metrics import OWN

    return {o: OWN.get_sample_value("donkeypost_webhook_deliveries_total", {"outcome": o})
            or 0.0 for o in ("delivered", "failed")}


def test_a_failing_receiver_is_retried_with_backoff_then_the_delivery_fails(api, queue):
    counted = _webhook_attempts()
    with receiving([500]) as failing, receiving([503, 200]) as flaky:
        game_id, tokens = api.new_game("high-card", 2)
        dead = register(api, game_id, tokens[1], failing.url)
        late = register(api, game_id, tokens[1], flaky.url)
        api.act(game_id, tokens[0], api.view(game_id, tokens[0])["legal_actions"][0])
        work(queue, until=lambda: all(
            d["status"] != "pending" for hook in (dead, late)
            for d in deliveries(api, game_id, tokens[1], hook["id"])))
    [failed] = deliveries(api, game_id, tokens[1], dead["id"])
    assert failed["status"] == "failed" and failed["kind"] == "your_turn"
    attempts = failed["attempts"]
    assert [a["status_code"] for a in attempts] == [500] * MAX_ATTEMPTS
    assert [a["number"] for a in attempts] == list(range(1, MAX_ATTEMPTS + 1))
    gaps = [b["at"] - a["at"] for a, b in itertools.pairwise(attempts)]
    assert gaps[0] >= FIRST_RETRY_S and gaps[1] >= 2 * FIRST_RETRY_S, gaps  # never early
    assert len(failing.requests) == MAX_ATTEMPTS
    assert len({r.headers["X-Donkeypost-Delivery"] for r in failing.requests}) == 1
    [delivered] = deliveries(api, game_id, tokens[1], late["id"])
    assert delivered["status"] == "delivered"
    assert [a["status_code"] for a in delivered["attempts"]] == [503, 200]
    # The metrics counted each attempt: the dead receiver's and the first of the flaky's
    # failed, the second delivered (the worker ran in this process).
    now = _webhook_attempts()
    assert now["failed"] - counted["failed"] == MAX_ATTEMPTS + 1
    assert now["delivered"] - counted["delivered"] == 1


def test_urls_are_checked_again_at_delivery_and_deleted_hooks_are_not_called(
        api, queue, monkeypatch):
    with receiving() as receiver:
        game_id, tokens = api.new_game("high-card", 2)
        hook = register(api, game_id, tokens[1], receiver.url)
        gone = register(api, game_id, tokens[1], receiver.url)
        api.act(game_id, tokens[0], api.view(game_id, tokens[0])["legal_actions"][0])
        api.http.delete(f"/games/{game_id}/webhooks/{gone['id']}", headers=api.auth(tokens[1]))
        monkeypatch.delenv("WEBHOOK_ALLOWED_NETWORKS")  # loopback is no longer allowed
        work(queue)
        assert receiver.requests == []
    [refused] = deliveries(api, game_id, tokens[1], hook["id"])
    assert refused["status"] == "failed" and len(refused["attempts"]) == 1
    assert refused["attempts"][0]["error"].startswith("url_not_allowed")


def test_no_webhook_carries_another_seats_hidden_cards(api, queue):
    with receiving() as receiver:
        created = api.create("ochs-und-esel", 3, {"rounds": 1}, deadline_s=None)
        game_id = created["id"]
        game_hook = register(api, game_id, created["creator_token"], receiver.url,
                             ["events", "your_turn", "game_finished"])
        secrets = {game_hook["id"]: game_hook["secret"]}
        tokens = []
        for name in ("ann", "bob", "cy"):
            seat, token = api.join(game_id, name)
            tokens.append(token)
            if seat < 2:  # the third join deals: seats 0 and 1 are told their hands
                hook = register(api, game_id, token, receiver.url, ["events"])
                secrets[hook["id"]] = hook["secret"]
        rng = random.Random(5)
        api.play_to_end(game_id, tokens, pick=lambda view: rng.choice(view["legal_actions"]))
        work(queue)
        bodies = [b for hook_id, secret in secrets.items()
                  for b in verified_bodies(_only(receiver, hook_id), secret)]
    seen_private = 0
    for body in bodies:
        if body["status"] != "finished":  # after the end everything is revealed
            _assert_private_parts_are_own(body, body["seat"])
            seen_private += sum(bool(e["private"]) for e in body["data"].get("events", []))
    assert seen_private >= 2, "the seats' own hands reached them"
    seat0 = sorted(e["seq"] for b in bodies if b["seat"] == 0 for e in b["data"]["events"])
    assert seat0 == list(range(seat0[0], seat0[-1] + 1)), "every event after registering"


def _only(receiver: Receiver, hook_id: str) -> Receiver:
    return Receiver(url=receiver.url, requests=[
        r for r in receiver.requests if json.loads(r.body)["hook"] == hook_id])


def test_the_default_app_sends_webhooks(redis_url, redis_client):
    hooks = web_app(bootstrap(Settings(redis_url=redis_url))).extensions["donkeypost"].hooks
    assert isinstance(hooks, WebhookHooks) or any(
        isinstance(h, WebhookHooks) for h in hooks.hooks)
