"""Whole games played through HTTP, checking at every move that no seat is shown another
seat's hidden cards, and that the finished log verifies and replays."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from domain.verify import verify_log
from tests.support.games import games_under_test, installed_games


def _assert_private_parts_are_own(payload: Any, seat: int | None) -> None:
    """Every `private` object in an answer holds at most the caller's own part."""
    if isinstance(payload, dict):
        if "private" in payload and isinstance(payload["private"], dict):
            allowed = set() if seat is None else {str(seat)}
            assert set(payload["private"]) <= allowed, payload
        for value in payload.values():
            _assert_private_parts_are_own(value, seat)
    elif isinstance(payload, list):
        for value in payload:
            _assert_private_parts_are_own(value, seat)


def _play(api, game_type: str, players: int, options: dict[str, Any], seed: int) -> dict:
    game_id, tokens = api.new_game(game_type, players, options)
    rng = random.Random(seed)
    last_seen = [0] * players

    def pick(view: dict) -> dict:
        return rng.choice(view["legal_actions"])

    def on_move(view: dict, acted: dict) -> None:
        seat = view["you"]
        _assert_private_parts_are_own(acted, seat)
        page = api.events(game_id, tokens[seat], after=last_seen[seat])
        if page["status"] != "finished":  # after the end everyone sees everything
            _assert_private_parts_are_own(page, seat)
        last_seen[seat] = page["version"]
        if view["status"] == "active":
            assert "hands" not in json.dumps(view["game"]), "a view shows several hands"

    end = api.play_to_end(game_id, tokens, pick=pick, on_move=on_move)
    assert end["status"] == "finished" and sorted(end["outcome"]["places"])[0] == 1
    lines = api.http.get(f"/games/{game_id}/log").data.splitlines()
    assert verify_log(lines, games_under_test()) == []
    return end


def test_a_three_player_ochs_und_esel_game_to_the_end(api):
    end = _play(api, "ochs-und-esel", 3, {"rounds": 2}, seed=1)
    assert len(end["outcome"]["scores"]) == 3


def test_a_five_player_ox_variant_game_to_the_end(api):
    end = _play(api, "ochs-und-esel", 5, {"rounds": 1, "ox_variant": True}, seed=2)
    assert len(end["outcome"]["scores"]) == 5


# Every other installed game, at a middle player count: with options that keep it short,
# else its defaults.
SHORTER = {"crazy-donkey": (4, {"deals": 1}), "trash": (3, {"max_rounds": 2, "wild": "JQK"})}


@pytest.mark.parametrize("game_type", sorted(set(installed_games()) - {"ochs-und-esel"}))
def test_other_games_to_the_end(api, game_type):
    game = installed_games()[game_type]
    players, options = SHORTER.get(game_type,
                                   ((game.min_players + game.max_players) // 2, {}))
    _play(api, game_type, players, options, seed=3)
