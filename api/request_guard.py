"""The gate every request passes before its route: hostile input stops here with a 4xx.

- A JSON body is parsed once, strictly, before any route reads it: valid UTF-8, no lone
  surrogates (they cannot be stored or sent back as UTF-8), numbers of at most
  `MAX_DIGITS` digits and finite, nesting at most `MAX_DEPTH` deep; else 422
  `malformed_json`. Python's own parser would hit its recursion limit on deep nesting and
  take a 5,000-digit number for an int that later cannot even be printed; each answered a
  500. A body that is not JSON at all, and anything else, is left to the route.
- A body over the size limit is refused (413), chunked or not.
- Numbers in headers (`If-Match`, `Last-Event-ID`) are read by `header_seq`: ASCII digits
  only (`"²".isdigit()` is true, `int("²")` fails), and never past `MAX_SEQ`; the route
  answers a malformed one in its own terms.

Every refusal is an `ApiError`, so it has the shared shape.

The gate reads a body with msgspec, and the exact reading above runs only for what msgspec
refuses or what looks beyond a limit (see `strict_json`); the route then reads it as Flask
does. (Handing the route the gate's reading, through a request class of our own, saved
nothing measurable: docs/benchmarks.md, issue 24.)
"""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec
from flask import request

from api.errors import ApiError
from api.observe import note_route

MAX_DEPTH = 32  # every body of this API is a few levels deep
MAX_DIGITS = 32  # no number of this API is longer (seqs and versions stay below 2^53)
MAX_SEQ = 2**53 - 1  # the largest integer every JSON client reads exactly
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_SEQ = re.compile(r"[0-9]{1,16}")
# A run of number characters longer than any number the fast reading may let through
# (possibly inside a string: then the exact reading decides, and lets it through).
_LONG_NUMBER = re.compile(rb"[-+.0-9eE]{%d,}" % (MAX_DIGITS + 1))


class HostileJson(ValueError):
    """A JSON body this API refuses before reading it."""


def check_request() -> None:
    """Flask `before_request`: refuse a body over the limit, and a hostile JSON body,
    before any route reads them."""
    req = request._get_current_object()  # (one lookup of the proxy, not one per use)
    if req.url_rule is not None:
        note_route(req.url_rule, req.view_args)
    if req.method not in _BODY_METHODS:
        return
    if req.content_length is None and "wsgi.input_terminated" in req.environ:
        # A chunked body: the server ends the stream, and Werkzeug stops reading at the
        # limit without a word (the route would get the first 64 KB). Reading one byte
        # more is what raises its 413.
        req.get_data(cache=True)
        req.stream.read(1)
    if not req.is_json:
        return
    raw = req.get_data(cache=True)  # the size limit applies here (413)
    if not raw:
        return
    try:
        strict_json(raw)
    except json.JSONDecodeError:
        return  # not JSON at all: the route says so in its own terms
    except HostileJson as err:
        raise ApiError(422, "malformed_json", f"the body is not acceptable JSON: {err}") \
            from None


def strict_json(raw: bytes) -> Any:
    """`raw` parsed as JSON within this API's limits: HostileJson when it is beyond them,
    json.JSONDecodeError when it is not JSON.

    msgspec reads it first (ten times faster than the exact reading): it refuses what is not
    JSON, bad UTF-8, lone surrogates, non-finite numbers and deep nesting, and takes only
    what Python's parser takes too, as the same values. Whatever it refuses, or whatever
    holds a number longer than the limits allow, is read again the exact way, which says
    what is wrong in its own words; what it takes gets the same depth and string checks."""
    if _LONG_NUMBER.search(raw) is None:
        try:
            value = msgspec.json.decode(raw)
        except (ValueError, RecursionError):
            pass
        else:
            _check_value(value)
            return value
    return _exact_json(raw)


def _exact_json(raw: bytes) -> Any:
    """The reading that names each limit a body is beyond (Python's parser, with hooks)."""
    try:
        text = raw.decode("utf-8-sig")  # a BOM is ignored, as Flask's own parser does
    except UnicodeDecodeError as err:
        raise HostileJson(f"not UTF-8 ({err.reason} at byte {err.start})") from None
    try:
        value = json.loads(text, parse_int=_bounded_int, parse_float=_finite_float,
                           parse_constant=_no_constant)
    except RecursionError:
        raise HostileJson(f"nested more than {MAX_DEPTH} levels deep") from None
    _check_value(value)
    return value


def header_seq(value: str) -> int | None:
    """A seq or version written in a header: ASCII digits up to `MAX_SEQ`; else None."""
    text = value.strip()
    if not _SEQ.fullmatch(text) or int(text) > MAX_SEQ:
        return None
    return int(text)


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise HostileJson(f"a number longer than {MAX_DIGITS} digits")
    return int(text)


def _finite_float(text: str) -> float:
    if len(text) > 2 * MAX_DIGITS:
        raise HostileJson(f"a number longer than {2 * MAX_DIGITS} characters")
    number = float(text)
    if number in (float("inf"), float("-inf")):
        raise HostileJson("a number too large to be finite")
    return number


def _no_constant(name: str) -> Any:
    raise HostileJson(f"{name} is not a JSON number")


def _check_value(value: Any) -> None:
    """Depth and strings, without recursion (the parser already bounds the input)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            _check_string(item)
        elif isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                raise HostileJson(f"nested more than {MAX_DEPTH} levels deep")
            if isinstance(item, dict):
                for key, inner in item.items():
                    _check_string(key)
                    stack.append((inner, depth + 1))
            else:
                stack.extend((inner, depth + 1) for inner in item)


def _check_string(text: str) -> None:
    if text.isascii():
        return
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise HostileJson("a string holds a lone surrogate (\\ud800-\\udfff)") from None
