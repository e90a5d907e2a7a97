"""The web app the tests talk to over its test client, built once per run for each set of
settings and games rather than once per test: building one costs as much as a few
hundred requests (the OpenAPI document is made then), and an app keeps nothing a test
leaves behind: the games live in Redis, which each test empties first. (A test that
changes its app, e.g. adds a route, builds one of its own.)"""

from __future__ import annotations

from flask import Flask

from domain.registry import GameRegistry
from domain.service import NoHooks
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings
from tests.support.games import games_under_test

_built: dict[tuple[str, int], tuple[GameRegistry, Flask]] = {}


def shared_app(settings: Settings, games: GameRegistry | None = None) -> Flask:
    """The app of `settings` playing `games` (the tests' own by default), with no hooks
    after an append (no worker runs beside it), `TESTING` on; the same object for the same
    settings and registry, all the run long."""
    games = games or games_under_test()
    key = (repr(settings), id(games))
    if key not in _built:  # (the registry is kept with the app: its id stays its own)
        _built[key] = (games, web_app(bootstrap(settings, hooks=NoHooks(), games=games),
                                      {"TESTING": True}))
    return _built[key][1]
