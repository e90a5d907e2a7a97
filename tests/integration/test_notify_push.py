"""Web Push (RFC 8030 + VAPID, RFC 8292) against a push service stand-in on loopback that
checks the VAPID JWT and decrypts each payload with the subscription's keys: TTL, Urgency
(high for deadline soon), a Topic per game; a 410 deletes the subscription; endpoints get
the webhook targets' checks; a player holds a bounded number of subscriptions, which
nobody else sees."""

from __future__ import annotations

from typing import Any

import pytest

from api.rate_limits import RateLimits
from domain.players.notes import deadline_soon
from domain.service import NoHooks
from domain.webhooks.targets import TargetPolicy
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings
from tests.e2e.api_client import ApiClient
from tests.support.games import games_under_test
from tests.support.push_service import push_service

BASE = "http://play.test"



@pytest.fixture
def stack(redis_url, redis_client, clock):
    settings = Settings(redis_url=redis_url, rate_limits=RateLimits.off(), health_workers=(),
                        public_url=BASE, vapid_subject="mailto:ops@play.test",
                        webhook_targets=TargetPolicy.allowing("127.0.0.0/8", "1024-65535"))
    components = bootstrap(settings, hooks=NoHooks(), clock=clock, games=games_under_test())
    app = web_app(components, {"TESTING": True})
    return (ApiClient(app.test_client()),
            components.notifications.notifier(components.service, clock), components)


def register(api: ApiClient, name: str) -> dict[str, Any]:
    return api.http.post("/players", json={"name": name}).get_json()


def _pushes_counted() -> dict[str, float]:
    """The metrics' pushes by outcome, as this process counted them."""
    from api.metrics import OWN

    return {o: OWN.get_sample_value("donkeypost_notifications_total",
                                    {"channel": "push", "outcome": o}) or 0.0
            for o in ("sent", "failed")}


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
        counted = _pushes_counted()
        notifier.run_once()
        pushes = pusher.wait_for(2)
        # The metrics count one push sent and one failed (the laptop's 410).
        assert _pushes_counted() == {"sent": counted["sent"] + 1,
                                     "failed": counted["failed"] + 1}
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
        # Keys of the documented form that are no point of the curve: no payload could
        # ever be encrypted for them, so they are refused now rather than fail each push.
        off_curve = {**pusher.subscribe("y").as_json(), "keys": {"p256dh": "B" + "A" * 86,
                                                                  "auth": "A" * 22}}
        r = api.http.post("/players/me/push-subscriptions", json=off_curve,
                          headers=api.auth(bob["key"]))
        assert r.status_code == 422 and r.get_json()["code"] == "bad_push_keys"
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


def test_a_player_level_webhook_gets_every_entry_of_all_their_games_signed(stack):
    """One registration for all of a player's games: each entry of their stream is posted
    in order, signed as game webhooks are; a failing receiver is retried before the next
    entry goes; the secret is shown once and the registration is the player's only."""
    import json
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from domain.webhooks.signing import verify

    api, notifier, _components = stack
    ann, bob = register(api, "Ann"), register(api, "Bob")
    got: list[tuple[dict[str, str], bytes]] = []
    answers = [500]  # the first delivery fails once

    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            got.append(({k.lower(): v for k, v in self.headers.items()}, body))
            self.send_response(answers.pop(0) if answers else 204)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/hook"
        r = api.http.post("/players/me/webhooks", json={"url": url},
                          headers=api.auth(bob["key"]))
        assert r.status_code == 201
        secret = r.get_json()["secret"]
        listed = api.http.get("/players/me/webhooks", headers=api.auth(bob["key"])).get_json()
        assert [h["url"] for h in listed] == [url] and "secret" not in listed[0]
        assert api.http.get("/players/me/webhooks", headers=api.auth(ann["key"])).get_json() \
            == []
        games = []
        for _ in range(2):  # two games, one registration
            r = api.http.post("/games", headers=api.auth(ann["key"]), json={
                "type": "high-card", "deadline_s": None,
                "seats": [{"kind": "human", "me": True}, {"kind": "human", "invite": "Bob"}]})
            games.append(r.get_json()["id"])
        notifier.run_once()
        assert len(got) == 1  # the first failed: nothing after it went
        notifier.clock.advance(60)
        notifier.run_once()
        bodies = [json.loads(body) for _headers, body in got]
        assert [(b["type"], b["entry"]["game"]) for b in bodies] == \
            [("invited", games[0]), ("invited", games[0]), ("invited", games[1])]
        assert bodies[0]["id"] == bodies[1]["id"]  # the same delivery, tried again
        for headers, body in got:
            assert verify(secret, headers["x-donkeypost-timestamp"], body,
                          headers["x-donkeypost-signature"], notifier.clock())
        notifier.run_once()
        assert len(got) == 3  # nothing twice
    finally:
        server.shutdown()
        server.server_close()
