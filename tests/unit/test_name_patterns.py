"""The name patterns the API's document gives are sound: every name they match (within the
length bounds) is taken as it is, by the same rules the service applies."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.players.names import (
    MAX_LENGTH,
    MIN_LENGTH,
    TABLE_NAME_LENGTH,
    clean_name,
    clean_table_name,
    name_pattern,
    table_name_pattern,
)


@settings(max_examples=25, deadline=None)
@given(st.from_regex(name_pattern(), fullmatch=True).filter(
    lambda n: MIN_LENGTH <= len(n) <= MAX_LENGTH))
def test_a_name_the_pattern_matches_is_taken_as_it_is(name: str) -> None:
    assert clean_name(name) == name


@settings(max_examples=25, deadline=None)
@given(st.from_regex(table_name_pattern(), fullmatch=True).filter(
    lambda n: 1 <= len(n) <= TABLE_NAME_LENGTH))
def test_a_table_name_the_pattern_matches_is_taken_as_it_is(name: str) -> None:
    assert clean_table_name(name) == name


def test_the_patterns_refuse_what_the_rules_refuse() -> None:
    player, table = re.compile(name_pattern()), re.compile(table_name_pattern())
    for bad in ("a  b", " ab", "ab ", "..", "Ann Вася", "a\u200bb", "a\nb", "a☃"):
        assert not player.match(bad), bad
    for good in ("Ann", "Jörg Müller", "Вася", "李小龍", "O'Brien", "42"):
        assert player.match(good), good
    for bad in ("a  b", " ab", "a\u202eb", "a\tb"):
        assert not table.match(bad), bad
    assert table.match("Ann ☃ (guest)")
