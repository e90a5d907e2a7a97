"""A request body must arrive within a bounded time, or the connection is closed.

gunicorn's gevent worker waits as long as a client likes for the body it announced (a POST
whose body is shorter than its `Content-Length` held a connection for minutes, and a few
thousand of them stopped the web tier). This WSGI middleware reads the whole body before
the application sees the request, under one deadline for all of it (a `gevent.Timeout`:
a client that sends one byte now and then does not reset it). Past the deadline the client
gets `408 request_timeout` in the shared error shape, and the socket is shut for reading,
so that gunicorn ends the connection instead of waiting for the rest of the body. Bodies
are small (`max_bytes`; a larger announced one is left to the application's 413).

It acts where gevent runs the server (`donkeypost serve`, the Procfile); elsewhere (a
development server) requests pass through unchanged. Headers that never finish are the
server's or a reverse proxy's to bound (see the README).
"""

from __future__ import annotations

import contextlib
import io
import json
import socket
from collections.abc import Callable, Iterable
from typing import Any

from api.observe import request_id

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

DEFAULT_TIMEOUT_S = 10.0


def _gevent_timeout() -> Any:
    """gevent's Timeout when gevent has patched the sockets (its server is running)."""
    try:
        from gevent import Timeout, monkey
    except ImportError:
        return None
    return Timeout if monkey.is_module_patched("socket") else None


class BodyDeadline:
    def __init__(self, app: WsgiApp, timeout_s: float, max_bytes: int) -> None:
        self.app = app
        self.timeout_s = timeout_s
        self.max_bytes = max_bytes

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]
                 ) -> Iterable[bytes]:
        expected = _announced(environ)
        if expected == 0 or expected > self.max_bytes:  # (a view: no body, nothing to ask)
            return self.app(environ, start_response)
        timeout = _gevent_timeout()
        if timeout is None:
            return self.app(environ, start_response)
        source = environ["wsgi.input"]
        try:
            with timeout(self.timeout_s):
                body = source.read(expected) if expected > 0 else \
                    source.read(self.max_bytes + 1)
        except timeout:
            _stop_reading(environ)
            return _request_timeout(start_response, self.timeout_s)
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        return self.app(environ, start_response)


def _announced(environ: dict[str, Any]) -> int:
    """The body's announced length; -1 for a chunked body (length unknown), 0 for none."""
    encoding = environ.get("HTTP_TRANSFER_ENCODING")
    if encoding is not None and "chunked" in encoding.lower():
        return -1
    length = environ.get("CONTENT_LENGTH")
    if not length:
        return 0
    try:
        return max(0, int(length))
    except ValueError:
        return 0


def _stop_reading(environ: dict[str, Any]) -> None:
    """No more reads on this connection: gunicorn closes it after the answer."""
    sock = environ.get("gunicorn.socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RD)


def _request_timeout(start_response: Callable[..., Any], timeout_s: float) -> list[bytes]:
    body = json.dumps({"code": "request_timeout", "status": 408,
                       "message": f"the request body did not arrive within {timeout_s:g} s",
                       "request_id": request_id()}).encode()
    start_response("408 Request Timeout", [("Content-Type", "application/json"),
                                           ("Content-Length", str(len(body))),
                                           ("Connection", "close")])
    return [body]
