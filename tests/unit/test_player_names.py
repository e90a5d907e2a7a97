"""Player names: kept NFKC-normalized, the same name whatever its case or Unicode form,
bounded, and refused when made to pass for another (mixed scripts, invisible characters);
and the player key's form."""

from __future__ import annotations

import pytest

from domain.errors import BadName
from domain.players.credentials import is_player_key, new_player_key, player_of
from domain.players.names import MAX_LENGTH, clean_name, name_key


@pytest.mark.parametrize(("typed", "kept"), [
    ("Ann", "Ann"),
    ("  Ann   Lee ", "Ann Lee"),
    ("Ａｎｎ", "Ann"),  # full-width forms fold to ASCII
    ("Zoë", "Zoë"),
    ("Zoe\u0308", "Zoë"),  # a combining diaeresis composes
    ("Jean-Luc O'Neil", "Jean-Luc O'Neil"),
    ("Андрей", "Андрей"),
    ("山田たろう", "山田たろう"),  # kanji with kana: one writing system
    ("R2D2", "R2D2"),
])
def test_names_are_kept_as_typed_after_normalization(typed, kept):
    assert clean_name(typed) == kept


@pytest.mark.parametrize("same", ["ann", "ANN", "Ａｎｎ", "aNn"])
def test_case_and_unicode_forms_give_one_name(same):
    assert name_key(clean_name(same)) == name_key(clean_name("Ann"))


def test_folding_that_expands_still_gives_one_key():
    assert name_key(clean_name("Straße")) == name_key(clean_name("STRASSE"))


@pytest.mark.parametrize("bad", [
    "",
    "a",
    "x" * (MAX_LENGTH + 1),
    "An\u0430",  # a Cyrillic "а" among Latin letters
    "Ann\u200b",  # a zero-width space
    "Ann\u202e",  # a right-to-left override
    "Ann\u0000",
    "Ann\ud800",  # a lone surrogate
    "Ann 🙂",
    "\u0301Ann",  # a combining mark with no letter before it
    "----",  # no letter or digit
    "Ann\tLee",
])
def test_names_that_could_pass_for_another_are_refused(bad):
    with pytest.raises(BadName):
        clean_name(bad)


def test_a_player_key_names_its_player():
    key = new_player_key("abc_-123")
    assert is_player_key(key) and player_of(key) == "abc_-123"
    assert new_player_key("abc_-123") != key
    assert player_of("pk.nosecret") is None
    assert player_of("pk..secret") is None
    assert player_of("pk.a}b{.secret") is None and player_of("pk.a.b.c") == "a"
    assert player_of("a-seat-token") is None and not is_player_key("a-seat-token")
