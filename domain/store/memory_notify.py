"""The `NotifyStore` port in memory, behaving as the Redis one (one contract test)."""

from __future__ import annotations

import secrets
import threading

from domain.notify.digest import NotifyState
from domain.notify.links import address_digest
from domain.notify.prefs import Preferences
from domain.notify.records import (
    MOVED_KEPT_S,
    NotifyRecord,
    PlayerHook,
    Presence,
    PushSubscription,
)


class MemoryNotifyStore:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._fields: dict[str, dict[str, object]] = {}
        self._present: dict[str, dict[str, float]] = {}
        self._moved: dict[str, dict[str, float]] = {}
        self._subs: dict[str, dict[str, PushSubscription]] = {}
        self._hooks: dict[str, dict[str, PlayerHook]] = {}
        self._due: dict[str, float] = {}
        self._secrets: dict[str, bytes] = {}

    def _of(self, player_id: str) -> dict[str, object]:
        return self._fields.setdefault(player_id, {})

    def record(self, player_id: str) -> NotifyRecord:
        with self._lock:
            found = dict(self._fields.get(player_id, {}))
        prefs = found.get("prefs")
        state = found.get("state")
        return NotifyRecord(prefs if isinstance(prefs, Preferences) else Preferences(),
                            found.get("email"),  # type: ignore[arg-type]
                            found.get("pending"),  # type: ignore[arg-type]
                            "confirm_sent" in found,
                            state if isinstance(state, NotifyState) else NotifyState())

    def save_prefs(self, player_id: str, prefs: Preferences,
                   state: NotifyState | None = None) -> None:
        with self._lock:
            self._of(player_id)["prefs"] = prefs
            if state is not None:
                self._of(player_id)["state"] = state

    def set_address(self, player_id: str, address: str | None) -> None:
        with self._lock:
            fields = self._of(player_id)
            fields.pop("confirm_sent", None)
            if address is None:
                fields.pop("email", None)
                fields.pop("pending", None)
            else:
                fields["pending"] = address

    def confirm_address(self, player_id: str, digest: str) -> bool:
        with self._lock:
            fields = self._of(player_id)
            pending = fields.get("pending")
            if not isinstance(pending, str) or address_digest(pending) != digest:
                return False
            fields["email"] = fields.pop("pending")
            fields.pop("confirm_sent", None)
            return True

    def unsubscribe(self, player_id: str, digest: str) -> bool:
        with self._lock:
            fields = self._of(player_id)
            email = fields.get("email")
            if not isinstance(email, str) or address_digest(email) != digest:
                return False
            del fields["email"]
            return True

    def confirmation_sent(self, player_id: str) -> None:
        with self._lock:
            self._of(player_id)["confirm_sent"] = True

    def save_state(self, player_id: str, state: NotifyState) -> None:
        with self._lock:
            self._of(player_id)["state"] = state

    def mark_present(self, player_id: str, what: str, until: float) -> None:
        with self._lock:
            self._present.setdefault(player_id, {})[what] = until

    def moved(self, player_id: str, game_id: str, at: float) -> None:
        """A player's move (the memory player store writes it here, as the Redis one
        writes it into the same database)."""
        with self._lock:
            self._moved.setdefault(player_id, {})[game_id] = at

    def presence(self, player_id: str, now: float) -> Presence:
        with self._lock:
            present = {g: u for g, u in self._present.get(player_id, {}).items() if u > now}
            self._present[player_id] = dict(present)
            moved = {g: a for g, a in self._moved.get(player_id, {}).items()
                     if a > now - MOVED_KEPT_S}
            self._moved[player_id] = dict(moved)
            subs = len(self._subs.get(player_id, {}))
            hooks = sorted(self._hooks.get(player_id, {}).values(), key=lambda h: h.created_at)
        return Presence(present, moved, subs, hooks)

    def subscribe(self, player_id: str, sub: PushSubscription, limit: int) -> bool:
        with self._lock:
            kept = self._subs.setdefault(player_id, {})
            if sub.id not in kept and len(kept) >= limit:
                return False
            kept[sub.id] = sub
            return True

    def unsubscribe_push(self, player_id: str, sub_id: str) -> bool:
        with self._lock:
            return self._subs.get(player_id, {}).pop(sub_id, None) is not None

    def subscriptions(self, player_id: str) -> list[PushSubscription]:
        with self._lock:
            return sorted(self._subs.get(player_id, {}).values(), key=lambda s: s.created_at)

    def add_hook(self, player_id: str, hook: PlayerHook, limit: int) -> bool:
        with self._lock:
            kept = self._hooks.setdefault(player_id, {})
            if hook.id not in kept and len(kept) >= limit:
                return False
            kept[hook.id] = hook
            return True

    def remove_hook(self, player_id: str, hook_id: str) -> bool:
        with self._lock:
            return self._hooks.get(player_id, {}).pop(hook_id, None) is not None

    def hooks(self, player_id: str) -> list[PlayerHook]:
        with self._lock:
            return sorted(self._hooks.get(player_id, {}).values(), key=lambda h: h.created_at)

    def claim(self, now: float, lease_s: float, limit: int) -> tuple[list[str], float]:
        lease = now + lease_s
        with self._lock:
            due = sorted((at, p) for p, at in self._due.items() if at <= now)[:limit]
            for _at, player_id in due:
                self._due[player_id] = lease
        return [p for _at, p in due], lease

    def release(self, player_id: str, lease: float, next_look: float | None) -> None:
        with self._lock:
            score = self._due.get(player_id)
            if score is None:
                return
            if score == lease:
                if next_look is None:
                    del self._due[player_id]
                else:
                    self._due[player_id] = next_look
            elif next_look is not None and next_look < score:
                self._due[player_id] = next_look

    def due_now(self, player_id: str, at: float) -> None:
        with self._lock:
            self._due[player_id] = min(at, self._due.get(player_id, at))

    def kept_secret(self, key: str, make: bytes) -> bytes:
        with self._lock:
            return self._secrets.setdefault(key, make)

    def link_secret(self) -> bytes:
        return self.kept_secret("notify:secret", secrets.token_bytes(32))

    def erase(self, player_id: str) -> None:
        with self._lock:
            for kept in (self._fields, self._present, self._moved, self._subs, self._hooks,
                         self._due):
                kept.pop(player_id, None)  # type: ignore[attr-defined]
