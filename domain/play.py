"""Playing a game on, move after move: the one loop of the arena, the bench, the bots'
searches and the tests' random playouts.

`begin` starts a game from its options, its player count and an RNG (the deal). `play_on`
moves a state forward: the seats to act, the one of them that moves now (in a simultaneous
phase several seats act; `pick` chooses one, the others move in later steps on the new
state), its legal actions, the chooser's action, `decide` and `evolve` — until the game is
over, `stop` says so, `max_moves` moves are made or the clock passes `deadline`. How it
ended is part of the answer, so each caller says what a bound or a stuck game means to it:
an error in the arena, an evaluation in a rollout, a dropped sample in a search.

The strong bot plays thousands of rollouts a move through this loop: it does nothing per
move that its caller did not ask for.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, TypeVar

from domain.events import Event
from domain.game import Game, resolve_options

S = TypeVar("S")
A = TypeVar("A")

# (state, the seat that moves, its legal actions) -> the action it plays
Chooser = Callable[[S, int, Sequence[A]], A]
# (two or more seats to act, in seat order) -> the one that moves now
Pick = Callable[[list[int]], int]
# After a move: (the new state, the seat that moved, its action, the events it caused)
Watch = Callable[[S, int, A, list[Event]], None]

End = Literal["over", "stopped", "bound", "late", "stuck"]
CLOCK_EVERY = 64  # moves between two looks at the clock


# Where `play_on` left the game: (state, moves made, end). `end` is "over" (the game has an
# outcome), "stopped" (`stop` said so), "bound" (`max_moves` made), "late" (past the
# deadline) or "stuck" (nobody to act, or a seat to act without a legal action: a broken
# game). A plain tuple: a rollout of a move or two must not pay for building a record.
Playout = tuple[S, int, End]


def begin(game: Game[S, Any], options: Mapping[str, Any] | None, players: int,
          rng: random.Random) -> tuple[S, list[Event]]:
    """A new game after its setup (the first deal drawn from `rng`), and the setup's
    events; `options` are checked and completed with their defaults."""
    state = game.new_state(resolve_options(game.options, options, players), players)
    events = game.setup(state, rng)
    for ev in events:
        state = game.evolve(state, ev)
    return state, events


def advance(game: Game[S, A], state: S, seat: int, action: A,
            rng: random.Random) -> tuple[S, list[Event]]:
    """One action of `seat`: the state after it, and the events it caused."""
    events = game.decide(state, seat, action, rng)
    for ev in events:
        state = game.evolve(state, ev)
    return state, events


def play_on(game: Game[S, A], state: S, choose: Chooser[S, A], rng: random.Random, *,
            pick: Pick | None = None, stop: Callable[[S], bool] | None = None,
            max_moves: int | None = None, deadline: float | None = None,
            watch: Watch[S, A] | None = None) -> Playout[S]:
    """Play from `state` with `choose` for every seat, drawing the game's randomness from
    `rng`. When several seats act at once, `pick` chooses the one that moves now (default:
    a draw from `rng`); `deadline` is a `time.perf_counter()` time, checked every
    `CLOCK_EVERY` moves; `watch` sees every move once it is made."""
    moves = 0
    look = CLOCK_EVERY - 1 if deadline is not None else -1  # the move before which to look
    while game.outcome(state) is None:
        if stop is not None and stop(state):
            return state, moves, "stopped"
        if moves == max_moves:
            return state, moves, "bound"
        if moves == look:
            if deadline is not None and time.perf_counter() >= deadline:
                return state, moves, "late"
            look += CLOCK_EVERY
        acting = game.to_act(state)
        if len(acting) == 1:
            (mover,) = acting
        elif acting:
            mover = (pick or rng.choice)(sorted(acting))
        else:
            return state, moves, "stuck"
        legal = game.legal_actions(state, mover)
        if not legal:
            return state, moves, "stuck"
        action = choose(state, mover, legal)
        events = game.decide(state, mover, action, rng)
        for ev in events:
            state = game.evolve(state, ev)
        moves += 1
        if watch is not None:
            watch(state, mover, action, events)
    return state, moves, "over"
