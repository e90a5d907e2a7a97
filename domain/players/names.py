"""Player names: what a person may be called, and when two names are the same name.

A name is kept as typed after NFKC normalization (so full-width "Ａｎｎ" is kept as "Ann"),
its surrounding spaces dropped and inner runs of spaces made one. Two names are the same
when their *keys* are: the name case-folded and normalized again (folding may undo NFKC's
composition), so "ANN", "ann" and "Ａｎｎ" are one name.

What a name may hold keeps one player from passing for another: letters, combining marks
after a letter, digits, single spaces and `- _ . '`; no control or format characters
(zero-width joiners, bidirectional overrides), no symbols; and the letters of one script
only, so a Cyrillic "а" cannot stand inside a Latin "Ann". (Two names wholly in different
scripts that look alike — a Latin and a Cyrillic word of the same shapes — are not caught;
that would need the Unicode confusables table.)
"""

from __future__ import annotations

import functools
import re
import unicodedata

from domain.errors import BadName

MIN_LENGTH = 2
MAX_LENGTH = 24
PUNCTUATION = frozenset("-_.'")
# Scripts that one language writes together count as one (Japanese: kanji and kana;
# Korean: hangul and hanja).
_SCRIPT_FAMILIES = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "HANGUL": "CJK",
                    "IDEOGRAPHIC": "CJK", "HALFWIDTH": "CJK"}


def clean_name(raw: str) -> str:
    """The name as it is kept and shown, or BadName saying what is wrong with it."""
    name = " ".join(unicodedata.normalize("NFKC", raw).split(" "))
    name = " ".join(part for part in name.split(" ") if part)
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        raise BadName(f"a name has {MIN_LENGTH} to {MAX_LENGTH} characters")
    scripts: set[str] = set()
    previous = ""
    for ch in name:
        category = unicodedata.category(ch)
        if category.startswith("L"):
            scripts.add(_script(ch))
        elif category.startswith("M"):
            if not previous or not unicodedata.category(previous).startswith("L"):
                raise BadName("a combining mark must follow a letter")
        elif category != "Nd" and ch != " " and ch not in PUNCTUATION:
            what = unicodedata.name(ch, f"U+{ord(ch):04X}")
            raise BadName(f"a name may hold letters, digits, spaces and "
                          f"{''.join(sorted(PUNCTUATION))}; not {what}")
        previous = ch
    if len(scripts) > 1:
        raise BadName(f"a name's letters come from one script, not {len(scripts)} "
                      f"({', '.join(sorted(scripts))})")
    if not any(unicodedata.category(ch)[0] in "LN" for ch in name):
        raise BadName("a name holds at least one letter or digit")
    return name


TABLE_NAME_LENGTH = 40
# Control, format (bidirectional overrides, zero-width), surrogate, private-use and
# unassigned characters, and line and paragraph separators.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def clean_table_name(raw: str) -> str:
    """A name given at one table without a player: looser than a player's name (any
    printable text, 1 to 40 characters after the spaces are tidied), but nothing that hides
    or reorders what the other seats read."""
    name = " ".join(part for part in unicodedata.normalize("NFKC", raw).split(" ") if part)
    if not 1 <= len(name) <= TABLE_NAME_LENGTH:
        raise BadName(f"a name at a table has 1 to {TABLE_NAME_LENGTH} characters")
    for ch in name:
        if unicodedata.category(ch) in _HIDDEN_CATEGORIES:
            raise BadName(f"a name may not hold {unicodedata.name(ch, f'U+{ord(ch):04X}')}")
    return name


def name_key(name: str) -> str:
    """The key under which names are unique: case and Unicode forms do not count."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def _script(letter: str) -> str:
    """The script of a letter, from the first word of its Unicode name ("LATIN", ...)."""
    first = unicodedata.name(letter, "UNKNOWN").split(" ")[0]
    if first.startswith("CJK"):
        return "CJK"
    return _SCRIPT_FAMILIES.get(first, first)


# The names above as JSON Schema patterns (ECMA-262 and Python alike), for the API's
# document: a client may check a name before sending it. Built from the same rules: a
# name the pattern matches is taken as written (NFKC, single inner spaces). (A player's
# pattern leaves out combining marks, which the rules take after a letter, and a name that
# starts with `-_.'`: the pattern is the portable part of what is accepted.)
_DIGITS = "0-9"
_LAST_CODE_POINT = 0x2FFFF


def _class(code_points: list[int]) -> str:
    """A character class's inside for sorted code points, as ranges of \\u escapes."""
    def esc(cp: int) -> str:
        return f"\\u{cp:04x}" if cp <= 0xFFFF else f"\\u{{{cp:x}}}"
    parts: list[str] = []
    start = prev = code_points[0]
    for cp in [*code_points[1:], -1]:
        if cp == prev + 1:
            prev = cp
            continue
        parts.append(esc(start) if start == prev else f"{esc(start)}-{esc(prev)}")
        start = prev = cp
    return "".join(parts)


def _stable(ch: str) -> bool:
    return unicodedata.normalize("NFKC", ch) == ch


@functools.cache
def name_pattern() -> str:
    """A player's name: one script's letters, digits and `-_.'`, starting with a letter or
    a digit, single inner spaces, 2 to 24 characters (the length is the schema's)."""
    scripts: dict[str, list[int]] = {}
    for cp in range(0x41, 0xFFFF + 1):  # the pattern stays within the BMP (\\u escapes)
        ch = chr(cp)
        if unicodedata.category(ch).startswith("L") and _stable(ch):
            scripts.setdefault(_script(ch), []).append(cp)
    punctuation = re.escape("".join(sorted(PUNCTUATION)))
    alternatives = []
    for letters in scripts.values():
        first = f"[{_class(letters)}{_DIGITS}]"
        every = f"[{_class(letters)}{_DIGITS}{punctuation}]"
        # Bounded repetition: a test generator's strings mostly fit the length already.
        alternatives.append(f"{first}(?: ?{every}){{1,{MAX_LENGTH - 1}}}")
    return "^(?:" + "|".join(alternatives) + ")$"


@functools.cache
def table_name_pattern() -> str:
    """A name at a table: printable characters as kept (NFKC), single inner spaces."""
    printable = [cp for cp in range(0x21, 0xFFFF + 1)
                 if unicodedata.category(chr(cp)) not in _HIDDEN_CATEGORIES
                 and not unicodedata.category(chr(cp)).startswith("Z") and _stable(chr(cp))]
    every = f"[{_class(printable)}]"
    return f"^{every}+(?: {every}+)*$"
