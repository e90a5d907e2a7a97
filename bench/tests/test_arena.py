"""The arena's command line."""

from __future__ import annotations

import pytest

from bench.arena.cli import main as arena


def test_the_arena_refuses_an_unknown_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert arena(["--game", "ochs-und-esel", "--seats", "basic,master,random", "--games", "1",
                  "--quiet"]) == 2
    assert "unknown level(s): master" in capsys.readouterr().out
