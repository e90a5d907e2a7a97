"""A Web Push service stand-in on loopback, and a browser's subscription to it.

The subscription is made as a browser makes one: a P-256 key pair and a 16-byte auth
secret (`BrowserSubscription`). The stand-in receives each push, checks the VAPID
`Authorization` (an ES256 JWT signed by the key it names, for this service's origin, not
expired) and decrypts the aes128gcm body with the subscription's private key and auth
secret; it answers 201, or 410 for an endpoint marked gone.
"""

from __future__ import annotations

import base64
import json
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class BrowserSubscription:
    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: secrets.token_bytes(16))

    def as_json(self) -> dict[str, Any]:
        """What `PushSubscription.toJSON()` gives a page."""
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": b64(public), "auth": b64(self.auth)}}


@dataclass
class Push:
    path: str
    headers: dict[str, str]
    payload: dict[str, Any] | None  # decrypted (None: could not be)
    claims: dict[str, Any] | None  # the VAPID JWT's, once its signature checked
    vapid_key: str | None
    at: float


@dataclass
class PushService:
    origin: str = ""
    subscriptions: dict[str, BrowserSubscription] = field(default_factory=dict)
    gone: set[str] = field(default_factory=set)  # paths answered 410
    pushes: list[Push] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def subscribe(self, name: str) -> BrowserSubscription:
        sub = BrowserSubscription(f"{self.origin}/push/{name}")
        self.subscriptions[f"/push/{name}"] = sub
        return sub

    def received(self, body: bytes, path: str, headers: dict[str, str]) -> int:
        claims, key = _vapid(headers.get("authorization", ""), self.origin)
        sub = self.subscriptions.get(path)
        payload = None
        if sub is not None:
            try:
                payload = json.loads(http_ece.decrypt(body, private_key=sub.key,
                                                      auth_secret=sub.auth,
                                                      version="aes128gcm"))
            except Exception:
                payload = None
        with self.lock:
            self.pushes.append(Push(path, headers, payload, claims, key, time.time()))
        return 410 if path in self.gone else 201

    def wait_for(self, count: int, timeout_s: float = 10.0) -> list[Push]:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.pushes) >= count:
                    return list(self.pushes)
            time.sleep(0.02)
        with self.lock:
            return list(self.pushes)


def _vapid(header: str, origin: str) -> tuple[dict[str, Any] | None, str | None]:
    """The JWT's claims if `Authorization: vapid t=<jwt>,k=<key>` is signed by that key,
    for `origin`, not expired; else None."""
    if not header.startswith("vapid "):
        return None, None
    fields = dict(part.split("=", 1) for part in header[6:].split(","))
    token, key = fields.get("t", ""), fields.get("k")
    try:
        head, claims, signature = token.split(".")
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(key or ""))
        raw = unb64(signature)
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"),
                                   int.from_bytes(raw[32:], "big"))
        public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except Exception:
        return None, key
    decoded: dict[str, Any] = json.loads(unb64(claims))
    if json.loads(unb64(head)).get("alg") != "ES256" or decoded.get("aud") != origin or \
            decoded.get("exp", 0) < time.time():
        return None, key
    return decoded, key


@contextmanager
def push_service() -> Iterator[PushService]:
    service = PushService()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            status = service.received(body, self.path,
                                      {k.lower(): v for k, v in self.headers.items()})
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service.origin = f"http://127.0.0.1:{server.server_port}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
