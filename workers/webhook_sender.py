"""One attempt to send a delivery: a signed POST to an address that was just checked.

The request goes to the checked address itself (with the URL's host in `Host` and, for
https, in SNI and certificate checks), so DNS cannot swap in another address between the
check and the connection. No redirects are followed (a redirect could lead anywhere) and
no proxy from the environment is used. Only the status code is read, never the body.
"""

from __future__ import annotations

import contextlib
import functools
import ssl
import time
from dataclasses import dataclass

import httpx

from domain.webhooks.targets import Target

USER_AGENT = "donkeypost-webhooks/1"


@dataclass(frozen=True)
class Answer:
    status_code: int | None
    error: str | None
    duration_ms: float


def post(target: Target, body: bytes, headers: dict[str, str], timeout_s: float,
         connect_timeout_s: float | None = None, client: httpx.Client | None = None) -> Answer:
    """`connect_timeout_s` bounds the connection (default: `timeout_s`), `timeout_s` each
    read and write. `client`: one made by `client()`, whose connections are kept for the
    next post to the same address (else a connection for this post alone)."""
    address = target.addresses[0]
    in_url = f"[{address}]" if ":" in address else address
    url = f"{target.scheme}://{in_url}:{target.port}{target.path}"
    host = f"[{target.host}]" if ":" in target.host else target.host
    default_port = 443 if target.scheme == "https" else 80
    host_header = host if target.port == default_port else f"{host}:{target.port}"
    extensions = {"sni_hostname": target.host} if target.scheme == "https" else {}
    started = time.perf_counter()
    timeout = httpx.Timeout(timeout_s, connect=connect_timeout_s or timeout_s)
    try:
        with contextlib.ExitStack() as stack:
            if client is None:
                client = stack.enter_context(new_client())
            response = stack.enter_context(client.stream(
                "POST", url, content=body, extensions=extensions, timeout=timeout,
                headers={**headers, "Host": host_header, "User-Agent": USER_AGENT}))
            status = response.status_code
    except httpx.HTTPError as err:
        return Answer(None, f"{type(err).__name__}: {err}"[:300], _ms_since(started))
    return Answer(status, None, _ms_since(started))


def new_client() -> httpx.Client:
    """A client as every post uses: no redirects, no proxy from the environment."""
    return httpx.Client(follow_redirects=False, trust_env=False, verify=_tls_context())


@functools.cache
def _tls_context() -> ssl.SSLContext:
    # Building one loads the CA bundle (~20 ms): once per process, not once per attempt.
    return httpx.create_ssl_context()


def _ms_since(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)
