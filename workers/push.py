"""Sending Web Push: the payload encrypted for each of a player's subscriptions (aes128gcm,
with `pywebpush`'s encoder), a VAPID JWT for the push service (`py_vapid`), posted to the
subscription's endpoint after the webhook targets' checks, to the checked address
(`workers.webhook_sender`). A push service that answers 404 or 410 says the subscription
is gone: it is deleted.

The VAPID key pair is `VAPID_PRIVATE_KEY` (PEM) when given, else one made when a process
first needs it and kept in Redis (`notify:vapid`), so every process signs with the same
key and browsers' subscriptions outlive restarts. Its public key (uncompressed P-256
point, base64url) is what `GET /push/key` serves for `PushManager.subscribe`.
"""

from __future__ import annotations

import base64
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx
from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02
from pywebpush import WebPusher

from domain.notify import push
from domain.notify.mail import Links
from domain.notify.records import PushSubscription
from domain.store import keys
from domain.store.port import NotifyStore
from domain.webhooks.targets import TargetPolicy, TargetRefused
from workers import webhook_sender

log = logging.getLogger(__name__)
GONE = (404, 410)


def vapid_key(store: NotifyStore, configured: str | None) -> Vapid02:
    """The server's VAPID key: configured, else kept in Redis (made by the first asker)."""
    if configured:
        return Vapid02.from_pem(configured.encode())
    made = Vapid02()
    made.generate_keys()
    return Vapid02.from_pem(store.kept_secret(keys.VAPID_KEY, made.private_pem()))


def public_key(vapid: Vapid02) -> str:
    raw = vapid.public_key.public_bytes(serialization.Encoding.X962,
                                        serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


JWT_KEPT_S = 12 * 3600  # a VAPID JWT is made for 24 h: reused for half of it


@dataclass
class PushSender:
    """Sends pushes over one pool of connections (kept per push service address), each
    signed with a VAPID JWT made once per push service for `JWT_KEPT_S`."""

    store: NotifyStore
    vapid: Callable[[], Vapid02 | None]  # the server's key (read when first needed)
    subject: str  # `VAPID_SUBJECT`: a mailto: or https: contact for the push services
    links: Links
    targets: TargetPolicy
    timeout_s: float = 5.0
    post: Callable[..., webhook_sender.Answer] = webhook_sender.post
    _client: httpx.Client = field(default_factory=webhook_sender.new_client)
    _signed: dict[str, tuple[float, dict[str, str]]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def _authorization(self, audience: str) -> dict[str, str]:
        """The VAPID header for a push service (`audience`: its origin)."""
        now = time.time()
        with self._lock:
            kept = self._signed.get(audience)
            if kept is None or kept[0] < now:
                kept = (now + JWT_KEPT_S, self._key().sign({
                    "sub": self.subject, "aud": audience,
                    "exp": int(now + 2 * JWT_KEPT_S)}))
                self._signed[audience] = kept
            return kept[1]

    def _key(self) -> Vapid02:
        key = self.vapid()
        if key is None:
            raise RuntimeError("Web Push is off: no VAPID key")
        return key

    def send_to_player(self, player_id: str, entry: dict[str, Any]) -> tuple[int, int]:
        """Push `entry` to every subscription of the player; how many took it, and how
        many did not (a push service's refusal, no answer, or a subscription gone)."""
        took = failed = 0
        for sub in self.store.subscriptions(player_id):
            status = self.send(sub, entry)
            if status in GONE:
                self.store.unsubscribe_push(player_id, sub.id)
            if status is not None and 200 <= status < 300:
                took += 1
            else:
                failed += 1
        return took, failed

    def send(self, sub: PushSubscription, entry: dict[str, Any]) -> int | None:
        """One push; the push service's status (None: not sent)."""
        try:
            target = self.targets.check(sub.endpoint)
        except TargetRefused as err:
            log.info("push to %s refused: %s", sub.id, err.message)
            return None
        body = WebPusher({"endpoint": sub.endpoint, "keys": {
            "p256dh": sub.p256dh, "auth": sub.auth}}).encode(
                push.payload(entry, self.links), "aes128gcm")["body"]
        parts = urlsplit(sub.endpoint)
        audience = f"{parts.scheme}://{parts.netloc}"
        headers = {**push.headers(entry), "Content-Encoding": "aes128gcm",
                   "Content-Type": "application/octet-stream",
                   **self._authorization(audience)}
        answer = self.post(target, body, headers, self.timeout_s, client=self._client)
        if answer.status_code is None:
            log.info("push to %s failed: %s", sub.id, answer.error)
        return answer.status_code
