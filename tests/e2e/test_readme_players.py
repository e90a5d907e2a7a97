"""The README's "Playing as a player" commands run as written against a live server (they
are `examples/players.sh`, which must hold them unchanged)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.live import serving

ROOT = Path(__file__).resolve().parents[2]


def _readme_block() -> str:
    section = (ROOT / "README.md").read_text().split("### Playing as a player", 1)[1]
    return section.split("```sh\n", 1)[1].split("```", 1)[0]


def test_the_example_script_holds_the_readme_commands():
    assert _readme_block() in (ROOT / "examples" / "players.sh").read_text()


@pytest.mark.skipif(shutil.which("curl") is None, reason="needs curl")
def test_the_readme_commands_run_against_a_live_server(app):
    with serving(app) as base:
        done = subprocess.run(["bash", str(ROOT / "examples" / "players.sh")],
                              env={**os.environ, "API": base}, capture_output=True,
                              text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    invitation, seat, my_turn, to_act, played_by, said, chat, lobby, games, board = \
        done.stdout.splitlines()
    assert seat == "1"  # Bob took the seat kept for him
    assert invitation in my_turn  # Ann's turn in the game she created
    assert to_act == "[1]"  # her move made it Bob's
    assert played_by == "strong"  # he left his seat to the strong bot
    assert (said, chat) == ("1", "[('Ann', 'good luck!')]")  # and anyone reads the chat
    assert (lobby, games, board) == ("0", "[]", "0")  # nothing finished, nothing rated
