"""The signed links of the e-mails: confirm an address, unsubscribe from e-mail.

A link's token is `<purpose>.<player id>.<expiry>.<address digest>.<signature>`: the
signature is HMAC-SHA256 under the server's secret (`NOTIFY_SECRET`, else one made on
first start and kept) over everything before it, so a token cannot be made or changed
without the secret; the address digest ties a token to the address it was sent to (a
token for an old address does nothing once the player set another). Tokens carry no
address in clear: a link seen in a log gives no address away.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import NamedTuple

CONFIRM, UNSUBSCRIBE = "confirm", "unsubscribe"
# What a token made here looks like (a player id, an expiry in epoch seconds, 12 bytes of
# the address' digest and 24 of the signature, base64url): the API's schema states it, so
# only a token of this shape reaches `read_token`.
TOKEN_PATTERN = (r"^(confirm|unsubscribe)\.[A-Za-z0-9_-]{1,64}\.[0-9]{1,12}\."
                 r"[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{32}$")
CONFIRM_TTL_S = 3 * 24 * 3600
UNSUBSCRIBE_TTL_S = 365 * 24 * 3600


class LinkToken(NamedTuple):
    purpose: str
    player_id: str
    address_digest: str


def address_digest(address: str) -> str:
    return base64.urlsafe_b64encode(
        hashlib.sha256(address.strip().lower().encode()).digest()[:12]).decode().rstrip("=")


def make_token(secret: bytes, purpose: str, player_id: str, address: str,
               now: float, ttl_s: float) -> str:
    body = f"{purpose}.{player_id}.{int(now + ttl_s)}.{address_digest(address)}"
    return f"{body}.{_sign(secret, body)}"


def read_token(secret: bytes, token: str, now: float) -> LinkToken | None:
    """The token's purpose, player and address digest; None for a token not made here,
    changed, or expired."""
    parts = token.split(".")
    if len(parts) != 5 or len(token) > 300:
        return None
    purpose, player_id, expires, digest, signature = parts
    body = ".".join(parts[:4])
    if not hmac.compare_digest(_sign(secret, body), signature):
        return None
    if not expires.isdigit() or int(expires) < now:
        return None
    return LinkToken(purpose, player_id, digest)


def _sign(secret: bytes, body: str) -> str:
    mac = hmac.new(secret, body.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:24]).decode().rstrip("=")
