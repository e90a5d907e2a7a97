"""Hostile input never reaches a 500: a corpus of malformed requests over every endpoint.

The endpoints come from the application's URL map, so a new route is covered the day it is
added. Each gets every variant below — its path parameters, query, headers and body made
hostile one at a time (deep nesting, bad encodings, lone surrogates, huge numbers and
strings, odd digits in headers, path tricks, wrong content types, bodies over the limit,
chunked or not) — on the real store, against a real game. Every answer must be below 500
and, when it is an error, in the shared shape `{code, status, message}`.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from flask import Flask

from domain.connection import connect

HUGE_INT = "9" * 5000
PAST_2_64 = str(2**64 + 1)
BODY_LIMIT = 64 * 1024


@dataclass(frozen=True)
class Variant:
    name: str
    path: dict[str, str] = field(default_factory=dict)  # parameter -> raw (encoded) value
    query: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes | None = None
    content_type: str | None = "application/json"
    chunked: bool = False


def _json(text: str) -> bytes:
    return text.encode()


def _variants() -> Iterator[Variant]:
    # --- path parameters ----------------------------------------------------------------
    for raw in ("%00", "..%2F..%2Fetc%2Fpasswd", "a" * 5000, "%ED%A0%80", "%FF%FE",
                "%C3%A9t%C3%A9", "x%7D%3Asecret", "*", "%20", "%0A", "-1", HUGE_INT,
                PAST_2_64, "%EF%BC%91", "%C2%B2"):
        yield Variant(f"path={raw[:20]}", path={"*": raw})
    # --- query strings ------------------------------------------------------------------
    for query in (f"after={PAST_2_64}", f"after={HUGE_INT}", "after=-1", "after=%C2%B2",
                  "after=1e3", "after=%EF%BC%91", f"wait={HUGE_INT}", "wait=1e999",
                  "wait=nan", "wait=inf", "wait=-0", f"limit={HUGE_INT}", "limit=0",
                  f"page={HUGE_INT}", f"page={PAST_2_64}", "page=0", f"page_size={HUGE_INT}",
                  "status=%ED%A0%80", "type=%FF", "type=" + "t" * 5000, "after=1&after=2",
                  "%ZZ=1", "a=%", "=", "&&&", "after"):
        yield Variant(f"query={query[:30]}", query=query)
    # --- headers ------------------------------------------------------------------------
    odd_headers: list[dict[str, str]] = [
        {"Authorization": "Bearer " + "x" * 8000}, {"Authorization": "Bearer"},
        {"Authorization": "Basic dXNlcjpwdw=="}, {"Authorization": "Bearer a b c"},
        {"Authorization": "Bearer \u00e9\u00ff"}, {"Authorization": "bearer    "},
        {"If-Match": "\u00b2"}, {"If-Match": '"\u00b2"'}, {"If-Match": HUGE_INT},
        {"If-Match": f'"{PAST_2_64}"'}, {"If-Match": "*"}, {"If-Match": 'W/"1", "2"'},
        {"If-Match": '""'}, {"If-Match": "-1"},
        {"If-None-Match": "\u00b2"}, {"If-None-Match": '"' + HUGE_INT + '"'},
        {"Last-Event-ID": "\u00b2"}, {"Last-Event-ID": HUGE_INT},
        {"Last-Event-ID": PAST_2_64}, {"Last-Event-ID": "-1"}, {"Last-Event-ID": "1e3"},
        {"Idempotency-Key": "k" * 5000}, {"Idempotency-Key": ""},
        {"Idempotency-Key": "\u00e9"}, {"Accept": "text/html"}, {"Accept-Charset": "x"},
        {"Content-Encoding": "gzip"}, {"Origin": "https://evil.example"},
        {"Range": "bytes=0-1"}, {"X-Forwarded-For": "1.2.3.4, 5.6.7.8"},
    ]
    for headers in odd_headers:
        name, value = next(iter(headers.items()))
        yield Variant(f"header {name}={value[:20]!r}", headers=headers)
    # --- bodies -------------------------------------------------------------------------
    deep_list = "[" * 30000 + "]" * 30000
    deep_object = '{"a":' * 20000 + "1" + "}" * 20000
    bodies = {
        "deep list": _json(deep_list),
        "deep object": _json(deep_object),
        "deep in a field": _json('{"type": "play", "name": ' + "[" * 5000 + "]" * 5000 + "}"),
        "lone surrogate": _json('{"name": "\\ud800", "type": "\\udfff", "url": "\\ud800"}'),
        "surrogate action": _json('{"type": "play", "card": "\\ud800"}'),
        "invalid utf-8": b'{"name": "\xff\xfe", "type": "\xc0\xaf"}',
        "overlong utf-8": b'{"name": "\xc0\x80"}',
        "utf-16": '{"name": "x"}'.encode("utf-16"),
        "bom": b"\xef\xbb\xbf" + b'{"name": "x"}',
        "bom deep": b"\xef\xbb\xbf" + _json(deep_list),
        "utf-16 deep": deep_list.encode("utf-16"),
        "utf-32": '{"name": "x"}'.encode("utf-32"),
        "huge int": _json('{"type": "play", "card": ' + HUGE_INT + ', "name": 1}'),
        "huge int options": _json('{"type": "ochs-und-esel", "seats": [{"kind": "human"}], '
                                  '"options": {"rounds": ' + HUGE_INT + '}}'),
        "huge float": _json('{"deadline_s": 1e999, "bot_delay_s": -1e999, "type": "x"}'),
        "nan": _json('{"deadline_s": NaN, "card": Infinity, "type": "play"}'),
        "past 2^64": _json('{"type": "play", "card": ' + PAST_2_64 + "}"),
        "huge string": _json('{"name": "' + "n" * 60000 + '", "url": "http://'
                             + "h" * 1000 + '"}'),
        "not json": b"{'name': 'x'",
        "empty": b"",
        "null": b"null",
        "list": b"[1, 2, 3]",
        "string": b'"just a string"',
        "number": b"12",
        "nul byte": b'{"name": "a\x00b"}',
        "escaped nul": _json('{"name": "a\\u0000b", "type": "\\u0000"}'),
        "many keys": _json("{" + ",".join(f'"k{i}": {i}' for i in range(5000)) + "}"),
        "duplicate keys": _json('{"name": "a", "name": "b", "type": "play", "type": 1}'),
        "wrong types": _json('{"type": 1, "seats": "all", "options": [], "name": {},'
                             ' "url": 5, "notify": "events", "card": [1]}'),
        "many seats": _json('{"type": "ochs-und-esel", "seats": ['
                            + ",".join(['{"kind": "bot"}'] * 5000) + "]}"),
        "over the limit": _json('{"name": "' + "n" * (BODY_LIMIT + 10) + '"}'),
    }
    for name, body in bodies.items():
        yield Variant(f"body {name}", body=body)
    # Each hostile value in each place a body of this API holds one, so that it passes the
    # schema and reaches what the route does with it (store it, echo it, hash it).
    values = {"lone surrogate": '"\\ud800"', "low surrogate": '"x\\udfffy"',
              "huge int": HUGE_INT, "past 2^64": PAST_2_64, "nested": "[" * 40 + "]" * 40,
              "control": '"a\\u0000\\u001b[31m"', "long": '"' + "x" * 20000 + '"',
              "float": "1e308", "negative": "-" + PAST_2_64}
    shapes = {
        "name": '{"name": %s}',
        "game type": '{"type": %s, "seats": [{"kind": "human"}]}',
        "option": '{"type": "ochs-und-esel", "seats": [{"kind": "human"}, {"kind": "human"},'
                  ' {"kind": "human"}], "options": {"rounds": %s, "x": %s}}',
        "deadline": '{"type": "ochs-und-esel", "seats": [{"kind": "bot"}, {"kind": "bot"},'
                    ' {"kind": "bot"}], "deadline_s": %s}',
        "seat": '{"type": "ochs-und-esel", "seats": [{"kind": %s}, {"kind": "bot", '
                '"level": %s}]}',
        "url": '{"url": %s, "notify": [%s]}',
        "action": '{"type": "play", "cards": [%s], "card": %s}',
        "action type": '{"type": %s}',
    }
    for value_name, value in values.items():
        for shape_name, shape in shapes.items():
            body = shape % ((value,) * shape.count("%s"))
            yield Variant(f"{value_name} as {shape_name}", body=body.encode())
    yield Variant("chunked over the limit", body=b"[" + b"1," * BODY_LIMIT + b"1]",
                  chunked=True)
    yield Variant("chunked small", body=b'{"name": "x"}', chunked=True)
    for content_type in ("text/plain", "application/x-www-form-urlencoded",
                         "multipart/form-data; boundary=x", None,
                         "application/json; charset=utf-16", "application/json; charset=x",
                         "application/json\u00e9"):
        yield Variant(f"content type {content_type!r}", body=b'{"name": "x"}',
                      content_type=content_type)


VARIANTS = list(_variants())


@dataclass
class World:
    app: Flask
    values: dict[str, str]  # path parameter -> a real value


@pytest.fixture(params=["active", "open"])
def world(request, app, api) -> World:
    """A game being played, seen by a seat; or one with free seats, seen by its creator
    (so that a hostile name or option may reach the store)."""
    created = api.create("ochs-und-esel", 3)
    game_id = created["id"]
    token = created["creator_token"]
    if request.param == "active":
        tokens = [api.join(game_id, name)[1] for name in ("ann", "bob", "cy")]
        token = tokens[0]
    hook = api.http.post(f"/games/{game_id}/webhooks", json={"url": "http://93.184.215.14/"},
                         headers=api.auth(token))
    assert hook.status_code == 201, hook.get_json()
    return World(app, {"game_id": game_id, "hook_id": hook.get_json()["id"],
                       "type_id": "ochs-und-esel", "seq": "1", "filename": "index.css",
                       "token": token})


def _endpoints(app: Flask) -> list[tuple[str, str, list[str]]]:
    """(rule, method, its parameters) for every route of the application."""
    found = []
    for rule in app.url_map.iter_rules():
        for method in sorted(rule.methods - {"HEAD"}):
            found.append((rule.rule, method, sorted(rule.arguments)))
    return found


def _path(rule: str, arguments: list[str], world: World, override: str | None,
          which: str) -> str:
    path = rule
    for name in arguments:
        # A parameter the world has no real value for gets a plausible one.
        value = override if override is not None and name == which else \
            world.values.get(name, "unknown-" + name)
        path = path.replace(f"<{_converter(rule, name)}{name}>", value)
    return path


def _converter(rule: str, name: str) -> str:
    start = rule.index(f"{name}>")
    opening = rule.rindex("<", 0, start)
    return rule[opening + 1:start]


def _send(world: World, method: str, path: str, variant: Variant) -> Any:
    client = world.app.test_client()
    headers = {"Authorization": f"Bearer {world.values['token']}", **variant.headers}
    kwargs: dict[str, Any] = {"headers": headers, "buffered": False}
    if variant.query:
        kwargs["query_string"] = variant.query
    if variant.body is not None and method in ("POST", "PUT", "PATCH", "DELETE"):
        if variant.chunked:
            kwargs["input_stream"] = io.BytesIO(variant.body)
            headers["Transfer-Encoding"] = "chunked"
        else:
            kwargs["data"] = variant.body
        if variant.content_type is not None:
            kwargs["content_type"] = variant.content_type
    return client.open(path, method=method, **kwargs)


def _check(response: Any, what: str) -> None:
    status = response.status_code
    try:
        assert status < 500, f"{what}: {status}"
        if status >= 400:
            body = json.loads(b"".join(response.response))
            assert isinstance(body, dict), what
            assert isinstance(body.get("code"), str) and body["code"], what
            assert body.get("status") == status, what
            assert isinstance(body.get("message"), str), what
    finally:
        response.close()


def test_no_hostile_request_gets_a_server_error(world, caplog):
    failures = []
    endpoints = _endpoints(world.app)
    assert len(endpoints) >= 18  # the walk sees the application's routes
    for rule, method, arguments in endpoints:
        for variant in VARIANTS:
            if variant.body is not None and method not in ("POST", "PUT", "PATCH", "DELETE"):
                continue
            targets = [None]
            if variant.path:
                if not arguments:
                    continue
                targets = arguments
            for which in targets:
                override = variant.path.get("*") if variant.path else None
                path = _path(rule, arguments, world, override, which or "")
                what = f"{method} {path[:80]} [{variant.name}]"
                try:
                    _check(_send(world, method, path, variant), what)
                except AssertionError as err:
                    failures.append(str(err) or what)
                except Exception as err:  # the client itself choked: report it too
                    failures.append(f"{what}: {type(err).__name__}: {err}")
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures[:60])
    assert "Traceback" not in caplog.text


# --- On the real server: gunicorn with gevent workers, as `donkeypost serve` runs it -----
@pytest.fixture(scope="module")
def server(redis_url) -> Iterator[str]:
    from tests.support.gunicorn import Gunicorn

    # Emptied first: a job another test left in a queue, unserved for a minute, makes
    # /healthz answer 503, and the server is waited for until /healthz says 200.
    connect(redis_url).flushdb()
    with Gunicorn(redis_url, workers=1) as running:
        yield running.url


def _assert_shape(response: httpx.Response, status: int, code: str | None = None) -> None:
    assert response.status_code == status, response.text[:300]
    body = response.json()
    assert body["status"] == status and isinstance(body["message"], str)
    if code is not None:
        assert body["code"] == code


def _started_game(base: str) -> tuple[str, str]:
    game = httpx.post(f"{base}/games", json={"type": "ochs-und-esel", "seats": [
        {"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}], "deadline_s": None}).json()
    joined = httpx.post(f"{base}/games/{game['id']}/players", json={"name": "ann"}).json()
    return game["id"], joined["token"]


def test_bodies_over_the_limit_are_refused_chunked_or_not(server):
    game_id, token = _started_game(server)

    def chunks() -> Iterator[bytes]:
        yield b'{"type": "play", "cards": ['
        for _ in range(BODY_LIMIT // 8):
            yield b"1, 1, 1,"
        yield b"1]}"

    auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    for path in ("/games", f"/games/{game_id}/actions", f"/games/{game_id}/players"):
        chunked = httpx.post(f"{server}{path}", content=chunks(), headers=auth)
        _assert_shape(chunked, 413, "payload_too_large")
        whole = httpx.post(f"{server}{path}", content=b"".join(chunks()), headers=auth)
        _assert_shape(whole, 413, "payload_too_large")
    deep = httpx.post(f"{server}/games", content=b"[" * 30000 + b"]" * 30000,
                      headers={"Content-Type": "application/json"})
    _assert_shape(deep, 422, "malformed_json")


def test_the_stream_refuses_a_seq_it_cannot_serve_before_it_starts(server):
    game_id, token = _started_game(server)
    auth = {"Authorization": f"Bearer {token}"}
    url = f"{server}/games/{game_id}/events/stream"
    for headers, params, code in (
            ({"Last-Event-ID": "\u00b2".encode()}, {}, "bad_last_event_id"),
            ({"Last-Event-ID": HUGE_INT}, {}, "bad_last_event_id"),
            ({"Last-Event-ID": PAST_2_64}, {}, "bad_last_event_id"),
            ({"Last-Event-ID": "1000000"}, {}, "after_past_the_end"),
            ({}, {"after": PAST_2_64}, "validation_error"),
            ({}, {"after": "1000000"}, "after_past_the_end")):
        with httpx.stream("GET", url, headers={**auth, **headers}, params=params,
                          timeout=5) as response:
            response.read()
            status = {"validation_error": 422, "after_past_the_end": 409}.get(code, 400)
            _assert_shape(response, status, code)
    events = httpx.get(f"{server}/games/{game_id}/events", params={"after": PAST_2_64})
    _assert_shape(events, 422, "validation_error")
