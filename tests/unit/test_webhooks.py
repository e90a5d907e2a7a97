"""Webhooks' pure parts: signatures, which URLs may be called, the retry schedule, and
which notifications an append causes (on the tiny test game, without Redis)."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress

import pytest

from domain.commitments import commitment_key
from domain.events import Event, event, stamp
from domain.table import Table, evolve_table
from domain.webhooks.deliveries import (
    DELIVERED,
    FAILED,
    PENDING,
    Attempt,
    Delivery,
    RetryPolicy,
    after_attempt,
)
from domain.webhooks.registration import new_registration
from domain.webhooks.signing import delivery_headers, sign, verify
from domain.webhooks.targets import TargetPolicy, TargetRefused, TargetUnresolvable
from domain.webhooks.triggers import newly_to_act, notifications_for
from tests.support.high_card import GAME as HIGH_CARD

SECRET = "whsec_test"


# --- signatures ------------------------------------------------------------------------
def test_the_signature_is_hmac_sha256_of_timestamp_dot_body():
    body = b'{"id":"dlv_1"}'
    expected = hmac.new(SECRET.encode(), b"1700000000." + body, hashlib.sha256).hexdigest()
    assert sign(SECRET, 1700000000, body) == "v1=" + expected


def test_verify_refuses_a_changed_body_another_secret_and_a_stale_timestamp():
    body = b'{"a":1}'
    headers = delivery_headers(SECRET, "dlv_1", "your_turn", body, now=1700000000.7)
    sig, ts = headers["X-Donkeypost-Signature"], headers["X-Donkeypost-Timestamp"]
    assert ts == "1700000000" and headers["X-Donkeypost-Delivery"] == "dlv_1"
    assert verify(SECRET, ts, body, sig, now=1700000100)
    assert not verify(SECRET, ts, b'{"a":2}', sig, now=1700000100)
    assert not verify("whsec_other", ts, body, sig, now=1700000100)
    assert not verify(SECRET, ts, body, sig, now=1700000000 + 301)  # a replay, later
    assert not verify(SECRET, "17e8", body, sig, now=1700000100)


# --- targets ---------------------------------------------------------------------------
def resolver(table: dict[str, list[str]]):
    def resolve(host: str, port: int) -> list[str]:
        if host not in table:
            raise OSError("unknown host")
        return table[host]
    return resolve


DNS = resolver({"hooks.example.com": ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"],
                "sneaky.example.com": ["93.184.215.14", "10.1.2.3"],
                "local.example.com": ["127.0.0.1"]})


@pytest.mark.parametrize("url", [
    "https://hooks.example.com/donkey?x=1", "http://hooks.example.com:443/",
    "http://93.184.215.14/", "https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/"])
def test_public_http_urls_are_allowed(url):
    target = TargetPolicy().check(url, DNS)
    assert target.addresses and target.scheme in ("http", "https")


@pytest.mark.parametrize("url, why", [
    ("ftp://hooks.example.com/", "only http"),
    ("file:///etc/passwd", "only http"),
    ("http://user:secret@hooks.example.com/", "credentials"),
    ("http:///nohost", "no host"),
    ("http://bad_host!/", "not a valid host"),
    ("http://hooks.example.com:99999/", "valid URL"),
    ("http://127.0.0.1/", "loopback"),
    ("http://local.example.com/", "loopback"),  # a name is judged by its addresses
    ("http://sneaky.example.com/", "private"),  # every address, not only the first
    ("http://10.0.0.1/", "private"),
    ("http://172.16.5.4/", "private"),
    ("http://192.168.0.10/", "private"),
    ("http://169.254.169.254/", "link-local"),
    ("http://[fe80::1]/", "link-local"),
    ("http://[::1]/", "loopback"),
    ("http://0.0.0.0/", "unspecified"),
    ("http://[::]/", "unspecified"),
    ("http://239.1.2.3/", "multicast"),
    ("http://240.0.0.1/", "reserved"),
    ("http://100.64.0.1/", "not a public address"),  # shared address space (CGNAT)
    ("http://[::ffff:192.168.0.1]/", "private"),  # IPv4-mapped
    ("http://[fd00::1]/", "private"),
    # Every special-purpose block, also those Python's flags take for global ones.
    ("http://192.0.0.8/", "special-purpose address \\(IETF protocol assignments\\)"),
    ("http://192.0.0.9/", "special-purpose"),  # PCP anycast: "globally reachable", refused
    ("http://192.31.196.1/", "AS112"),
    ("http://192.52.193.1/", "AMT"),
    ("http://192.88.99.1/", "6to4 relay anycast"),
    ("http://198.18.0.1/", "benchmarking|private|not a public"),
    ("http://255.255.255.255/", "broadcast|reserved|not a public"),
    # IPv6 forms that carry an IPv4 address.
    ("http://[2002:7f00:1::]/", "6to4, carrying 127.0.0.1"),
    ("http://[2002:5db8:d70e::]/", "6to4, carrying 93.184.215.14"),  # all of 6to4
    ("http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "private|Teredo"),
    ("http://[64:ff9b::7f00:1]/", "reserved|NAT64"),
    ("http://[64:ff9b:1::a00:1]/", "reserved|translation"),
    ("http://[::ffff:7f00:1]/", "loopback"),
    ("http://[3fff::1]/", "documentation|not a public"),
    ("http://[5f00::1]/", "SRv6|not a public|reserved"),
    # Ports: never 0; 80 and 443 only, unless the server allows others.
    ("http://hooks.example.com:0/", "port 0"),
    ("http://93.184.215.14:0/", "port 0"),
    ("http://hooks.example.com:8080/", "port 8080 is not allowed"),
    ("https://hooks.example.com:22/", "port 22 is not allowed"),
])
def test_urls_that_are_not_http_or_not_public_are_refused(url, why):
    with pytest.raises(TargetRefused, match=why) as refused:
        TargetPolicy().check(url, DNS)
    assert refused.value.code == "url_not_allowed"


def test_an_unresolvable_host_is_its_own_error():
    with pytest.raises(TargetUnresolvable) as err:
        TargetPolicy().check("http://nowhere.example.com/", DNS)
    assert err.value.code == "url_unresolvable"


def test_every_block_is_checked_through_the_special_purpose_table():
    from domain.webhooks.special_addresses import special_purpose
    assert special_purpose(ipaddress.ip_address("192.0.0.8")) == "IETF protocol assignments"
    assert special_purpose(ipaddress.ip_address("2001::1")) == "Teredo, carrying 0.0.0.0"
    assert special_purpose(ipaddress.ip_address("93.184.215.14")) is None
    assert special_purpose(ipaddress.ip_address("2606:2800:21f::1")) is None


def test_allowed_ports_add_to_80_and_443():
    policy = TargetPolicy.allowing(None, "8080, 9000-9100")
    assert policy.check("http://hooks.example.com:8080/", DNS).port == 8080
    assert policy.check("http://hooks.example.com:9100/", DNS).port == 9100
    assert policy.check("http://hooks.example.com/", DNS).port == 80
    with pytest.raises(TargetRefused, match="port 9101"):
        policy.check("http://hooks.example.com:9101/", DNS)
    with pytest.raises(TargetRefused, match="port 0"):
        TargetPolicy.allowing(None, "1-65535").check("http://hooks.example.com:0/", DNS)
    with pytest.raises(ValueError):
        TargetPolicy.allowing(None, "0-80")


def test_allowed_networks_let_loopback_through_and_nothing_else():
    policy = TargetPolicy.allowing("127.0.0.0/8, ::1/128", "8080")
    assert policy.check("http://127.0.0.1:8080/hook", DNS).port == 8080
    assert policy.check("http://local.example.com/", DNS).addresses == ("127.0.0.1",)
    assert policy.check("http://[::1]/", DNS).addresses == ("::1",)
    with pytest.raises(TargetRefused):
        policy.check("http://10.0.0.1/", DNS)
    assert TargetPolicy.allowing("") == TargetPolicy() == TargetPolicy.allowing(None)


# --- retries ---------------------------------------------------------------------------
def test_the_retry_delays_grow_exponentially_and_are_bounded():
    policy = RetryPolicy(max_attempts=6, first_delay_s=10, factor=4, max_delay_s=3600)
    assert [policy.delay_after(n) for n in range(1, 7)] == [10, 40, 160, 640, 2560, None]
    assert RetryPolicy(max_attempts=9, first_delay_s=10, factor=4).delay_after(7) == 3600
    configured = RetryPolicy.from_settings({"WEBHOOK_MAX_ATTEMPTS": "3",
                                            "WEBHOOK_RETRY_FIRST_S": "0.5"})
    assert (configured.max_attempts, configured.first_delay_s, configured.factor) == (3, 0.5, 4)


def test_a_delivery_is_retried_until_its_last_attempt_then_failed():
    policy = RetryPolicy(max_attempts=3, first_delay_s=1, factor=2)
    d = Delivery(id="dlv_1", game_id="g", hook_id="hook_1", kind="your_turn", version=5,
                 created_at=0.0, body="{}")
    d = after_attempt(d, Attempt(number=1, at=100.0, duration_ms=500.0, status_code=500), policy)
    assert (d.status, d.next_attempt_at) == (PENDING, 101.5)
    d = after_attempt(d, Attempt(number=2, at=102.0, duration_ms=0.0, error="timeout"), policy)
    assert (d.status, d.next_attempt_at) == (PENDING, 104.0)
    d = after_attempt(d, Attempt(number=3, at=104.0, duration_ms=1.0, status_code=404), policy)
    assert (d.status, d.next_attempt_at, len(d.attempts)) == (FAILED, None, 3)
    ok = after_attempt(d, Attempt(number=1, at=1.0, duration_ms=1.0, status_code=204), policy)
    assert ok.status == DELIVERED
    refused = Delivery(id="dlv_2", game_id="g", hook_id="h", kind="events", version=1,
                       created_at=0.0, body="{}")
    refused = after_attempt(refused, Attempt(number=1, at=1.0, duration_ms=0.0, error="no"),
                            policy, retryable=False)
    assert refused.status == FAILED


# --- triggers --------------------------------------------------------------------------
class Fold:
    """The test game's table, advanced one append at a time as the service would."""

    def __init__(self, players: int = 3) -> None:
        self.table: Table | None = None
        self.clock = 1000.0
        created = event("game_created", id="g1", type="high-card", options={"cards": 2},
                        seats=[{"kind": "human"}] * players, deadline_s=60.0,
                        on_timeout="autoplay", bot_delay_s=0.0, seed_hash="x")
        self.append([created, *(event("player_joined", seat=s, name=f"p{s}")
                                for s in range(players))])

    def append(self, new: list[Event]) -> list[Event]:
        self.clock += 10
        version = self.table.version if self.table else 0
        stamped = stamp(new, version + 1, self.clock, self.table.last_hash if self.table else "",
                        commitment_key("seed"))
        for ev in stamped:
            self.table = evolve_table(self.table, ev, HIGH_CARD)
        return stamped

    def start(self) -> list[Event]:
        deal = event("dealt", private={0: {"hand": [1, 2]}, 1: {"hand": [3, 4]},
                                       2: {"hand": [5, 6]}})
        return self.append([event("game_started"), deal])

    def play(self, seat: int, card: int, **data: object) -> list[Event]:
        return self.append([event("played", actor=seat, card=card, **data)])


