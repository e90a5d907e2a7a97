"""E-mail notifications against a real SMTP server (aiosmtpd on loopback), the MIME parsed
as received: an address is confirmed by its signed link before anything else is sent to
it; a digest has plain text and HTML, links that open the table and RFC 8058's one-click
unsubscribe (a GET changes nothing, a POST unsubscribes); at most one e-mail per digest
window; nothing in quiet hours, everything once they end; nothing about a game the
player watches or just moved in."""

from __future__ import annotations

import re
import time
from collections import Counter
from typing import Any

import pytest

from api.rate_limits import RateLimits
from domain.service import NoHooks
from domain.webhooks.targets import TargetPolicy
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings
from tests.e2e.api_client import ApiClient
from tests.support.games import games_under_test
from tests.support.smtp import html_of, smtp_server, text_of
from tests.support.workers import WorkerProcess, wait_until

BASE = "http://play.test"



@pytest.fixture
def mail_server():
    with smtp_server() as (url, box):
        yield url, box


@pytest.fixture
def stack(redis_url, redis_client, mail_server, clock):
    url, box = mail_server
    settings = Settings(redis_url=redis_url, rate_limits=RateLimits.off(), health_workers=(),
                        smtp_url=url, smtp_from="donkeypost <games@play.test>",
                        public_url=BASE, notify_push=False,
                        webhook_targets=TargetPolicy.allowing("127.0.0.0/8"))
    components = bootstrap(settings, hooks=NoHooks(), clock=clock, games=games_under_test())
    app = web_app(components, {"TESTING": True})
    notifier = components.notifications.notifier(components.service, clock)
    return ApiClient(app.test_client()), notifier, box


def register(api: ApiClient, name: str) -> dict[str, Any]:
    r = api.http.post("/players", json={"name": name})
    assert r.status_code == 201
    return r.get_json()


def set_prefs(api: ApiClient, key: str, **prefs: Any) -> dict[str, Any]:
    r = api.http.put("/players/me/notifications", json=prefs, headers=api.auth(key))
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def invite(api: ApiClient, by: dict[str, Any], name: str, deadline_s: float | None = None
           ) -> str:
    r = api.http.post("/games", headers=api.auth(by["key"]), json={
        "type": "high-card", "deadline_s": deadline_s,
        "seats": [{"kind": "human", "me": True}, {"kind": "human", "invite": name}]})
    assert r.status_code == 201
    return r.get_json()["id"]


def link(text: str, path: str) -> str:
    found = re.search(re.escape(BASE + path) + r"\?token=[A-Za-z0-9_.=-]+", text)
    assert found, text
    return found.group(0)[len(BASE):]


def _counted(channel: str) -> dict[str, float]:
    """The metrics' notifications of `channel` by outcome, as this process counted them."""
    from api.metrics import OWN

    return {o: OWN.get_sample_value("donkeypost_notifications_total",
                                    {"channel": channel, "outcome": o}) or 0.0
            for o in ("sent", "failed")}


def confirmed(api: ApiClient, notifier, box, player: dict[str, Any], address: str) -> None:
    set_prefs(api, player["key"], channels=["email"], email=address,
              kinds=["my_turn", "invitations", "results", "chat", "deadline_soon"])
    before = len(box.to(address))
    notifier.run_once()
    sent = box.to(address)
    assert len(sent) == before + 1
    assert sent[-1]["Subject"] == "Confirm your address for donkeypost"
    r = api.http.get(link(text_of(sent[-1]), "/players/email/confirm"))
    assert r.status_code == 200 and "confirmed" in r.get_data(as_text=True)


