"""Examples for the document, taken from real play: each game is set up and played a few
seeded random moves, and what it shows then is the example of its view, its actions and
its events. The seed makes them the same on every build (the committed document does not
drift); a change to a game's rules or view changes its examples with it."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import msgspec

from domain.events import Event, stamp
from domain.game import Game, resolve_options
from domain.redaction import redact

SEED = 2026
MOVES = 400  # long enough for each game to show most of its actions


@dataclass
class Sample:
    """What one seeded game showed: the view of the seat to act a few moves in and its
    legal actions, an example of each action type and of each event type (redacted for
    seat 0)."""

    players: int
    seat: int = 0
    view: dict[str, Any] = field(default_factory=dict)
    legal: list[Any] = field(default_factory=list)
    actions: dict[str, Any] = field(default_factory=dict)
    events: dict[str, dict[str, Any]] = field(default_factory=dict)


@cache  # the games are fixed objects; the same examples serve every app of a process
def sample(game: Game[Any, Any]) -> Sample:
    players = game.min_players + 1 if game.min_players + 1 <= game.max_players else \
        game.min_players
    rng = random.Random(SEED)
    state = game.new_state(resolve_options(game.options, {}, players), players)
    log: list[Event] = []

    def apply(events: list[Event]) -> Any:
        nonlocal state
        for ev in events:
            state = game.evolve(state, ev)
        log.extend(stamp(events, len(log) + 1, 1_790_000_000.0 + len(log), "",
                         key=b"an example's commitment key"))
        return state

    apply(game.setup(state, rng))
    out = Sample(players)
    for move in range(MOVES):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        for action in legal:
            out.actions.setdefault(action.__struct_config__.tag, msgspec.to_builtins(action))
        if move == 3:
            out.seat, out.view = seat, msgspec.to_builtins(game.view(state, seat))
            out.legal = [msgspec.to_builtins(a) for a in legal]
        apply(game.decide(state, seat, rng.choice(legal), rng))
    for ev in log:
        out.events.setdefault(ev.type, msgspec.to_builtins(redact(ev, 0)))
    return out


def game_view(game: Game[Any, Any]) -> dict[str, Any]:
    """A `GameView` around the sample's view, as `domain.service.table_view` builds it."""
    example = sample(game)
    players = example.players
    seats = [{"seat": i, "kind": "human", "level": None, "name": name, "taken": True,
              "away": False, "timeouts_in_row": 0,
              "deadline": 1_790_259_200.0 if i == example.seat else None}
             for i, name in enumerate(["ann", "bob", "cy", "dee", "eve", "fay"][:players])]
    return {
        "id": "Xq3vK9mTtQ2a", "type": game.id, "status": "active", "version": 12,
        "options": resolve_options(game.options, {}, players),
        "seats": seats, "you": example.seat, "to_act": [example.seat], "deadline_s": 259200.0,
        "on_timeout": "autoplay",
        "seed_hash": "9f2c1e0b7a4d3c2b1a0f9e8d7c6b5a49382716a5b4c3d2e1f0a9b8c7d6e5f4a3",
        "seed": None, "created_at": 1_790_000_000.0, "updated_at": 1_790_000_040.0,
        "game": example.view, "legal_actions": example.legal[:3], "outcome": None,
    }
