"""Web Push (RFC 8030 + VAPID, RFC 8292) against a push service stand-in on loopback that
checks the VAPID JWT and decrypts each payload with the subscription's keys: TTL, Urgency
(high for deadline soon), a Topic per game; a 410 deletes the subscription; endpoints get
the webhook targets' checks; a player holds a bounded number of subscriptions, which
nobody else sees."""

from __future__ import annotations

from typing import Any

import pytest

from api.rate_limits import RateLimits
from domain import registry
from domain.players.notes import deadline_soon
from domain.service import NoHooks
from domain.webhooks.targets import TargetPolicy
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings
from tests.e2e.api_client import ApiClient
from tests.support import high_card
from tests.support.push_service import push_service

BASE = "http://play.test"


@pytest.fixture(autouse=True)
def with_test_game(monkeypatch):
    monkeypatch.setattr(registry, "_GAMES", {**registry.games(), "high-card": high_card.GAME})


@pytest.fixture
def stack(redis_url, redis_client, clock):
    settings = Settings(redis_url=redis_url, rate_limits=RateLimits.off(), health_workers=(),
                        public_url=BASE, vapid_subject="mailto:ops@play.test",
                        webhook_targets=TargetPolicy.allowing("127.0.0.0/8", "1024-65535"))
    components = bootstrap(settings, hooks=NoHooks(), clock=clock)
    app = web_app(components, {"TESTING": True})
    return (ApiClient(app.test_client()),
            components.notifications.notifier(components.service, clock), components)


def register(api: ApiClient, name: str) -> dict[str, Any]:
    return api.http.post("/players", json={"name": name}).get_json()


def test_pushes_are_signed_encrypted_and_marked_and_a_gone_subscription_is_dropped(stack):
    api, notifier, components = stack
    ann, bob = register(api, "Ann"), register(api, "Bob")
    with push_service() as pusher:
        phone, laptop = pusher.subscribe("bob-phone"), pusher.subscribe("bob-laptop")
        for sub in (phone, laptop):
            r = api.http.post("/players/me/push-subscriptions", json=sub.as_json(),
                              headers=api.auth(bob["key"]))
            assert r.status_code == 201, r.get_json()
        r = api.http.put("/players/me/notifications", headers=api.auth(bob["key"]),
                         json={"channels": ["push"],
                               "kinds": ["my_turn", "deadline_soon", "invitations"]})
        assert r.status_code == 200 and r.get_json()["push_subscriptions"] == 2
        key = api.http.get("/push/key").get_json()["key"]
        r = api.http.post("/games", headers=api.auth(ann["key"]), json={
            "type": "high-card", "deadline_s": 3600,
            "seats": [{"kind": "human", "me": True}, {"kind": "human", "invite": "Bob"}]})
        game = r.get_json()["id"]
        pusher.gone.add("/push/bob-laptop")
        notifier.run_once()
        pushes = pusher.wait_for(2)
        assert sorted(p.path for p in pushes) == ["/push/bob-laptop", "/push/bob-phone"]
        push = next(p for p in pushes if p.path == "/push/bob-phone")
        assert push.claims is not None, "the VAPID JWT did not check out"
        assert push.claims["sub"] == "mailto:ops@play.test"
        assert push.claims["aud"] == pusher.origin and push.vapid_key == key
        assert push.headers["content-encoding"] == "aes128gcm"
        assert int(push.headers["ttl"]) > 0 and push.headers["urgency"] == "normal"
        assert push.headers["topic"] == f"game-{game}"
        assert push.payload is not None, "the payload did not decrypt"
        assert push.payload["type"] == "invited" and push.payload["game"] == game
        assert push.payload["url"] == f"{BASE}/play/#/game/{game}"
        # The laptop's subscription answered 410: it is gone.
        subs = api.http.get("/players/me/push-subscriptions",
                            headers=api.auth(bob["key"])).get_json()
        assert [s["endpoint"] for s in subs] == [phone.endpoint]
        # A deadline coming soon is urgent.
        table, _ = components.service.load(game)
        api.http.post(f"/games/{game}/players", headers=api.auth(bob["key"]))
        table, _ = components.service.load(game)
        seat = 1
        if seat not in table.waiting_since:  # (Ann to act first: Ann plays)
            view = api.view(game, ann["key"])
            api.act(game, ann["key"], view["legal_actions"][0])
            table, _ = components.service.load(game)
        note = deadline_soon(table, seat, table.updated_at)
        assert note is not None
        components.service.players.place([], [note])
        count = len(pusher.pushes)
        notifier.run_once()
        urgent = [p for p in pusher.wait_for(count + 1)[count:]
                  if p.payload and p.payload["type"] == "deadline_soon"]
        assert len(urgent) == 1 and urgent[0].headers["urgency"] == "high"


def test_subscriptions_are_checked_bounded_and_private(stack):
    api, _notifier, _components = stack
    bob, ann = register(api, "Bob"), register(api, "Ann")
    with push_service() as pusher:
        private = pusher.subscribe("x").as_json()
        private["endpoint"] = "http://10.1.2.3/push/x"
        r = api.http.post("/players/me/push-subscriptions", json=private,
                          headers=api.auth(bob["key"]))
        assert r.status_code == 422 and r.get_json()["code"] == "url_not_allowed"
        for i in range(10):
            r = api.http.post("/players/me/push-subscriptions",
                              json=pusher.subscribe(f"b{i}").as_json(),
                              headers=api.auth(bob["key"]))
            assert r.status_code == 201
        r = api.http.post("/players/me/push-subscriptions",
                          json=pusher.subscribe("b10").as_json(), headers=api.auth(bob["key"]))
        assert r.status_code == 409 and r.get_json()["code"] == "too_many_subscriptions"
        assert api.http.get("/players/me/push-subscriptions",
                            headers=api.auth(ann["key"])).get_json() == []
        mine = api.http.get("/players/me/push-subscriptions",
                            headers=api.auth(bob["key"])).get_json()
        r = api.http.delete(f"/players/me/push-subscriptions/{mine[0]['id']}",
                            headers=api.auth(ann["key"]))
        assert r.status_code == 404
        r = api.http.delete(f"/players/me/push-subscriptions/{mine[0]['id']}",
                            headers=api.auth(bob["key"]))
        assert r.status_code == 204
