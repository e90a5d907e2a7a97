"""The reference web table at `/play/`: the built files of `web/` (TypeScript bundled with
esbuild, committed in `api/play/` so that an installed package serves them without Node).

The page uses nothing but the public API, like any third-party frontend: it is served here
only so that `donkeypost serve` has a table to open. `/play` leads to `/play/`, whose
relative links find the script and styles.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, redirect, send_from_directory

BUILT = Path(__file__).with_name("play")


def make_blueprint() -> Blueprint:
    blp = Blueprint("play", __name__, static_folder=str(BUILT), static_url_path="/play")

    @blp.get("/play")
    def play_root() -> Response:
        return redirect("/play/", code=308)

    @blp.get("/play/")
    def play_index() -> Response:
        return send_from_directory(BUILT, "index.html")

    return blp
