"""The README's "Being told" commands run as written against a live server (they are
`examples/notifications.sh`, which must hold them unchanged)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.live import serving

ROOT = Path(__file__).resolve().parents[2]


def _readme_block() -> str:
    section = (ROOT / "README.md").read_text().split("### Being told:", 1)[1]
    return section.split("```sh\n", 1)[1].split("```", 1)[0]


def test_the_example_script_holds_the_readme_commands():
    assert _readme_block() in (ROOT / "examples" / "notifications.sh").read_text()


@pytest.mark.skipif(shutil.which("curl") is None, reason="needs curl")
def test_the_readme_commands_run_against_a_live_server(app):
    with serving(app) as base:
        done = subprocess.run(["bash", str(ROOT / "examples" / "notifications.sh")],
                              env={**os.environ, "API": base}, capture_output=True,
                              text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    page, invited, pending, key_length, bot = done.stdout.splitlines()
    assert page.startswith("[('invited', ") and page.endswith("')]")
    assert invited == "event: invited"  # the same entry, pushed
    assert pending == "ann@example.org 12"  # waiting for its confirmation
    assert key_length == "87"  # an uncompressed P-256 point, base64url
    assert bot == "True"
