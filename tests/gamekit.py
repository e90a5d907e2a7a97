"""Shared checks for every game: random playouts that replay, round-trip and accept every
legal action. Each game's tests call these with their own game object; the games are
played with the domain's own loop (`domain.play`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec

from domain.bots import observe
from domain.bots.levels import make_bot
from domain.bots.search_terms import Budget
from domain.errors import GameRuleError
from domain.events import Event
from domain.game import Game, resolve_options
from domain.play import advance, begin, play_on


def start(game: Game[Any, Any], players: int, options: dict[str, Any] | None = None,
          seed: int = 0) -> tuple[Any, list[Event]]:
    return begin(game, options, players, random.Random(seed))


def apply(game: Game[Any, Any], state: Any, seat: int, action: Any,
          rng: random.Random | None = None) -> tuple[Any, list[Event]]:
    return advance(game, state, seat, action, rng or random.Random(0))


def random_playout(game: Game[Any, Any], players: int, options: dict[str, Any] | None = None,
                   seed: int = 0, max_steps: int = 20_000, check_every: int = 1,
                   on_step: Any = None) -> tuple[Any, list[Event]]:
    """Play uniformly random legal actions to the end, checking at every step that:
    - the acting seats have legal actions and every seat not to act has none;
    - the chosen action survives a JSON round trip as the API would send it;
    - the state survives a JSON round trip (snapshots);
    - replaying all events from the start rebuilds the same state (every `check_every` steps).
    `on_step(state, events)` may add game-specific checks (conservation of cards...)."""
    rng = random.Random(seed)
    opts = resolve_options(game.options, options, players)
    state, log = start(game, players, options, seed)
    steps = 0

    def choose(state: Any, seat: int, legal: Sequence[Any]) -> Any:
        acting = game.to_act(state)
        for other in range(players):
            if other not in acting:
                assert game.legal_actions(state, other) == [], \
                    f"seat {other} may act out of turn"
        action = rng.choice(legal)
        wire = msgspec.json.decode(msgspec.json.encode(action))
        assert msgspec.convert(wire, game.action_type) == action
        return action

    def check(state: Any, seat: int, action: Any, events: list[Event]) -> None:
        nonlocal steps
        log.extend(events)
        if on_step is not None:
            on_step(state, log)
        raw = msgspec.json.encode(state)
        assert msgspec.json.decode(raw, type=game.state_type) == state
        steps += 1
        if steps % check_every == 0:
            replayed = game.new_state(opts, players)
            for ev in log:
                replayed = game.evolve(replayed, ev)
            assert replayed == state, "replay does not rebuild the state"

    state, _, end = play_on(game, state, choose, rng, max_moves=max_steps,
                            watch=check)
    assert end != "bound", "game did not end"
    acting = sorted(game.to_act(state))
    assert end != "stuck" or acting, "nobody to act in an unfinished game"
    assert end == "over", f"a seat of {acting} is to act but has no legal action"
    return state, log


def assert_rejected(game: Game[Any, Any], state: Any, seat: int, action: Any, code: str) -> None:
    try:
        game.decide(state, seat, action, random.Random(0))
    except GameRuleError as err:
        assert err.code == code, f"expected {code}, got {err.code}: {err.message}"
    else:
        raise AssertionError(f"{action} was accepted, expected {code}")


def bot_playout(game: Game[Any, Any], levels: Sequence[str], options: dict[str, Any] | None = None,
                seed: int = 0, budget: Budget | None = None,
                max_moves: int = 100_000) -> tuple[Any, int]:
    """Play a whole game with a bot of `levels[seat]` in each seat, each given what its seat
    may see and nothing else; every action it chooses must be legal. The final state (with
    an outcome) and the number of moves."""
    rng = random.Random(seed)
    bots = [make_bot(level, budget) for level in levels]
    bot_rngs = [random.Random(f"{seed}:{seat}") for seat in range(len(levels))]

    def choose(state: Any, seat: int, legal: Sequence[Any]) -> Any:
        obs = observe(game, state, seat, legal)
        action = bots[seat](game, obs, bot_rngs[seat])
        assert action in obs.legal_actions, f"the {levels[seat]} bot chose {action!r}"
        return action

    state, _ = start(game, len(levels), options, seed)
    state, moves, end = play_on(game, state, choose, rng, max_moves=max_moves)
    assert end == "over" and game.outcome(state) is not None, end
    return state, moves
