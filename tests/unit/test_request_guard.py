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


# Bodies on each side of every limit and syntax rule: the fast reading (msgspec) and the
# exact one must give the same value, or the same refusal.
AGREEMENT = [
    b'{"type": "play", "cards": [1, 2]}', b"[]\n", b' {"a": null} ', b'{"a": 1, "a": 2}',
    b'"\\u00e9 \\ud83d\\ude00"', b'"\\udc00\\ud800"', b'"\\ud800"', b'"\x7f"', b"-0", b"-0.0",
    b"1E+2", b"0e0", b"1e-400", b"1e308", b"1e309", b"-1e400", b"17976931348623159e292",
    b"9" * 32, b"-" + b"9" * 32, b"9" * 33, b"-" + b"9" * 33, b"0." + b"1" * 62,
    b"0." + b"1" * 63, b'["' + b"e" * 40 + b'"]', b'{"x": "' + b"1" * 40 + b'"}',
    b"[" * MAX_DEPTH + b"]" * MAX_DEPTH, b"[" * (MAX_DEPTH + 1) + b"]" * (MAX_DEPTH + 1),
    b"[" * 5000 + b"]" * 5000, b"NaN", b"[Infinity]", b"\xef\xbb\xbf[1]", b'"\xff"',
    b'"\xed\xa0\x80"', b'"\xc0\x80"', b'"\x01"', b"[1,]", b"01", b"1.", b".5", b"+1", b"'a'",
    b"{}x", b"tru", b"\xc2\xa0[]", b"[]\x0c", b"",
]


def _verdict(read, raw):
    try:
        return "value", read(raw)
    except HostileJson as err:
        return "hostile", str(err)
    except json.JSONDecodeError:
        return "not json", None


@pytest.mark.parametrize("raw", AGREEMENT)
def test_the_fast_reading_agrees_with_the_exact_one(raw):
    from api.request_guard import _exact_json

    fast, exact = _verdict(strict_json, raw), _verdict(_exact_json, raw)
    assert fast == exact
    if fast[0] == "value":  # the same types too (1 and 1.0 are equal, not the same)
        assert json.dumps(fast[1]) == json.dumps(exact[1])
