"""The games the tests play, in one registry built as the composition root builds it:

- `project_games()`: the project's own games, those of the committed OpenAPI document;
- `installed_games()`: the installed games (the project's, and any game distribution
  installed beside it, such as the test suite's own): what the contract tests cover;
- `games_under_test()`: those and the test games of `tests/support` (`high_card`): what the
  tests' apps and services play. Tests hand it to what they build
  (`bootstrap(..., games=games_under_test())`, `GameService(store, games_under_test())`),
  or take it as the `games` fixture.
"""

from __future__ import annotations

from functools import cache

from domain.registry import GameRegistry, installed
from donkeypost.cli import OWN_DISTRIBUTION
from tests.support import high_card


@cache  # games are fixed objects: one registry serves every test of a run
def project_games() -> GameRegistry:
    return installed(distributions=[OWN_DISTRIBUTION])


@cache
def installed_games() -> GameRegistry:
    return installed()


@cache
def games_under_test() -> GameRegistry:
    return installed_games().with_games(high_card.GAME)
