"""Slow clients on the real stack (gunicorn's gevent worker): a body that does not arrive
within `BODY_TIMEOUT_S` — announced and never sent, or sent a byte at a time — is answered
408 and the connection closed, on time; a body that arrives is served as ever."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import httpx

from tests.support.gunicorn import Gunicorn

BODY_TIMEOUT_S = 1.0
HEAD = (b"POST /games HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
        b"Content-Length: 200\r\n\r\n")


def _answer_and_close(sock: socket.socket, limit_s: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes; and when it closed."""
    started = time.monotonic()
    sock.settimeout(limit_s)
    got = b""
    while chunk := sock.recv(65536):
        got += chunk
    return got, time.monotonic() - started


def test_a_body_that_does_not_arrive_in_time_is_answered_408_and_closed(redis_url,
                                                                         redis_client,
                                                                         tmp_path: Path):
    # (An emptied Redis: a job another test left in a queue, unserved for a minute, makes
    # /healthz answer 503, and the server is waited for until /healthz says 200.)
    with Gunicorn(redis_url, workers=1, log_dir=tmp_path, app="donkeypost.wsgi:app",
                  env={"BODY_TIMEOUT_S": str(BODY_TIMEOUT_S), "RATE_LIMITS": "off"}) as web:
        # Announced, then never sent.
        with socket.create_connection(("127.0.0.1", web.port)) as silent:
            silent.sendall(HEAD + b'{"type": ')
            answer, took = _answer_and_close(silent, 10 * BODY_TIMEOUT_S)
        assert answer.startswith(b"HTTP/1.1 408"), answer
        assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["code"] == "request_timeout"
        assert BODY_TIMEOUT_S - 0.1 <= took < BODY_TIMEOUT_S + 1.0, took

        # A byte now and then does not reset the deadline.
        with socket.create_connection(("127.0.0.1", web.port)) as drip:
            drip.sendall(HEAD)
            started = time.monotonic()
            drip.setblocking(False)
            answer = b""
            while time.monotonic() - started < 10 * BODY_TIMEOUT_S:
                try:
                    drip.send(b" ")
                    answer += drip.recv(65536)
                except BlockingIOError:
                    pass
                except OSError:
                    break
                if answer.endswith(b"}") or b"408" in answer:
                    break
                time.sleep(0.1)
            took = time.monotonic() - started
        assert answer.startswith(b"HTTP/1.1 408"), answer
        assert took < BODY_TIMEOUT_S + 1.0, took

        # A body that arrives is served as ever.
        created = httpx.post(f"{web.url}/games", json={
            "type": "ochs-und-esel", "seats": [{"kind": "human"}] * 3}, timeout=10)
        assert created.status_code == 201, created.text
