"""The chat's rules without a store: what a text may hold, and a hiding erasing a text."""

from __future__ import annotations

import msgspec
import pytest

from domain.chat import HIDDEN, MAX_TEXT, MESSAGE, ChatEntry, clean_text, shown, without_hidden
from domain.errors import BadMessage
from domain.webhooks.registration import new_registration
from domain.webhooks.triggers import chat_notifications, with_texts


@pytest.mark.parametrize("raw, kept", [
    ("  hello  ", "hello"),
    ("two\nlines\tand a tab", "two\nlines\tand a tab"),
    ("emoji 👩‍👩‍👧 (joined)", "emoji 👩‍👩‍👧 (joined)"),
    ("é" * MAX_TEXT, "é" * MAX_TEXT),
    ("\u200bhi\u200b", "\u200bhi\u200b"),  # invisible characters beside visible ones are fine
    ("한글", "한글"),
])
def test_what_a_message_may_say(raw, kept):
    assert clean_text(raw) == kept


@pytest.mark.parametrize("raw", ["", " \n\t ", "x" * (MAX_TEXT + 1), "a\x00b", "bell\x07",
                                 "esc\x1b[31m", "rtl \u202e override", "isolate \u2066x",
                                 "unassigned \U000e0fff", "\u200b\u200b", "\u200d \u2060\ufeff",
                                 "\u3164\u3164", "\u2800", "\u00a0\u2003", "\u0301\u0301",
                                 "\ufe0f\U000e0020"])
def test_what_a_message_may_not(raw):
    with pytest.raises(BadMessage):
        clean_text(raw)


def _message(n: int, text: str) -> ChatEntry:
    return ChatEntry(type=MESSAGE, at=1.0, n=n, seat=0, name="ann", text=text)


def test_a_hiding_erases_the_text_of_the_message_it_hides_from_a_buffer():
    entries = [_message(1, "fine"), _message(2, "rude"),
               ChatEntry(type=HIDDEN, at=2.0, n=3, message=2)]
    cleaned = without_hidden(entries)
    assert [e.text for e in cleaned] == ["fine", None, None]
    assert shown(cleaned[1]) == {"n": 2, "type": MESSAGE, "at": 1.0, "seat": 0,
                                 "name": "ann", "player": None, "text": None, "hidden": True}
    assert shown(cleaned[2]) == {"n": 3, "type": HIDDEN, "at": 2.0, "message": 2}


def test_a_chat_delivery_keeps_no_text_and_gets_it_when_sent():
    reg = new_registration("g", 0, "https://x.example/", ("messages",), 0.0)
    quiet = new_registration("g", 1, "https://x.example/", ("your_turn",), 0.0)
    assert chat_notifications(quiet, [_message(1, "hi")]) == []
    (note,) = chat_notifications(reg, [_message(1, "hi"), _message(2, "rude")])
    assert "text" not in msgspec.json.encode(note.data).decode()
    body = msgspec.json.encode({"type": "messages", "data": note.data})
    sent = msgspec.json.decode(with_texts(body, {1: "hi", 2: None}.get))
    assert [(m["text"], m["hidden"]) for m in sent["data"]["messages"]] == [
        ("hi", False), (None, True)]
