"""The strict reading of JSON bodies and header numbers (`api.request_guard`)."""

from __future__ import annotations

import json

import pytest

from api.request_guard import MAX_DEPTH, MAX_SEQ, HostileJson, header_seq, strict_json


@pytest.mark.parametrize("raw, why", [
    (b"[" * 30000 + b"]" * 30000, "nested"),
    (b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1), "nested"),
    (b'{"card": ' + b"9" * 5000 + b"}", "digits"),
    (b"[1e999]", "finite"),
    (b"[-Infinity]", "not a JSON number"),
    (b'{"name": "\\ud800"}', "surrogate"),
    (b'{"\\udfff": 1}', "surrogate"),
    (b'{"name": "\xff"}', "UTF-8"),
    ('{"name": "x"}'.encode("utf-16"), "UTF-8"),
])
def test_hostile_json_is_refused(raw, why):
    with pytest.raises(HostileJson, match=why):
        strict_json(raw)


def test_ordinary_json_passes_and_syntax_errors_are_left_to_the_route():
    body = {"type": "play", "cards": [1, "joker"], "name": "Zoë ☃ 𝄞", "x": 1.5}
    assert strict_json(json.dumps(body, ensure_ascii=False).encode()) == body
    assert strict_json(json.dumps(body).encode()) == body  # \\u escapes, pairs included
    nested = b"[" * MAX_DEPTH + b"]" * MAX_DEPTH
    assert strict_json(nested) is not None
    assert strict_json(b'\xef\xbb\xbf{"a": 1}') == {"a": 1}
    with pytest.raises(json.JSONDecodeError):
        strict_json(b"{")


@pytest.mark.parametrize("value, expected", [
    ("12", 12), (" 0 ", 0), (str(MAX_SEQ), MAX_SEQ), (str(MAX_SEQ + 1), None),
    ("\u00b2", None), ("\uff11", None), ("-1", None), ("1e3", None), ("", None),
    ("9" * 5000, None),
])
def test_header_numbers_are_ascii_digits_within_bounds(value, expected):
    assert header_seq(value) == expected
