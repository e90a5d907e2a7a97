"""boardgame.io, installed from npm into a cache folder outside the repository and reused
by later runs: `$XDG_CACHE_HOME/donkeypost/peer` (else `~/.cache/donkeypost/peer`), or
`DONKEYPOST_PEER_CACHE`.

`bench/peer/package.json` pins what is installed (boardgame.io, socket.io-client for the
load generator, node-persist for its FlatFile storage, and koa-compose through an npm
`overrides` entry: with 4.2.0 every Lobby route of boardgame.io 0.50 answers 404). The
cache holds a copy of that file; when the copy differs, the cache is installed again.
None of boardgame.io's code is in the project: Node finds it through `NODE_PATH`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PACKAGE = HERE / "package.json"
# What the benchmark reports the versions of.
PACKAGES = ("boardgame.io", "socket.io", "socket.io-client", "koa", "koa-compose",
            "node-persist")


class PeerUnavailable(Exception):
    """The peer cannot run here; the message says why, in one line."""


def cache_dir() -> Path:
    explicit = os.environ.get("DONKEYPOST_PEER_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "donkeypost" / "peer"


def tools() -> tuple[str, str]:
    """The paths of `node` and `npm`, or PeerUnavailable."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or not npm:
        missing = " and ".join(n for n, p in (("node", node), ("npm", npm)) if not p)
        raise PeerUnavailable(f"{missing} not found on PATH: boardgame.io cannot run here")
    return node, npm


def is_installed(folder: Path) -> bool:
    copy = folder / "package.json"
    return (copy.is_file() and copy.read_bytes() == PACKAGE.read_bytes()
            and (folder / "node_modules" / "boardgame.io" / "package.json").is_file())


def ensure_installed(may_install: bool) -> tuple[Path, float | None]:
    """The `node_modules` folder to put on NODE_PATH, and the seconds an install took
    (None when the cache was ready). Installs when allowed, else PeerUnavailable."""
    _, npm = tools()
    folder = cache_dir()
    if is_installed(folder):
        return folder / "node_modules", None
    if not may_install:
        raise PeerUnavailable(f"boardgame.io is not installed in {folder}; a run without "
                              "--quick installs it")
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(PACKAGE, folder / "package.json.new")
    os.replace(folder / "package.json.new", folder / "package.json")
    started = time.perf_counter()
    done = subprocess.run([npm, "install", "--no-audit", "--no-fund", "--omit=dev",
                           "--loglevel=error"], cwd=folder, capture_output=True, text=True,
                          check=False)
    if done.returncode != 0 or not is_installed(folder):
        (folder / "package.json").unlink(missing_ok=True)  # try again next time
        raise PeerUnavailable("npm install of boardgame.io failed: "
                              + " ".join(done.stderr.split())[-300:])
    return folder / "node_modules", time.perf_counter() - started


def versions(node_modules: Path) -> dict[str, str]:
    """The installed versions of the packages that matter, and Node's."""
    out = {"node": subprocess.run([tools()[0], "--version"], capture_output=True, text=True,
                                  check=False).stdout.strip()}
    for name in PACKAGES:
        try:
            out[name] = json.loads((node_modules / name / "package.json").read_text())["version"]
        except (OSError, ValueError, KeyError):
            out[name] = "?"
    return out
