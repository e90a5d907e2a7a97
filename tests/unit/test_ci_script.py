"""CI runs what the README tells a contributor to run, with Node present so that the
TypeScript client is always compiled there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parents[2]


def test_ci_runs_the_readme_test_command_with_node_required():
    readme = (ROOT / "README.md").read_text()
    command = re.search(r"Run the tests:\n\n```sh\n(.+?)\n```", readme)
    assert command, "the README has no test command"
    script = (ROOT / ".ci" / "run").read_text()
    lines = [line.strip() for line in script.splitlines()]
    assert command[1].strip() in lines, "CI does not run the README's test command"
    assert "export DONKEYPOST_REQUIRE_NODE=1" in lines
    assert lines.index("export DONKEYPOST_REQUIRE_NODE=1") < lines.index(command[1].strip())


def test_ci_gives_schemathesis_its_full_budget():
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert "export DONKEYPOST_SCHEMATHESIS_S=150" in lines
