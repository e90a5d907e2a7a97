"""The boardgame.io port of Ochs & Esel the `peer` benchmark drives (bench/peer/game.js),
played in process through boardgame.io's own client and master: legal moves are accepted,
illegal ones refused, games end, no seat sees another's hand. Needs node and the peer's
npm cache (`python -m bench --sections peer` installs it); skipped otherwise."""

from __future__ import annotations

import json
import subprocess

import pytest

from bench.peer.install import HERE, PeerUnavailable, cache_dir, is_installed, tools
from bench.peer.stacks import node_env


def _node() -> str:
    try:
        node, _ = tools()
    except PeerUnavailable as reason:
        pytest.skip(str(reason))
    if not is_installed(cache_dir()):
        pytest.skip(f"boardgame.io is not installed in {cache_dir()}")
    return node


def test_random_games_of_the_port_end_and_refuse_illegal_moves():
    node = _node()
    done = subprocess.run([node, str(HERE / "selfcheck.js"), "12"], capture_output=True,
                          text=True, env=node_env(cache_dir() / "node_modules"), timeout=120,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["ok"] and result["games"] == 12
    # A 3-seat game of 5 rounds of 13 cards: about 230 moves when played at random, as
    # donkeypost's own engine plays it.
    assert 100 < result["moves_per_game"] < 500
    assert result["illegal_refused"] > result["moves"]
