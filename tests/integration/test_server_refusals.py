"""What the HTTP server refuses before the application sees a request is answered in the
shared error shape too, on each web server the project runs (README: which limits apply
where)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time

import pytest

from donkeypost.web_servers import web_command
from tests.support.serve import free_port


def _raw(port: int, request: bytes, timeout_s: float = 10) -> tuple[int, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout_s) as sock:
        sock.sendall(request)
        data = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except (ConnectionResetError, TimeoutError):
                break
            if not chunk:
                break
            data += chunk
            head, sep, body = data.partition(b"\r\n\r\n")
            if sep:
                length = [line for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length:")]
                if length and len(body) >= int(length[0].split(b":")[1]):
                    break
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, body


@pytest.fixture(scope="module", params=["gunicorn", "granian"])
def server(request, redis_url):
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url, "RATE_LIMITS": "off", "LOG_REQUESTS": "off"}
    proc = subprocess.Popen(web_command(request.param, "127.0.0.1", port, 1, 50),
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if _raw(port, b"GET /healthz/live HTTP/1.1\r\nHost: x\r\n\r\n")[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the web server did not start"
            time.sleep(0.2)
        yield request.param, port
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _shared_shape(status: int, headers: dict[str, str], body: bytes,
                  code: str | None = None) -> None:
    assert headers.get("content-type", "").startswith("application/json"), (status, body)
    error = json.loads(body)
    assert error["status"] == status and error["message"]
    if code:
        assert error["code"] == code
    assert error["request_id"] == headers["x-request-id"]


def test_double_slashes_are_an_unknown_path_not_a_redirect(server) -> None:
    """Werkzeug would redirect `/games//x` to `/games/x` with an HTML 308. (A path that
    starts with `//` the server may read as the same path with one: then it is answered
    as that path, in JSON.)"""
    _, port = server
    for path in ("/games//x", "/healthz//live", "/games/x//"):
        status, headers, body = _raw(port, f"GET {path} HTTP/1.1\r\nHost: x\r\n"
                                           f"Connection: close\r\n\r\n".encode())
        assert status == 404, (path, body)
        _shared_shape(status, headers, body, "not_found")
    status, headers, body = _raw(port, b"GET //games HTTP/1.1\r\nHost: x\r\n"
                                       b"Connection: close\r\n\r\n")
    assert status in (200, 404) and headers["content-type"] == "application/json"


# Bounded by the application too (`api.observe`), with gunicorn's limits: the same answer on
# both servers (granian reads a 64 KB path and headers of hundreds of KB).
BOTH = [
    (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "uri_too_long"),
    (b"GET /games?page=1&" + b"a" * 8180 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414,
     "uri_too_long"),
    (b"GET / HTTP/1.1\r\nHost: x\r\nX-Long: " + b"a" * 9000 + b"\r\n\r\n", 431,
     "header_fields_too_large"),
]
# Refused by the server before any application code runs: gunicorn's answers are made JSON
# (`donkeypost.gunicorn_worker`); granian answers the same status with an empty body.
SERVERS_OWN = [
    (b"GET / HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(120))
     + b"\r\n", 431, "header_fields_too_large"),
    (b"GET / HTTP/9.9\r\nHost: x\r\n\r\n", 400, "bad_request"),
    (b"NOT A REQUEST\r\n\r\n", 400, "bad_request"),
    (b"POST /players HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
     b"Content-Type: application/json\r\n\r\nzz\r\n", 400, "bad_request"),
]


@pytest.mark.parametrize("request_bytes,status,code", BOTH)
def test_an_over_long_path_or_header_is_refused_in_the_shared_shape(server, request_bytes,
                                                                    status, code) -> None:
    _, port = server
    got, headers, body = _raw(port, request_bytes)
    assert got == status, body
    _shared_shape(got, headers, body, code)


@pytest.mark.parametrize("request_bytes,status,code", SERVERS_OWN)
def test_what_the_server_refuses_itself(server, request_bytes, status, code) -> None:
    kind, port = server
    got, headers, body = _raw(port, request_bytes)
    if kind == "gunicorn":
        assert got == status, body
        assert headers["connection"] == "close"
        _shared_shape(got, headers, body, code)
    elif body:  # granian let it through (a bad chunk reads as no body): the API answered
        assert 400 <= got < 500
        _shared_shape(got, headers, body)
    else:  # granian's own answer, which the README lists (a proxy in front answers first)
        assert got == status and headers["connection"] == "close"
