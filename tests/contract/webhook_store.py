"""The `WebhookStore` contract: registrations per game, deliveries newest first, the latest
`DELIVERIES_KEPT` per registration. A subclass provides `store`."""

from __future__ import annotations

import msgspec
import pytest

from domain.store.port import DELIVERIES_KEPT, WebhookStore
from domain.webhooks.deliveries import DELIVERED, Delivery
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
            store.add(reg)
        assert store.registrations("g1") == [first, later]
        assert store.registration("g1", later.id) == later
        assert store.registration("g2", later.id) is None
        assert store.registrations("g3") == []

    def test_removing_a_registration_drops_its_list_of_deliveries(self, store):
        reg = new_registration("g1", 0, "https://a.example/x", ("your_turn",), 1.0)
        store.add(reg)
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
