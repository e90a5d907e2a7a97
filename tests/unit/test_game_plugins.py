"""A game is its own distribution: the suite's extra games (`tests/game_plugins/`) are
installed for the run as any game is, are played by the whole suite as the project's own
games are, and need nothing outside their folders — the guide (`docs/adding-a-game.md`)
lists exactly the files they hold."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from api.contract.games import pascal
from domain.registry import ENTRY_POINT_GROUP
from donkeypost.cli import OPENAPI_PATH, openapi_document
from tests.support.games import installed_games, project_games
from tests.support.plugins import PLUGINS, distributions

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "adding-a-game.md"
# Not sources of the project: generated, installed or cached files.
SKIPPED = {".git", ".venv", "node_modules", "__pycache__", ".pytest_cache", ".ruff_cache",
           ".hypothesis", "artifacts", "data", "build", "dist"}


def files(folder: Path) -> set[str]:
    """The files of a folder as a distribution ships them (no build or cache output)."""
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()
            and not any(part in SKIPPED or part.endswith(".egg-info")
                        for part in p.relative_to(folder).parts)}


def project_files() -> list[Path]:
    """The project's files: those git knows or would add (what .gitignore leaves out is
    not the project's), else every file but the generated, installed or cached ones."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, text=True) \
        if shutil.which("git") else None
    if listed is not None and listed.returncode == 0:
        return [Path(line) for line in listed.stdout.splitlines() if (ROOT / line).is_file()]
    return [Path(p) for p in files(ROOT)]


def guide_files() -> list[str]:
    """The guide's list of a game distribution's files."""
    text = GUIDE.read_text()
    block = text.split("<!-- files of a game distribution: begin -->")[1].split(
        "<!-- files of a game distribution: end -->")[0]
    return [line.split()[0] for line in block.splitlines() if line.startswith("<distribution>")]


def package_of(folder: Path) -> str:
    (package,) = [p.parent.name for p in folder.glob("*/__init__.py")]
    return package


@pytest.mark.parametrize("folder", distributions(), ids=lambda f: f.name)
def test_the_guide_lists_exactly_the_files_of_a_game(folder: Path):
    package = package_of(folder)
    listed = {path.replace("<distribution>/", "").replace("<package>", package)
              for path in guide_files()}
    assert files(folder) == listed


@pytest.mark.parametrize("folder", distributions(), ids=lambda f: f.name)
def test_an_installed_game_is_found_and_played_like_the_projects(folder: Path):
    (point,) = [p for p in entry_points(group=ENTRY_POINT_GROUP)
                if p.value.split(":")[0].split(".")[0] == package_of(folder)]
    assert point.dist is not None and point.dist.name != "donkeypost"
    assert point.name in installed_games() and point.name not in project_games()
    # In the document a server with it serves (not in the committed one: the project's).
    served = json.loads(openapi_document(all_games=True))["components"]["schemas"]
    assert f"{pascal(point.name)}GameView" in served
    assert point.name in served["GameView"]["discriminator"]["mapping"]
    assert point.name not in OPENAPI_PATH.read_text()


@pytest.mark.parametrize("folder", distributions(), ids=lambda f: f.name)
def test_nothing_outside_a_games_folder_names_it(folder: Path):
    """Zero edits outside its folder: no source, test, configuration or built file of the
    project names the game (the guide in `docs/` may point at it as the example)."""
    names = {folder.name, package_of(folder)}
    pattern = re.compile("|".join(re.escape(n) for n in names))
    found = []
    for relative in project_files():
        path = ROOT / relative
        if relative.parts[0] == "docs" or path.is_relative_to(folder):
            continue
        try:
            text = path.read_text()
        except (UnicodeDecodeError, OSError):
            continue
        found += [str(relative)] if pattern.search(text) else []
    assert found == [], f"{sorted(names)} named outside {folder.relative_to(ROOT)}"
    assert folder.parent == PLUGINS
