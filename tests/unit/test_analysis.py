"""The post-game analysis: every decision of a finished game found again in its log, each
weighed from the seat's view of that moment only, and the costly ones named."""

from __future__ import annotations

import random
from unittest import mock

import msgspec
import pytest

from domain.bots import analysis, choose_action, observe
from domain.bots.analysis import AnalysisBudget, analyse, decisions
from domain.registry import installed
from domain.service import GameService
from domain.store.memory import MemoryEventStore
from domain.table import to_act

GAMES = [("ochs-und-esel", {"rounds": 1}, 3), ("ochs-und-esel", {"rounds": 1,
                                                                 "ox_variant": True}, 4),
         ("crazy-donkey", {"deals": 1}, 4), ("trash", {"target_slots": 8}, 2),
         ("canyon-donkeys", {}, 3)]


def _played(game_type: str, options: dict, players: int, seed: int = 1):
    """A game of a random seat and basic ones, through the service (so its log is the
    stored one, table events and all); the actions taken, with their seat and version.
    `seed` makes the deal too (the service's seed is random), so a game is the same each run."""
    service = GameService(MemoryEventStore(), installed())
    with mock.patch("domain.service.create.new_seed", return_value=f"{seed:064x}"):
        table = service.create(game_type, options, [{"kind": "human"}] * players,
                               deadline_s=None)
    for i in range(players):
        service.join(table.id, f"p{i}")
    game = installed().game(game_type)
    rng = random.Random(seed)
    taken = []
    while True:
        table, _ = service.load(table.id)
        if table.status != "active":
            break
        seat = min(to_act(table, game))
        action = choose_action("random" if seat == 0 else "basic", game,
                               observe(game, table.game, seat), rng)
        taken.append((table.version, seat, action))
        service.act(table.id, seat, msgspec.to_builtins(action))
    return game, service.store.read(table.id), taken, service, table.id


@pytest.mark.parametrize(("game_type", "options", "players"), GAMES)
def test_every_decision_is_found_in_the_log(game_type, options, players):
    game, events, taken, _service, _id = _played(game_type, options, players)
    found = decisions(game, events)
    assert [(d.seq, d.seat, d.action) for d in found] == taken
    assert all(d.action in d.legal and d.auto is None for d in found)


def test_a_game_not_over_has_no_analysis():
    game, events, _taken, _service, _id = _played("ochs-und-esel", {"rounds": 1}, 3)
    unfinished = [e for e in events if e.type != "game_finished"]
    with pytest.raises(ValueError, match="not finished"):
        decisions(game, unfinished)


@pytest.mark.parametrize(("game_type", "options", "players"), GAMES)
def test_each_decision_is_weighed_from_the_seats_view_alone(game_type, options, players,
                                                           monkeypatch):
    game, events, _taken, service, game_id = _played(game_type, options, players, seed=2)
    seen = []
    weigh = analysis.weigh

    def only_its_view(g, obs, played, rng, rollouts, kit=None):
        seen.append(obs)
        return weigh(g, obs, played, rng, rollouts, kit)

    monkeypatch.setattr(analysis, "weigh", only_its_view)
    doc = analyse(game, events, AnalysisBudget(per_decision=8, per_game=200,
                                               min_per_decision=4), random.Random(0))
    assert len(seen) == doc["choices"] == doc["weighed"] > 0
    for obs, d in zip(seen, (d for d in decisions(game, events) if len(d.legal) > 1),
                      strict=True):
        # Exactly what the seat was shown then (the API's view of that seat at that
        # version), though the whole deal is known by now.
        past = service.rebuild(game_id, until=d.seq)
        assert obs.view == game.view(past.game, d.seat)
        assert obs.view != game.view(past.game, None, reveal_all=True)
        assert tuple(obs.legal_actions) == tuple(game.legal_actions(past.game, d.seat))


def test_the_costly_decisions_are_named_with_a_better_move():
    game, events, _taken, _service, _id = _played("ochs-und-esel", {"rounds": 1}, 3, seed=4)
    doc = analyse(game, events, AnalysisBudget(per_decision=100, per_game=2000),
                  random.Random(0))
    assert doc["unit"] == "penalty points" and doc["complete"]
    assert doc["cpu_seconds"] > 0
    random_seat = doc["seats"][0]
    assert random_seat["costly"] > 0 and random_seat["cost"] > 0
    for m in doc["moments"]:
        assert m["better"] != m["played"] and m["cost"] > 2 * m["error"]
    # Bounded: with a CPU budget of nothing, nothing is weighed and the answer says so.
    empty = analyse(game, events, AnalysisBudget(cpu_seconds=0.0), random.Random(0))
    assert empty["weighed"] == 0 and not empty["complete"] and empty["moments"] == []