def test_an_address_is_confirmed_first_then_gets_digests_that_unsubscribe_in_one_click(stack):
    api, notifier, box = stack
    ann, bob = register(api, "Ann"), register(api, "Bob")
    set_prefs(api, bob["key"], channels=["email"], email="bob@example.org")
    invite(api, ann, "Bob")  # before his address is confirmed: not sent to it
    counted = _counted("confirm")
    notifier.run_once()
    mails = box.to("bob@example.org")
    assert [m["Subject"] for m in mails] == ["Confirm your address for donkeypost"]
    assert _counted("confirm") == {"sent": counted["sent"] + 1, "failed": counted["failed"]}
    confirm = link(text_of(mails[0]), "/players/email/confirm")
    prefs = api.http.get("/players/me/notifications", headers=api.auth(bob["key"])).get_json()
    assert prefs["email"] is None and prefs["email_pending"] == "bob@example.org"
    # A changed token is refused; the real one confirms; nobody else sees the address.
    r = api.http.get(confirm[:-3] + "abc")
    assert r.status_code == 403 and r.get_json()["code"] == "invalid_link"
    assert api.http.get(confirm).status_code == 200
    prefs = api.http.get("/players/me/notifications", headers=api.auth(bob["key"])).get_json()
    assert prefs["email"] == "bob@example.org" and prefs["email_pending"] is None
    again = api.http.get(confirm)  # opened twice (a second click, a mail scanner): so it is
    assert again.status_code == 200 and "confirmed" in again.get_data(as_text=True)
    # A link whose form the document does not allow never reaches the signature check.
    r = api.http.get("/players/email/confirm?token=not-a-token")
    assert r.status_code == 422 and r.get_json()["code"] == "validation_error"
    assert "bob@example.org" not in api.http.get(f"/players/{bob['id']}").get_data(as_text=True)
    # Now an invitation reaches him: one multipart e-mail, both parts linking the table.
    game = invite(api, ann, "Bob")
    notifier.run_once()
    digest = box.to("bob@example.org")[-1]
    assert digest["From"] == "donkeypost <games@play.test>"
    assert digest.get_content_type() == "multipart/alternative"
    table = f"{BASE}/play/#/game/{game}"
    assert table in text_of(digest) and table in html_of(digest)
    assert "invited to a game of high-card" in text_of(digest)
    assert digest["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    unsubscribe = digest["List-Unsubscribe"].strip("<>")
    assert unsubscribe.startswith(f"{BASE}/players/email/unsubscribe?token=")
    # A link scanner's GET changes nothing; the one-click POST unsubscribes at once.
    path = unsubscribe[len(BASE):]
    page = api.http.get(path)
    assert page.status_code == 200 and 'method="post"' in page.get_data(as_text=True)
    assert api.http.get("/players/me/notifications",
                        headers=api.auth(bob["key"])).get_json()["email"] == "bob@example.org"
    r = api.http.post(path, data={"List-Unsubscribe": "One-Click"})
    assert r.status_code == 200
    assert api.http.get("/players/me/notifications",
                        headers=api.auth(bob["key"])).get_json()["email"] is None
    invite(api, ann, "Bob")
    count = len(box.to("bob@example.org"))
    notifier.run_once()
    assert len(box.to("bob@example.org")) == count


def test_a_digest_window_sends_one_e_mail_listing_every_game_where_it_is_your_turn(
        stack, clock):
    api, notifier, box = stack
    ann, bob = register(api, "Ann"), register(api, "Bob")
    confirmed(api, notifier, box, bob, "bob@example.org")
    set_prefs(api, bob["key"], channels=["email"], digest_hours=4, kinds=["my_turn"])
    games = []
    for _ in range(3):  # Bob's turn in three games, one after the other
        game = invite(api, ann, "Bob", deadline_s=86400)
        api.http.post(f"/games/{game}/players", headers=api.auth(bob["key"]))
        view = api.view(game, ann["key"])
        if 0 in view["to_act"]:
            assert api.act(game, ann["key"], view["legal_actions"][0]).status_code == 200
        games.append(game)
        clock.advance(600)  # ten minutes: Ann's move is no longer "just now"
        notifier.run_once()
    digests = box.to("bob@example.org")[1:]
    assert len(digests) == 1  # the first opened the window; the others wait for its end
    clock.advance(4 * 3600)
    notifier.run_once()
    digests = box.to("bob@example.org")[1:]
    assert len(digests) == 2
    listed = text_of(digests[1])
    waiting = [g for g in games if 1 in api.view(g)["to_act"]]
    assert waiting and all(f"#/game/{g}" in listed for g in waiting)
    assert digests[1]["Subject"] == f"Your turn in {len(waiting)} game" + \
        ("s" if len(waiting) != 1 else "")
    notifier.run_once()
    assert len(box.to("bob@example.org")) == 3  # nothing new: nothing sent


def test_quiet_hours_hold_everything_until_they_end(stack, clock):
    api, notifier, box = stack
    ann, bob = register(api, "Ann"), register(api, "Bob")
    confirmed(api, notifier, box, bob, "bob@example.org")
    import datetime as dt
    now = dt.datetime.fromtimestamp(clock(), dt.UTC)
    start = (now - dt.timedelta(hours=1)).strftime("%H:%M")
    end = (now + dt.timedelta(hours=1)).strftime("%H:%M")
    set_prefs(api, bob["key"], channels=["email"], kinds=["invitations"],
              quiet_hours={"start": start, "end": end}, time_zone="UTC")
    invite(api, ann, "Bob")
    notifier.run_once()
    assert len(box.to("bob@example.org")) == 1  # the confirmation only
    clock.advance(3600 + 120)
    notifier.run_once()
    mails = box.to("bob@example.org")
    assert len(mails) == 2 and "invited" in text_of(mails[1])


def test_a_player_at_the_table_is_not_told_about_it(stack, clock):
    api, notifier, box = stack
    ann, bob = register(api, "Ann"), register(api, "Bob")
    confirmed(api, notifier, box, bob, "bob@example.org")
    set_prefs(api, bob["key"], channels=["email"], kinds=["my_turn", "chat"])
    game = invite(api, ann, "Bob", deadline_s=86400)
    api.http.post(f"/games/{game}/players", headers=api.auth(bob["key"]))
    notifier.run_once()  # (his own join: nothing for him)
    count = len(box.to("bob@example.org"))
    # Bob watches the table live: a message there is not sent to him.
    store = notifier.store
    store.mark_present(bob["id"], game, clock() + 60)
    api.http.post(f"/games/{game}/messages", json={"text": "hi"}, headers=api.auth(ann["key"]))
    notifier.run_once()
    assert len(box.to("bob@example.org")) == count
    clock.advance(120)  # he left the table: the next message is sent
    api.http.post(f"/games/{game}/messages", json={"text": "still there?"},
                  headers=api.auth(ann["key"]))
    notifier.run_once()
    mails = box.to("bob@example.org")
    assert len(mails) == count + 1 and "Ann wrote" in text_of(mails[-1])


def test_each_player_gets_exactly_one_e_mail_across_a_killed_notifier(
        redis_url, redis_client, tmp_path):
    """A notifier process is SIGKILLed while it sends to 30 players through a slow mail
    server; another takes over once the dead one's lease ends: every player got exactly
    one digest. (An e-mail is lost only if the kill falls between the saved place's
    write and the message's final line, a Redis round trip: the slow server's 0.2 s a
    recipient makes that a small share of each sender thread's time.)"""
    with smtp_server(delay_s=0.2) as (url, box):
        settings = Settings(redis_url=redis_url, rate_limits=RateLimits.off(),
                            health_workers=(), smtp_url=url, notify_push=False)
        components = bootstrap(settings, hooks=NoHooks(), games=games_under_test())
        api = ApiClient(web_app(components, {"TESTING": True}).test_client())
        store = components.notifications.store
        ann = register(api, "Ann")
        players = [register(api, f"Player {i}") for i in range(30)]
        for i, player in enumerate(players):
            set_prefs(api, player["key"], channels=["email"], kinds=["invitations"])
            store.set_address(player["id"], f"p{i}@example.org")
            from domain.notify.links import address_digest
            assert store.confirm_address(player["id"], address_digest(f"p{i}@example.org"))
        for player in players:
            invite(api, ann, player["name"])
        env = {"SMTP_URL": url, "NOTIFY_LEASE_S": "1", "NOTIFY_PUSH": "off",
               "WEBHOOK_ALLOWED_NETWORKS": "127.0.0.0/8", "DONKEYPOST_SWEEP_S": "3600"}
        first = WorkerProcess(redis_url, tmp_path / "first.log", **env)
        try:
            wait_until(lambda: len(box.received) >= 5, 30, "the first e-mails")
        finally:
            first.kill()
        killed_at = len(box.received)
        second = WorkerProcess(redis_url, tmp_path / "second.log", **env)
        try:
            wait_until(lambda: len({r.to[0] for r in box.received}) >= 30, 60,
                       "an e-mail to every player")
            time.sleep(2.5)  # (the dead lease's players, had any been sent twice)
        finally:
            second.stop()
        per_player = Counter(r.to[0] for r in box.received)
        assert killed_at < 30
        assert sorted(per_player.values()) == [1] * 30, per_player


def test_an_address_is_removed_with_null_and_a_failed_confirmation_is_sent_again(stack):
    api, notifier, box = stack
    bob = register(api, "Bob")
    confirmed(api, notifier, box, bob, "bob@example.org")
    assert set_prefs(api, bob["key"], channels=["email"], email=None)["email"] is None
    # The mail server is away when the next address is set: the link goes once it is back.
    server = notifier.mail
    notifier.mail = type(server)("smtp://127.0.0.1:9", server.sender, server.targets, 0.5)
    set_prefs(api, bob["key"], channels=["email"], email="bob@example.net")
    notifier.run_once()
    assert box.to("bob@example.net") == []
    notifier.mail = server
    notifier.clock.advance(30)
    notifier.run_once()
    assert [m["Subject"] for m in box.to("bob@example.net")] == \
        ["Confirm your address for donkeypost"]


def test_a_confirmation_link_for_an_address_changed_since_says_so(stack):
    api, notifier, box = stack
    bob = register(api, "Bob")
    set_prefs(api, bob["key"], channels=["email"], email="bob@example.org")
    notifier.run_once()
    first = link(text_of(box.to("bob@example.org")[-1]), "/players/email/confirm")
    set_prefs(api, bob["key"], channels=["email"], email="robert@example.org")
    r = api.http.get(first)
    assert r.status_code == 409 and r.get_json()["code"] == "address_changed"
    prefs = api.http.get("/players/me/notifications", headers=api.auth(bob["key"])).get_json()
    assert prefs["email"] is None and prefs["email_pending"] == "robert@example.org"
