"""The game registry: games found through the `donkeypost.games` entry points, checked as
they load, refused when they cannot be played or collide."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from domain.errors import UnknownGame
from domain.registry import ENTRY_POINT_GROUP, GameLoadError, GameRegistry, installed, load
from tests.support import high_card

OWN = ("canyon-donkeys", "crazy-donkey", "ochs-und-esel", "trash")


def point(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=ENTRY_POINT_GROUP)


def test_the_projects_games_are_its_entry_points_in_the_order_of_their_ids():
    games = installed(distributions=["donkeypost"])
    assert tuple(games) == OWN
    assert all(games[game_id].id == game_id for game_id in OWN)
    assert set(OWN) <= set(installed())  # and any other installed distribution's


def test_a_game_is_looked_up_by_id_or_refused_with_the_apis_code():
    games = GameRegistry([high_card.GAME])
    assert games.game("high-card") is high_card.GAME
    with pytest.raises(UnknownGame) as err:
        games.game("chess")
    assert err.value.code == "unknown_game_type"


def test_two_games_with_one_id_refuse_naming_both():
    with pytest.raises(GameLoadError, match=r"two games have the id 'high-card': .*high_card.* "
                                            r"and .*high_card"):
        GameRegistry([high_card.GAME, high_card.GAME])
    loaded = installed()
    with pytest.raises(GameLoadError, match=r"two games have the id 'trash': game 'trash' "
                                            r"\(domain\.games\.trash:GAME, from donkeypost\)"):
        loaded.with_games(loaded["trash"])


@pytest.mark.parametrize(("entry", "says"), [
    (point("nowhere", "tests.support.no_such_module:GAME"),
     r"^game 'nowhere' \(tests\.support\.no_such_module:GAME, from unknown\) failed to load: "
     r"ModuleNotFoundError: No module named 'tests\.support\.no_such_module'$"),
    (point("high-card", "tests.support.high_card:NO_SUCH_NAME"),
     r"^game 'high-card' .* failed to load: AttributeError: .*NO_SUCH_NAME"),
    (point("settings", "donkeypost.settings:Settings"),
     r"^game 'settings' .* is not a game: it has no id, title, .*round_scored, "
     r"action_label, event_sentence, layout$"),
    (point("high", "tests.support.high_card:GAME"),
     r"^game 'high' .* has the id 'high-card': the entry point's name must be the game's id$"),
])
def test_a_game_that_cannot_be_played_names_itself_in_one_line(entry, says):
    with pytest.raises(GameLoadError, match=says) as err:
        load(entry)
    assert "\n" not in str(err.value)


def test_a_broken_game_stops_the_server_before_it_starts(tmp_path: Path):
    # An installed distribution (its metadata, as an installer writes it) whose game raises.
    (tmp_path / "broken_game.py").write_text("raise RuntimeError('the deck is missing')\n")
    info = tmp_path / "broken_game-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-game\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\nbroken = broken_game:GAME\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(tmp_path), *filter(None, [os.environ.get("PYTHONPATH")])]),
        "DONKEYPOST_DATA": str(tmp_path / "data")}
    done = subprocess.run([sys.executable, "-m", "donkeypost.cli", "serve", "--port", "0"],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "donkeypost: game 'broken' (broken_game:GAME, from broken-game) failed to load: "
        "RuntimeError: the deck is missing"]
    assert not (tmp_path / "data").exists()  # nothing was started
