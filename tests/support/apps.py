"""The web app the tests talk to over its test client, built once per run for each set of
settings (and games) rather than once per test: building one costs as much as a few
hundred requests (the OpenAPI document is made then), and an app keeps nothing a test
leaves behind: the games live in Redis, which each test empties first."""

from __future__ import annotations

from flask import Flask

from domain import registry
from domain.service import NoHooks
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings

_built: dict[tuple[str, tuple[str, ...]], Flask] = {}


def shared_app(settings: Settings) -> Flask:
    """The app of `settings` with no hooks after an append (no worker runs beside it),
    `TESTING` on; the same object for the same settings and games, all the run long."""
    key = (repr(settings), tuple(sorted(registry.games())))
    if key not in _built:
        _built[key] = web_app(bootstrap(settings, hooks=NoHooks()), {"TESTING": True})
    return _built[key]
