"""The test suite's own game distributions (`tests/game_plugins/<name>/`, each with its own
`pyproject.toml` and `donkeypost.games` entry point), installed for the run as any game is
installed: `pip install` builds each one and writes its metadata, entry point included,
into a folder of the test run that is put on the path of the tests and of every process
they start (`PYTHONPATH`). The registry then finds them as it finds the project's own
games (`domain.registry.installed`) and no file outside their folders names them.

The folder is kept between runs under the pytest cache, keyed by the distributions'
contents: a run reinstalls only what changed (a first install takes a few seconds).
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

PLUGINS = Path(__file__).resolve().parent.parent / "game_plugins"


def distributions() -> list[Path]:
    """The folders of the test suite's game distributions."""
    return sorted(p for p in PLUGINS.iterdir() if (p / "pyproject.toml").is_file())


def fingerprint(folders: list[Path]) -> str:
    """A digest of the distributions' files (what an install would build)."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and \
                    not any(part.endswith(".egg-info") or part == "build"
                            for part in path.relative_to(folder).parts):
                digest.update(str(path.relative_to(PLUGINS)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def install(cache: Path) -> Path:
    """Install the distributions into a folder under `cache` (once per version of their
    files) and put it on this process's path and on its children's; the folder."""
    folders = distributions()
    target = cache / f"game-plugins-{fingerprint(folders)}"
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / ".lock", "w") as lock:  # one install at a time (runs side by side)
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (target / ".installed").exists():
            _install(folders, cache, target)
    if str(target) not in sys.path:
        sys.path.insert(0, str(target))
        importlib.invalidate_caches()
    paths = [str(target), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    return target


def _install(folders: list[Path], cache: Path, target: Path) -> None:
    """`pip install` the distributions into `target`."""
    # The build backend comes from this environment when it has it (setuptools and
    # wheel); else pip's isolated build fetches it, as for the project's own install.
    isolation = ["--no-build-isolation"] if all(
        importlib.util.find_spec(name) is not None for name in ("setuptools", "wheel")) \
        else []
    # Built from copies: the build leaves its `build/` and `*.egg-info` there, not in
    # the repository.
    sources = cache / f"sources-{target.name}"
    shutil.rmtree(sources, ignore_errors=True)
    copies = [shutil.copytree(folder, sources / folder.name, ignore=shutil.ignore_patterns(
        "__pycache__", "build", "*.egg-info")) for folder in folders]
    run = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-compile",
         "--disable-pip-version-check", *isolation, "--target", str(target),
         *map(str, copies)],
        capture_output=True, text=True, timeout=300)
    shutil.rmtree(sources, ignore_errors=True)
    for old in cache.glob("game-plugins-*"):  # the installs of earlier versions
        if old != target:
            shutil.rmtree(old, ignore_errors=True)
    if run.returncode != 0:
        raise RuntimeError(f"installing the test game distributions failed:\n"
                           f"{run.stdout}{run.stderr}")
    (target / ".installed").touch()
