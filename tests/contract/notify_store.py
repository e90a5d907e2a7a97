"""The `NotifyStore` contract: a player's notification record (preferences, an address that
waits for its confirmation, the notifier's places), presence, bounded push subscriptions
and webhooks, and the due players taken with a lease. A subclass provides `store`."""

from __future__ import annotations

import pytest

from domain.notify.digest import NotifyState
from domain.notify.links import address_digest
from domain.notify.prefs import Preferences
from domain.notify.records import PlayerHook, PushSubscription
from domain.store.port import NotifyStore


def _sub(n: int) -> PushSubscription:
    return PushSubscription(id=f"s{n}", endpoint=f"https://push.example/{n}", p256dh="B" * 87,
                            auth="A" * 22, created_at=float(n))


class NotifyStoreContract:
    @pytest.fixture
    def store(self) -> NotifyStore:
        raise NotImplementedError("a subclass gives the store under test")

    def test_a_record_starts_empty_and_keeps_what_is_saved(self, store):
        record = store.record("p1")
        assert record.prefs == Preferences() and record.state == NotifyState()
        assert (record.email, record.pending, record.confirm_sent) == (None, None, False)
        prefs = Preferences(channels=("email",), digest_hours=3)
        store.save_prefs("p1", prefs, NotifyState(push_after="5-0", email_after="5-0"))
        store.save_state("p1", NotifyState(push_after="6-0", email_after="5-0"))
        record = store.record("p1")
        assert record.prefs == prefs and record.state.push_after == "6-0"

    def test_an_address_waits_for_its_own_confirmation(self, store):
        store.set_address("p1", "ann@example.org")
        store.confirmation_sent("p1")
        assert store.record("p1").confirm_sent
        assert not store.confirm_address("p1", address_digest("other@example.org"))
        assert store.confirm_address("p1", address_digest("ann@example.org"))
        record = store.record("p1")
        assert (record.email, record.pending, record.confirm_sent) == \
            ("ann@example.org", None, False)
        assert not store.unsubscribe("p1", address_digest("other@example.org"))
        assert store.unsubscribe("p1", address_digest("ann@example.org"))
        assert store.record("p1").email is None
        store.set_address("p1", "bob@example.org")
        store.set_address("p1", None)
        assert store.record("p1").pending is None

    def test_presence_ends_and_subscriptions_and_hooks_are_bounded(self, store):
        store.mark_present("p1", "g1", 100.0)
        store.mark_present("p1", "*", 50.0)
        assert store.presence("p1", 60.0).present == {"g1": 100.0}
        for n in range(3):
            assert store.subscribe("p1", _sub(n), 3)
        assert not store.subscribe("p1", _sub(9), 3)
        assert store.subscribe("p1", _sub(1), 3)  # the same one again: replaced
        assert [s.id for s in store.subscriptions("p1")] == ["s0", "s1", "s2"]
        assert store.unsubscribe_push("p1", "s0") and not store.unsubscribe_push("p1", "s0")
        hook = PlayerHook(id="h1", url="https://203.0.113.7/", kinds=("my_turn",),
                          secret="whsec_x", created_at=1.0)
        assert store.add_hook("p1", hook, 1)
        assert not store.add_hook("p1", PlayerHook(id="h2", url="https://203.0.113.7/",
                                                    kinds=(), secret="s", created_at=2.0), 1)
        presence = store.presence("p1", 60.0)
        assert presence.subscriptions == 2 and [h.id for h in presence.hooks] == ["h1"]
        assert store.remove_hook("p1", "h1") and store.hooks("p1") == []
        store.erase("p1")
        assert store.subscriptions("p1") == [] and store.presence("p1", 0.0).present == {}

    def test_due_players_are_leased_and_a_new_entry_keeps_them_due(self, store):
        store.due_now("p1", 10.0)
        store.due_now("p2", 10.0)
        store.due_now("p3", 99.0)
        store.due_now("p1", 20.0)  # (later than it is due: no change)
        taken, lease = store.claim(15.0, 60.0, 10)
        assert sorted(taken) == ["p1", "p2"] and lease == 75.0
        assert store.claim(16.0, 60.0, 10)[0] == []  # leased: nobody else takes them
        store.due_now("p2", 17.0)  # a new entry meanwhile
        store.release("p1", lease, None)
        store.release("p2", lease, 500.0)
        assert store.claim(18.0, 60.0, 10)[0] == ["p2"]  # due at 17, not 500
        # p1 is gone; p2's lease (until 78) ran out, as a dead notifier's would.
        assert sorted(store.claim(100.0, 60.0, 10)[0]) == ["p2", "p3"]

    def test_a_secret_is_the_first_one_kept(self, store):
        assert store.kept_secret("notify:test", b"one") == b"one"
        assert store.kept_secret("notify:test", b"two") == b"one"
        assert store.link_secret() == store.link_secret()
