"""What every request leaves behind for the operator: its id, its log line, its metrics.

`Observed` is the outermost WSGI layer of the application. For each request it
- takes the client's `X-Request-ID` when it is well formed (1 to 128 characters of
  letters, digits and `._:;=+/@-`), else makes one (24 hex digits), and sends it back on the
  answer, whatever answered (a route, an error handler, the body deadline);
- keeps it, with the route's template and the game's id once routing found them, in a
  context variable (`current`), so that an error body (`api.errors`) and every log line
  written while the request runs (`donkeypost.logs`) carry it;
- when the answer is done (its last byte sent, or the client gone), writes one line on the
  `donkeypost.requests` logger: method, route template, status, duration, game id. Never
  the URL's query or a header: a stream ticket or a token never reaches a log;
- and hands the same figures to the metrics (`api.metrics`), when they are on.

A context variable is per greenlet under gevent and per thread under granian: a request
never sees another's id.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any, Protocol

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

HEADER = "X-Request-ID"
_CLIENT_ID = re.compile(r"[A-Za-z0-9._:;=+/@-]{1,128}")
UNMATCHED = "(unmatched)"  # the route of a request no rule matched (a 404, a bad path)

requests_log = logging.getLogger("donkeypost.requests")


@dataclass(slots=True)
class RequestInfo:
    """What is known of the request being answered (its route once routing found it)."""

    request_id: str
    method: str
    route: str = UNMATCHED
    game_id: str | None = None
    sink: RequestSink | None = None
    landed: Callable[[], None] | None = None  # the in-flight count's decrement


current: ContextVar[RequestInfo | None] = ContextVar("donkeypost_request", default=None)


def request_id() -> str | None:
    """The id of the request being answered, or None outside one."""
    info = current.get()
    return info.request_id if info is not None else None


def new_request_id() -> str:
    return os.urandom(12).hex()


def accepted_id(value: str | None) -> str:
    """The client's id when it is well formed, else a new one."""
    if value is not None and _CLIENT_ID.fullmatch(value):
        return value
    return new_request_id()


class RequestSink(Protocol):
    """Where a request's figures go (the metrics): `routed` once its route is known (the
    request is in flight; it returns what to call when it is no longer), `observe_request`
    when it is done."""

    def routed(self, route: str) -> Callable[[], None]: ...

    def observe_request(self, method: str, route: str, status: int,
                        duration_s: float) -> None: ...


_TEMPLATES: dict[str, str] = {}
_CONVERTER = re.compile(r"<(?:[a-z]+:)?([A-Za-z_]+)>")


def route_template(rule: str) -> str:
    """A Flask rule as the OpenAPI document writes it: `/games/{game_id}/actions`."""
    template = _TEMPLATES.get(rule)
    if template is None:
        template = _TEMPLATES[rule] = _CONVERTER.sub(r"{\1}", rule)
    return template


def note_route(rule: Any, view_args: dict[str, Any] | None) -> None:
    """Called once routing matched: the request's route template and game."""
    info = current.get()
    if info is None:
        return
    info.route = route_template(rule.rule)
    if info.sink is not None:
        info.landed = info.sink.routed(info.route)
    if view_args:
        game = view_args.get("game_id")
        if isinstance(game, str):
            info.game_id = game


