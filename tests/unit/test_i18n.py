"""Choosing the language of an answer, and reading a game's catalog: plurals in the form
each language gives a count, English for what a catalog lacks, nothing read twice."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from domain.i18n import Texts, negotiate, read_catalog

PO = r'''
msgid ""
msgstr ""
"Content-Type: text/plain; charset=utf-8\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\n"

msgid "Draw"
msgstr "Piocher"

msgid "{n} card"
msgid_plural "{n} cards"
msgstr[0] "{n} carte"
msgstr[1] "{n} cartes"

#, fuzzy
msgid "Pass"
msgstr "Passer"

msgctxt "error"
msgid "too_low"
msgstr "Trop bas."
'''


def test_the_language_asked_then_the_accepted_ones_then_english():
    assert negotiate("fr", [("de", 1.0)]) == "fr"
    assert negotiate("FR-ca", []) == "fr"
    assert negotiate(None, [("ja", 1.0), ("de-AT", 0.8), ("fr", 0.9)]) == "fr"
    assert negotiate("xx", [("de", 0.5), ("en", 0.4)]) == "de"
    assert negotiate(None, [("de", 0.0)]) == "en"
    assert negotiate(None, []) == "en"


def test_a_games_catalog_with_plurals_and_a_fallback(tmp_path: Path):
    folder = tmp_path / "locale" / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "toy.po").write_text(PO)
    game = SimpleNamespace(id="toy", locale_dir=tmp_path / "locale")
    texts = Texts({"toy": game}, server_dir=tmp_path / "none")
    say = texts.translator("fr", "toy")
    assert say("Draw", None, None) == "Piocher"
    assert [say("{n} card", "{n} cards", n) for n in (0, 1, 2)] == \
        ["{n} carte", "{n} carte", "{n} cartes"]
    assert say("Pass", None, None) == "Pass", "a fuzzy translation is not used"
    assert say("Keep", None, None) == "Keep"
    assert texts.translator("de", "toy")("{n} card", "{n} cards", 0) == "{n} cards"
    assert texts.error("fr", "too_low", "play higher") == "Trop bas."
    assert texts.error("en", "too_low", "play higher") == "play higher"
    assert texts.error("fr", "unheard_of", "as raised") == "as raised"
    assert read_catalog.cache_info().currsize >= 1
