"""The `WebhookStore` port in this process's memory, with the Redis store's behaviour:
registrations oldest first, deliveries kept `DELIVERY_TTL_S`, and per registration the
latest `DELIVERIES_KEPT` of them, newest first."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from domain.store.port import DELIVERIES_KEPT, DELIVERY_TTL_S, RECEIVER_KEPT_S
from domain.webhooks.deliveries import Delivery
from domain.webhooks.receivers import ReceiverState
from domain.webhooks.registration import Registration


class MemoryWebhookStore:
    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._registrations: dict[str, dict[str, Registration]] = {}
        self._deliveries: dict[tuple[str, str], tuple[float, Delivery]] = {}  # -> expiry
        self._latest: dict[tuple[str, str], list[str]] = {}  # (game, hook) -> newest first
        self._receivers: dict[str, tuple[float, ReceiverState]] = {}  # origin -> expiry
        self._lock = threading.Lock()

    # --- registrations -------------------------------------------------------------------
    def registrations(self, game_id: str) -> list[Registration]:
        with self._lock:
            found = list(self._registrations.get(game_id, {}).values())
        return sorted(found, key=lambda r: r.created_at)

    def registration(self, game_id: str, hook_id: str) -> Registration | None:
        with self._lock:
            return self._registrations.get(game_id, {}).get(hook_id)

    def add(self, reg: Registration, limit: int) -> bool:
        with self._lock:
            game = self._registrations.setdefault(reg.game_id, {})
            if sum(r.seat == reg.seat for r in game.values()) >= limit:
                return False
            game[reg.id] = reg
            return True

    def remove(self, game_id: str, hook_id: str) -> bool:
        with self._lock:
            self._latest.pop((game_id, hook_id), None)
            return self._registrations.get(game_id, {}).pop(hook_id, None) is not None

    # --- deliveries ----------------------------------------------------------------------
    def add_deliveries(self, deliveries: list[Delivery]) -> None:
        with self._lock:
            for d in deliveries:
                self._deliveries[(d.game_id, d.id)] = (self.clock() + DELIVERY_TTL_S, d)
                latest = self._latest.setdefault((d.game_id, d.hook_id), [])
                latest.insert(0, d.id)
                del latest[DELIVERIES_KEPT:]

    def save_delivery(self, delivery: Delivery) -> None:
        with self._lock:
            self._deliveries[(delivery.game_id, delivery.id)] = (
                self.clock() + DELIVERY_TTL_S, delivery)

    def delivery(self, game_id: str, delivery_id: str) -> Delivery | None:
        with self._lock:
            return self._live(game_id, delivery_id)

    def deliveries(self, game_id: str, hook_id: str, limit: int = DELIVERIES_KEPT
                   ) -> list[Delivery]:
        with self._lock:
            ids = self._latest.get((game_id, hook_id), [])[:limit]
            found = [self._live(game_id, i) for i in ids]
        return [d for d in found if d is not None]

    def _live(self, game_id: str, delivery_id: str) -> Delivery | None:
        found = self._deliveries.get((game_id, delivery_id))
        if found is None:
            return None
        if found[0] <= self.clock():
            del self._deliveries[(game_id, delivery_id)]
            return None
        return found[1]

    # --- receivers -----------------------------------------------------------------------
    def receiver(self, origin: str) -> ReceiverState | None:
        with self._lock:
            found = self._receivers.get(origin)
            if found is None or found[0] <= self.clock():
                return None
            return found[1]

    def save_receiver(self, origin: str, state: ReceiverState | None) -> None:
        with self._lock:
            if state is None:
                self._receivers.pop(origin, None)
            else:
                self._receivers[origin] = (state.blocked_until + RECEIVER_KEPT_S, state)