class Observed:
    """The WSGI layer above (see the module's text). `log_requests`: one line per request;
    `sink`: the metrics, or None."""

    def __init__(self, app: WsgiApp, *, log_requests: bool = True,
                 sink: RequestSink | None = None) -> None:
        self.app = app
        self.log_requests = log_requests
        self.sink = sink

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]
                 ) -> Iterable[bytes]:
        started = time.perf_counter()
        info = RequestInfo(accepted_id(environ.get("HTTP_X_REQUEST_ID")),
                           environ.get("REQUEST_METHOD", ""), sink=self.sink)
        token = current.set(info)
        status = [0]
        header = (HEADER, info.request_id)
        beyond = beyond_limits(environ)

        def start(status_line: str, headers: list[tuple[str, str]],
                  exc_info: Any = None) -> Any:
            status[0] = int(status_line[:3])
            headers.append(header)
            return start_response(status_line, headers, exc_info)

        try:
            body = self.app(environ, start) if beyond is None else \
                _refuse(beyond, info.request_id, start)
        except BaseException:
            if info.landed is not None:
                info.landed()
            current.reset(token)
            raise
        return _Finishing(body, lambda: self._finish(info, status[0], started, token))

    def _finish(self, info: RequestInfo, status: int, started: float, token: Any) -> None:
        duration = time.perf_counter() - started
        try:
            if info.landed is not None:
                info.landed()
            if self.sink is not None:
                self.sink.observe_request(info.method, info.route, status, duration)
            if self.log_requests and requests_log.isEnabledFor(logging.INFO):
                requests_log.info("%s %s %d %.1f ms", info.method, info.route, status,
                                  duration * 1000, extra={
                                      "request_id": info.request_id,
                                      "route": info.route, "method": info.method,
                                      "status": status,
                                      "duration_ms": round(duration * 1000, 3),
                                      "game_id": info.game_id})
        finally:
            try:
                current.reset(token)
            except ValueError:  # closed in another context than it was opened in
                current.set(None)


# The request line and headers the application reads, the limits gunicorn has (its
# `--limit-request-line`, `--limit-request-field_size`, `--limit-request-fields`): the same
# on every web server (granian reads much longer ones), and answered in the error shape.
# The request line's is gunicorn's largest (its default, 4094, is too short for a query a
# client may build from the document's arrays).
REQUEST_LINE = 8190  # gunicorn's `--limit-request-line` (`donkeypost.web_servers`)
MAX_TARGET = REQUEST_LINE - len("DELETE  HTTP/1.1")  # the path and query, as sent
MAX_HEADER = 8190  # a header's name, colon, space and value
MAX_HEADERS = 100


def beyond_limits(environ: dict[str, Any]) -> tuple[int, str, str] | None:
    """(status, code, message) when the request line or headers are beyond the limits."""
    target = environ.get("RAW_URI") or environ.get("REQUEST_URI")
    size = len(target) if target is not None else \
        len(environ.get("PATH_INFO", "")) + len(environ.get("QUERY_STRING", "")) + 1
    if size > MAX_TARGET:
        return (414, "uri_too_long", f"the path and query are longer than {MAX_TARGET} "
                                     "characters")
    count = 0
    for name, value in environ.items():
        if name.startswith("HTTP_") or name in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            count += 1
            if isinstance(value, str) and len(name) + len(value) > MAX_HEADER - 2:
                return (431, "header_fields_too_large",
                        f"a header is longer than {MAX_HEADER} bytes")
    if count > MAX_HEADERS:
        return (431, "header_fields_too_large", f"more than {MAX_HEADERS} headers")
    return None


def _refuse(refusal: tuple[int, str, str], rid: str, start: Callable[..., Any]
            ) -> list[bytes]:
    status, code, message = refusal
    body = json.dumps({"code": code, "status": status, "message": message,
                       "request_id": rid}).encode()
    start(f"{status} {HTTPStatus(status).phrase}", [
        ("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
    return [body]


class _Finishing:
    """The answer's body, passed on unchanged; `done` runs once, when the server closes it
    (after the last byte, or when the client went away)."""

    __slots__ = ("_body", "_done")

    def __init__(self, body: Iterable[bytes], done: Callable[[], None]) -> None:
        self._body = body
        self._done: Callable[[], None] | None = done

    def __iter__(self) -> Iterator[bytes]:
        return iter(self._body)

    def close(self) -> None:
        try:
            close = getattr(self._body, "close", None)
            if close is not None:
                close()
        finally:
            done, self._done = self._done, None
            if done is not None:
                done()
