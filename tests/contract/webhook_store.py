"""The `WebhookStore` contract: registrations per game, deliveries newest first, the latest
`DELIVERIES_KEPT` per registration. A subclass provides `store`."""

from __future__ import annotations

import threading
import time

import msgspec
import pytest

from domain.store.port import DELIVERIES_KEPT, WebhookStore
from domain.webhooks.deliveries import DELIVERED, Delivery
from domain.webhooks.receivers import ReceiverBackoff
from domain.webhooks.registration import new_registration


def _delivery(n: int, hook_id: str, game_id: str = "g1") -> Delivery:
    return Delivery(id=f"d{n}", game_id=game_id, hook_id=hook_id, kind="your_turn",
                    version=n, created_at=float(n), body=f'{{"n": {n}}}')


class WebhookStoreContract:
    @pytest.fixture
    def store(self) -> WebhookStore:
        raise NotImplementedError("a subclass gives the store under test")

    def test_registrations_of_a_game_oldest_first(self, store):
        later = new_registration("g1", 0, "https://a.example/x", ("your_turn",), 2.0)
        first = new_registration("g1", None, "https://b.example/y", ("events",), 1.0)
        other = new_registration("g2", 1, "https://c.example/z", ("your_turn",), 0.5)
        for reg in (later, first, other):
            assert store.add(reg, limit=5)
        assert store.registrations("g1") == [first, later]
        assert store.registration("g1", later.id) == later
        assert store.registration("g2", later.id) is None
        assert store.registrations("g3") == []

    def test_an_owner_holds_at_most_the_limit_and_others_are_not_counted(self, store):
        def reg(seat: int | None, n: int):
            return new_registration("g1", seat, f"https://a.example/{n}", ("your_turn",),
                                    float(n))

        assert [store.add(reg(0, n), limit=2) for n in range(3)] == [True, True, False]
        assert [store.add(reg(None, n), limit=2) for n in range(3)] == [True, True, False]
        assert store.add(reg(1, 9), limit=2)
        assert store.add(new_registration("g2", 0, "https://b.example/", ("events",), 1.0),
                         limit=2)  # another game
        held = [r.seat for r in store.registrations("g1")]
        assert sorted(held, key=str) == sorted([0, 0, None, None, 1], key=str)

    def test_concurrent_registrations_never_pass_the_limit(self, store):
        barrier = threading.Barrier(20)
        added: list[bool] = []

        def register(n: int) -> None:
            reg = new_registration("g1", 0, f"https://a.example/{n}", ("your_turn",),
                                   float(n))
            barrier.wait()
            added.append(store.add(reg, limit=5))

        threads = [threading.Thread(target=register, args=(n,)) for n in range(20)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert added.count(True) == 5 and len(store.registrations("g1")) == 5

    def test_removing_a_registration_drops_its_list_of_deliveries(self, store):
        reg = new_registration("g1", 0, "https://a.example/x", ("your_turn",), 1.0)
        assert store.add(reg, limit=5)
        store.add_deliveries([_delivery(1, reg.id)])
        assert store.remove("g1", reg.id) is True
        assert store.remove("g1", reg.id) is False
        assert store.registration("g1", reg.id) is None
        assert store.deliveries("g1", reg.id) == []

    def test_deliveries_newest_first_and_saved_again_after_an_attempt(self, store):
        store.add_deliveries([_delivery(1, "h1"), _delivery(2, "h1"), _delivery(3, "h2")])
        assert [d.id for d in store.deliveries("g1", "h1")] == ["d2", "d1"]
        assert [d.id for d in store.deliveries("g1", "h1", limit=1)] == ["d2"]
        done = msgspec.structs.replace(_delivery(1, "h1"), status=DELIVERED)
        store.save_delivery(done)
        assert store.delivery("g1", "d1") == done
        assert store.delivery("g1", "nope") is None
        assert store.deliveries("g1", "h1")[1] == done

    def test_only_the_latest_deliveries_are_listed(self, store):
        store.add_deliveries([_delivery(n, "h1") for n in range(DELIVERIES_KEPT + 5)])
        listed = store.deliveries("g1", "h1", limit=DELIVERIES_KEPT + 5)
        assert len(listed) == DELIVERIES_KEPT
        assert listed[0].id == f"d{DELIVERIES_KEPT + 4}" and listed[-1].id == "d5"

    def test_a_receivers_streak_is_kept_per_origin_and_forgotten_when_it_answers(self, store):
        backoff = ReceiverBackoff(first_s=5.0, factor=2.0, max_s=600.0)
        now = time.time()
        assert store.receiver("http://a.example:80") is None
        first = backoff.after_failure(None, now)
        store.save_receiver("http://a.example:80", first)
        second = backoff.after_failure(store.receiver("http://a.example:80"), now)
        store.save_receiver("http://a.example:80", second)
        assert store.receiver("http://a.example:80") == second
        assert (second.failures, second.blocked_until) == (2, now + 10.0)
        assert store.receiver("http://b.example:80") is None  # another receiver
        store.save_receiver("http://a.example:80", None)
        assert store.receiver("http://a.example:80") is None
