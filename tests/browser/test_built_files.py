"""The web table's committed build (`api/play/`, served at `/play/`) is what `web/` builds
today from the committed OpenAPI document: the types are generated again, the TypeScript is
checked under `--strict`, the bundle is built again and must equal the committed files
(like the OpenAPI drift test). Needs Node and npm: without them it skips, unless
`DONKEYPOST_REQUIRE_NODE` is set (CI sets it)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.workers import ROOT

WEB = ROOT / "web"
BUILT = ROOT / "api" / "play"


def _npm() -> str:
    npm = shutil.which("npm")
    if shutil.which("node") is None or npm is None:
        if os.environ.get("DONKEYPOST_REQUIRE_NODE"):
            pytest.fail("Node and npm are required here (DONKEYPOST_REQUIRE_NODE is set)")
        pytest.skip("Node is not installed: the web table's build is not checked "
                    "(apt-get install -y nodejs npm)")
    return npm


def test_the_committed_web_table_is_what_web_builds(tmp_path):
    npm = _npm()
    if not (WEB / "node_modules" / ".bin" / "esbuild").exists():
        run = subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--silent"], cwd=WEB,
                             capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stdout + run.stderr
    run = subprocess.run([npm, "run", "--silent", "build", "--", str(tmp_path)], cwd=WEB,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    built = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())
    assert built == sorted(str(p.relative_to(BUILT)) for p in BUILT.rglob("*") if p.is_file())
    for name in built:
        assert (tmp_path / name).read_bytes() == (BUILT / name).read_bytes(), \
            f"api/play/{name} is out of date: run `npm run build` in web/"


def test_the_built_files_are_package_data():
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"api" = ["play/*", "play/locales/*"]' in pyproject
    assert {p.name for p in BUILT.iterdir()} == {"index.html", "app.js", "app.css", "sw.js",
                                                "locales"}
    assert {p.name for p in (BUILT / "locales").iterdir()} == {"fr.json", "de.json"}
    assert Path(BUILT / "app.js").stat().st_size > 10_000


def test_ci_installs_chromium_and_fails_a_skipped_browser_test():
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert "export DONKEYPOST_REQUIRE_BROWSER=1" in lines
    assert any("apt-get install" in line and "chromium" in line for line in lines)
    assert "(cd web && npm ci --no-audit --no-fund --silent)" in lines


# What the page weighs, built (bytes, before any compression): kept small on purpose.
BUDGETS = {"app.js": 80_000, "app.css": 18_000, "locales/fr.json": 16_000,
           "locales/de.json": 16_000}


def test_the_page_keeps_within_its_budget():
    for name, budget in BUDGETS.items():
        size = (BUILT / name).stat().st_size
        assert size <= budget, f"api/play/{name} weighs {size} bytes, over its {budget}"
