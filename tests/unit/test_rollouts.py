"""Rollout improvement: the policy's move unless the samples clearly show a better one."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from domain.bots import observe
from domain.bots.levels import kit_for, searching_with
from domain.bots.search import search
from domain.bots.search_terms import Budget, Kit, SearchStats
from domain.events import Event, event
from tests.gamekit import start
from tests.support.games import games_under_test


class PickANumber:
    """One decision: seat 0 picks 1..5 and scores it, plus noise drawn by the sample."""

    id = "pick"

    def __init__(self, noise: float) -> None:
        self.noise = noise

    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> Any:
        return {"picked": None, "luck": rng.uniform(-self.noise, self.noise)}

    def to_act(self, state: Any) -> frozenset[int]:
        return frozenset() if state["picked"] is not None else frozenset({0})

    def legal_actions(self, state: Any, seat: int) -> list[int]:
        return [1, 2, 3, 4, 5]

    def decide(self, state: Any, seat: int, action: int, rng: random.Random) -> list[Event]:
        return [event("picked", actor=seat, n=action)]

    def evolve(self, state: Any, ev: Event) -> Any:
        return {**state, "picked": ev.data["n"]}

    def outcome(self, state: Any) -> Any:
        return None if state["picked"] is None else state


def _kit(gain: float) -> Kit:
    """The policy always picks 1; each step above 1 is worth `gain`, plus the sample's
    luck (the same for every candidate of one sample: compared in pairs, it cancels)."""
    return Kit(policy=lambda game, state, seat, legal, rng: 1,
               evaluate=lambda game, root, state, seat: gain * state["picked"] + state["luck"],
               method="rollouts")


def test_a_clearly_better_move_replaces_the_policys():
    stats = SearchStats()
    choice = search(PickANumber(noise=5.0), {}, 0, [1, 2, 3, 4, 5], random.Random(1),
                    _kit(gain=0.1), Budget(seconds=None, iterations=200), stats)
    assert choice == 5
    assert list(stats.visits) == [1, 5]  # the others were dropped on the way


def test_without_evidence_the_policys_move_stays():
    # No difference between the moves: nothing may replace the policy's choice.
    assert search(PickANumber(noise=5.0), {}, 0, [1, 2, 3, 4, 5], random.Random(2),
                  _kit(gain=0.0), Budget(seconds=None, iterations=200)) == 1
    # A budget of one sample proves nothing either.
    assert search(PickANumber(noise=0.0), {}, 0, [1, 2, 3, 4, 5], random.Random(3),
                  _kit(gain=0.1), Budget(seconds=None, iterations=5)) == 1


@pytest.mark.parametrize("game_id, players", [("ochs-und-esel", 3), ("crazy-donkey", 4)])
def test_the_strong_bot_plays_a_legal_move_within_its_budget(game_id, players):
    game = games_under_test().game(game_id)
    state, _ = start(game, players, seed=5)
    seat = min(game.to_act(state))
    obs = observe(game, state, seat)
    started = time.perf_counter()
    action = searching_with(Budget(seconds=0.05))(game, obs, random.Random(0))
    assert time.perf_counter() - started < 0.5
    assert action in obs.legal_actions
    assert kit_for(game).method == "rollouts"
