"""A real HTTP server around the app in a thread, and a small Server-Sent Events reader."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import httpx
from flask import Flask
from werkzeug.serving import make_server


@contextmanager
def serving(app: Flask) -> Iterator[str]:
    """Serve `app` on a free loopback port (a thread per request); yields its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)


@dataclass
class SseMessage:
    id: str | None
    event: str | None
    data: str


def sse_messages(lines: Iterator[str]) -> Iterator[SseMessage | str]:
    """Messages of an event stream, and comments (as strings starting with ':')."""
    fields: dict[str, list[str]] = {}
    for line in lines:
        if line == "":
            if "data" in fields:
                yield SseMessage(id=fields.get("id", [None])[-1],
                                 event=fields.get("event", [None])[-1],
                                 data="\n".join(fields["data"]))
            fields = {}
        elif line.startswith(":"):
            yield line
        else:
            name, _, value = line.partition(":")
            fields.setdefault(name, []).append(value[1:] if value.startswith(" ") else value)


@contextmanager
def open_stream(base: str, game_id: str, token: str | None = None,
                last_event_id: int | None = None, after: int | None = None,
                timeout_s: float = 10.0, views: bool = False,
                words: bool = False) -> Iterator[tuple[httpx.Response, Iterator[Any]]]:
    """`GET /games/{id}/events/stream`; yields the response and its messages and comments."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if last_event_id is not None:
        headers["Last-Event-ID"] = str(last_event_id)
    params: dict[str, Any] = {"after": after} if after is not None else {}
    if views:
        params["views"] = "true"
    if words:
        params["words"] = "true"
    with httpx.stream("GET", f"{base}/games/{game_id}/events/stream", headers=headers,
                      params=params, timeout=timeout_s) as response:
        yield response, sse_messages(response.iter_lines())
