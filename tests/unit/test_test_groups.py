"""The parallel run's groups (`GROUPS` in tests/conftest.py) keep what a module builds once
built once: a test file with a module-scoped fixture is in a group (else its tests may be
spread over two processes, each building it, or rebuilt between tests handed out in turns),
and every entry of the table names a file or folder that exists."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import GROUPS, ROOT, group_of

MODULE_SCOPED = re.compile(r"""scope\s*=\s*["'](module|package)["']""")


def test_each_file_with_a_module_scoped_fixture_runs_in_one_group():
    ungrouped = []
    for path in sorted([*ROOT.glob("tests/**/*.py"), *ROOT.glob("bench/tests/**/*.py")]):
        relative = path.relative_to(ROOT).as_posix()
        if MODULE_SCOPED.search(path.read_text()) and group_of(relative) is None:
            ungrouped.append(relative)
    assert not ungrouped, f"add them to GROUPS in tests/conftest.py: {ungrouped}"


def test_every_group_names_what_exists():
    for where in GROUPS:
        assert (ROOT / where).is_dir() if where.endswith("/") else (ROOT / where).is_file(), \
            where
    assert group_of("tests/browser/test_chat.py") == "browser"
    assert group_of("tests/unit/test_trash.py") is None
    assert group_of("tests/e2e/test_hostile_input.py") == "hostile-input"
    assert group_of("tests/e2e/test_hostile_input.py.orig") is None


def test_the_run_is_parallel_by_default():
    pyproject = (Path(ROOT) / "pyproject.toml").read_text()
    addopts = re.search(r'^addopts = "(.*)"$', pyproject, re.M)
    assert addopts is not None
    assert {"-n", "auto", "--dist", "loadgroup"} <= set(addopts[1].split())
