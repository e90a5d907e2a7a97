"""The README's first game works as pasted: `examples/quickstart.sh` against a live server
named by `API=`, leaving no file behind, ending on the table right after the deal."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from domain.service import NoHooks
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings
from tests.support.live import serving

SCRIPT = Path(__file__).parents[2] / "examples" / "quickstart.sh"


@pytest.mark.skipif(shutil.which("curl") is None, reason="the quickstart uses curl")
def test_the_quickstart_plays_a_move_and_shows_the_table_after_the_deal(redis_url,
                                                                         redis_client,
                                                                         tmp_path):
    app = web_app(bootstrap(Settings(redis_url=redis_url), hooks=NoHooks()), {"TESTING": True})
    with serving(app) as base:
        run = subprocess.run(["bash", str(SCRIPT)], cwd=tmp_path, capture_output=True,
                             text=True, timeout=60, env={**os.environ, "API": base})
    assert run.returncode == 0, run.stdout + run.stderr
    assert list(tmp_path.iterdir()) == [], "the quickstart left files behind"
    last = run.stdout.strip().splitlines()[-1]
    match = re.fullmatch(r"after the deal \(event (\d+)\), to act: \[\d\] your hand: \[.+\]",
                         last)
    assert match and int(match[1]) > 5, last  # event 5 is game_started, before the deal
    README = (SCRIPT.parents[1] / "README.md").read_text()
    script = SCRIPT.read_text()
    assert script[script.index("API=${API"):].strip() in README, \
        "the README's first game is not examples/quickstart.sh"
