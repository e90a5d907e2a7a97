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

from collections.abc import Sequence

from flask import Flask, Response, request
from flask_cors import CORS

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
    app.after_request(secure_headers)


def secure_headers(response: Response) -> Response:
    headers = response.headers
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "no-referrer")
    headers.setdefault("X-Frame-Options", "DENY")
    path = request.path
    csp = _DOCS_CSP if path.startswith("/docs") else \
        _PLAY_CSP if path == "/play" or path.startswith("/play/") else _API_CSP
    headers.setdefault("Content-Security-Policy", csp)
    if "Authorization" in request.headers or request.method == "POST":
        headers["Cache-Control"] = "no-store"
    return response