def test_your_turn_goes_to_the_seat_that_starts_waiting():
    fold = Fold()
    assert newly_to_act(fold.table, []) == []
    started = fold.start()
    assert newly_to_act(fold.table, started) == [0]
    played = fold.play(0, 1)
    assert newly_to_act(fold.table, played) == [1]
    # A seat auto-played after a timeout did not move itself.
    timed_out = fold.append([event("turn_timed_out", seat=1),
                             event("played", actor=1, card=3, auto="timeout")])
    assert newly_to_act(fold.table, timed_out) == [2]


def test_a_seat_that_moves_and_must_move_again_is_not_told():
    fold = Fold(players=3)
    fold.start()
    # Seat 0 plays, and (in this batch) so do seats 1 and 2: seat 0 is to act again.
    batch = fold.append([event("played", actor=0, card=1), event("played", actor=1, card=3),
                         event("played", actor=2, card=5)])
    assert fold.table.waiting_since == {0: batch[0].at}
    assert newly_to_act(fold.table, batch) == []


def test_notifications_per_registration_are_redacted_for_its_viewer():
    fold = Fold()
    seat1 = new_registration("g1", 1, "https://x.example/", ("your_turn", "events"), 0.0)
    creator = new_registration("g1", None, "https://x.example/",
                               ("your_turn", "game_finished", "events"), 0.0)
    started = fold.start()
    assert [n.kind for n in notifications_for(seat1, fold.table, started)] == ["events"]
    [turn, events] = notifications_for(creator, fold.table, started)
    assert turn.data == {"seats": [{"seat": 0, "deadline": started[-1].at + 60.0}]}
    assert [e["private"] for e in events.data["events"]] == [{}, {}]
    [seat_events] = [n for n in notifications_for(seat1, fold.table, started)]
    assert seat_events.data["events"][1]["private"] == {"1": {"hand": [3, 4]}}
    played = fold.play(0, 1)
    assert [n.kind for n in notifications_for(seat1, fold.table, played)] == [
        "your_turn", "events"]


def test_game_finished_is_told_and_reveals_the_last_append():
    fold = Fold(players=2)
    fold.append([event("game_started"),
                 event("dealt", private={0: {"hand": [9]}, 1: {"hand": [4]}})])
    fold.play(0, 9)
    last = fold.append([event("played", actor=1, card=4),
                        event("game_finished", seed="s", outcome={"places": [1, 2]})])
    seat0 = new_registration("g1", 0, "https://x.example/",
                             ("your_turn", "game_finished"), 0.0)
    [finished] = notifications_for(seat0, fold.table, last)
    assert finished.kind == "game_finished"
    assert finished.data == {"outcome": {"places": [1, 2]}, "seed": "s"}
