"""The bot levels: every level plays a legal move in every game, and a level that does not
exist is an error wherever a bot is asked for, never a random player in disguise."""

from __future__ import annotations

import random

import pytest

from domain.bots import LEVELS, UnknownLevel, choose_action, levels, observe
from domain.bots.levels import make_bot
from domain.bots.search_terms import Budget
from tests.gamekit import start
from tests.support.games import installed_games


def test_the_levels() -> None:
    assert LEVELS == ("random", "basic", "strong", "expert")


@pytest.mark.parametrize("game_id", sorted(installed_games()))
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_a_legal_move_in_every_game(game_id: str, level: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(levels, "DEFAULT_BUDGET", Budget(seconds=0.05))
    monkeypatch.setattr(levels, "EXPERT_BUDGET", Budget(seconds=0.05))
    game = installed_games().game(game_id)
    state, _ = start(game, game.min_players, seed=3)
    seat = min(game.to_act(state))
    obs = observe(game, state, seat)
    assert choose_action(level, game, obs, random.Random(0)) in obs.legal_actions
    bot = make_bot(level, Budget(seconds=None, iterations=10))
    assert bot(game, obs, random.Random(0)) in obs.legal_actions


def test_an_unknown_level_is_an_error() -> None:
    game = installed_games().game("ochs-und-esel")
    state, _ = start(game, 3)
    obs = observe(game, state, min(game.to_act(state)))
    with pytest.raises(UnknownLevel, match=r"'grandmaster'.*random, basic, strong, expert"):
        choose_action("grandmaster", game, obs, random.Random(0))
    with pytest.raises(UnknownLevel):
        make_bot("Basic")
    assert isinstance(UnknownLevel("x"), ValueError)
