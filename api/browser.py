"""What browsers are told: CORS for the frontends the operator allows, and the headers that
keep every answer from being sniffed, framed, leaked through a referrer or cached.

- CORS (flask-cors): only the origins of `CORS_ORIGINS` (none by default: no browser page
  of another origin may read an answer). They may send the headers this API reads
  (`Authorization`, `If-Match`, `If-None-Match`, `Idempotency-Key`, `Last-Event-ID`,
  `Content-Type`) and read the ones it sets (`ETag`, `X-Pagination`, `Retry-After`, the
  `RateLimit-*` ones). Tokens travel in `Authorization`, never in cookies, so no
  credentials mode is offered.
- On every answer: `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`,
  `X-Frame-Options: DENY`, and a content security policy that allows nothing to an API
  answer (the documentation pages and the web table at `/play/` get ones that let them
  run their own scripts and styles, and call this origin only).
- `Cache-Control: no-store` on every answer to a request with a token (a seat's view, its
  hand, its log) and on every answer that carries a secret (a new seat's or creator's
  token, a webhook's secret: the answers to `POST`s), so that no cache along the way and no
  browser keeps them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from flask import Flask
from flask_cors import CORS

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

ALLOWED_HEADERS = ("Authorization", "Content-Type", "If-Match", "If-None-Match",
                   "Idempotency-Key", "Last-Event-ID")
EXPOSED_HEADERS = ("ETag", "X-Pagination", "Retry-After", "RateLimit-Limit",
                   "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy")
_API_CSP = "default-src 'none'; frame-ancestors 'none'"
# Swagger UI: its own scripts and styles, and the inline script that starts it.
_DOCS_CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline'; "
             "style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'")

# The web table: its own script and styles; it calls this origin's API and streams.
_PLAY_CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
             "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


def install(app: Flask, cors_origins: Sequence[str]) -> None:
    if cors_origins:
        CORS(app, origins=list(cors_origins), allow_headers=list(ALLOWED_HEADERS),
             expose_headers=list(EXPOSED_HEADERS), methods=["GET", "POST", "DELETE"],
             supports_credentials=False, max_age=600, vary_header=True)
    app.wsgi_app = SecureHeaders(app.wsgi_app)  # type: ignore[method-assign]


def _always(csp: str) -> tuple[tuple[str, str], ...]:
    return (("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
            ("X-Frame-Options", "DENY"), ("Content-Security-Policy", csp))


_API_HEADERS, _DOCS_HEADERS, _PLAY_HEADERS = (_always(csp)
                                              for csp in (_API_CSP, _DOCS_CSP, _PLAY_CSP))
_NAMES = frozenset(name.lower() for name, _ in _API_HEADERS)
_NO_STORE = ("Cache-Control", "no-store")


class SecureHeaders:
    """WSGI middleware: the headers above on every answer of the application, added to the
    list it starts its response with. Each of the four is added unless the answer set it
    already (the documentation pages' assets, say); `Cache-Control: no-store` replaces any
    other `Cache-Control` on an answer to a request with a token or to a `POST`.

    (As a Flask `after_request` hook, Werkzeug's header object checked and set them one by
    one: a tenth of a view's time. Here they are appended at once, as prepared tuples.)"""

    def __init__(self, app: WsgiApp) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]
                 ) -> Iterable[bytes]:
        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            return start_response(status, secured(environ, headers), exc_info)

        return self.app(environ, start)


def secured(environ: dict[str, Any], headers: list[tuple[str, str]]
            ) -> list[tuple[str, str]]:
    """`headers`, of an answer to the request `environ`, with the headers above."""
    # The path as Werkzeug makes it (`request.path`): one leading slash.
    path = "/" + environ.get("PATH_INFO", "").lstrip("/")
    ours = _DOCS_HEADERS if path.startswith("/docs") else \
        _PLAY_HEADERS if path == "/play" or path.startswith("/play/") else _API_HEADERS
    no_store = "HTTP_AUTHORIZATION" in environ or \
        environ.get("REQUEST_METHOD", "GET").upper() == "POST"
    names = {name.lower() for name, _ in headers}
    if no_store and "cache-control" in names:
        headers = [h for h in headers if h[0].lower() != "cache-control"]
    if names.isdisjoint(_NAMES):
        headers.extend(ours)
    else:
        headers.extend(h for h in ours if h[0].lower() not in names)
    if no_store:
        headers.append(_NO_STORE)
    return headers
