"""Table chat: what a message may say, the entries of a game's chat, and how they are shown.

A game's chat is a log of its own, beside the game's (which stays the rules' log): entries
numbered 1, 2, … in the order the store received them (`n`). An entry is a `message` (a
seat's text, with the seat's name and player) or a `message_hidden` (the game's creator hid
message `message`): the hiding is recorded as an entry, and the text it hides is erased
from the store, so it is never shown again — a hidden message is shown with `text: null`
and `hidden: true`. Everybody may read the chat (spectators too); only seats write.

What a text may hold: 1 to `MAX_TEXT` characters once its surrounding blanks are dropped,
lines and tabs allowed; no other control characters, no bidirectional overrides or
isolates (they make a text show other than it reads), nothing outside Unicode's
characters; and something to see: a text of blanks only (zero-width spaces, joiners, Hangul
fillers, a blank Braille pattern…) is refused like an empty one. A game's chat holds at
most `MAX_MESSAGES` entries of messages: it is bounded like everything a game keeps
(hiding is always possible).
"""

from __future__ import annotations

import unicodedata
from typing import Any

import msgspec

from domain.errors import BadMessage

MAX_TEXT = 500
MAX_MESSAGES = 2000  # entries a game's chat may reach by messages (hidings come on top)
MESSAGE, HIDDEN = "message", "message_hidden"
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
                           "\u200e\u200f\u061c")
_ALLOWED_CONTROLS = frozenset("\n\t")
# Letters and symbols that draw nothing (Unicode's default-ignorable ones outside the format
# category, and the blank Braille pattern): a text made of them and of spaces says nothing.
_BLANK_LOOKING = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")
_BLANK_CATEGORIES = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf", "Mn", "Me"})


class ChatEntry(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    type: str  # MESSAGE or HIDDEN
    at: float
    n: int = 0  # its number in the game's chat, given by the store
    seat: int | None = None  # a message's writer
    name: str | None = None
    player: str | None = None  # the writer's player id, if a player wrote it
    text: str | None = None  # a message's text; None once hidden (erased)
    message: int | None = None  # the message a hiding hides


def clean_text(raw: str) -> str:
    """The text as it is kept, or BadMessage saying what is wrong with it."""
    text = raw.strip()
    if not any(unicodedata.category(ch) not in _BLANK_CATEGORIES and ch not in _BLANK_LOOKING
               for ch in text):
        raise BadMessage("a message says something: it may not be empty or blank")
    if len(text) > MAX_TEXT:
        raise BadMessage(f"a message has at most {MAX_TEXT} characters, not {len(text)}")
    for ch in text:
        category = unicodedata.category(ch)
        if (category == "Cc" and ch not in _ALLOWED_CONTROLS) or ch in _BIDI_CONTROLS \
                or category in ("Cs", "Cn"):
            raise BadMessage(f"a message may not hold U+{ord(ch):04X} "
                             f"({unicodedata.name(ch, 'a control character')})")
    return text


def shown(entry: ChatEntry) -> dict[str, Any]:
    """The entry as every reader sees it (a hidden message without its text)."""
    if entry.type == HIDDEN:
        return {"n": entry.n, "type": HIDDEN, "at": entry.at, "message": entry.message}
    return {"n": entry.n, "type": MESSAGE, "at": entry.at, "seat": entry.seat,
            "name": entry.name, "player": entry.player, "text": entry.text,
            "hidden": entry.text is None}


def without_hidden(entries: list[ChatEntry]) -> list[ChatEntry]:
    """`entries` with the text of every message that a later one of them hides erased (a
    buffer read before the hiding must not show it again)."""
    hidden = {e.message for e in entries if e.type == HIDDEN}
    if not hidden:
        return entries
    return [msgspec.structs.replace(e, text=None) if e.type == MESSAGE and e.n in hidden
            else e for e in entries]
