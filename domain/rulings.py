"""Each game's rulings on what may play itself and what may be taken back.

A game whose class has them is a `ClockRulings` (`has_rulings(type(game))` tells); a game
without them gets neither: no move plays itself, none is taken back.

- `is_forced(state, seat, action)`: `action` is the seat's only legal action; may the
  server play it at once for a seat that asked for it? Only when playing it at once says
  nothing the seat could hide by waiting: a lone "pass" that tells the table the seat
  cannot follow is not forced, one everybody can see coming (the hand holds fewer cards
  than the set to follow) is.
- `takes_back(state, seat, action, events)`: may the seat take back `action`, which
  caused `events` from `state`? Only when the action revealed nothing hidden (no card
  drawn or turned over, no load revealed, no trick completed). The table adds what holds
  for every game: the seat's own action, no randomness consumed (`decide` left its
  generator as it found it), the game not over, and nobody else acted since.

Each game states its rulings as Decision lines in its `rules`.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from domain.events import Event
from domain.game import Game
from domain.rng import drew


@runtime_checkable
class ClockRulings(Protocol):
    def is_forced(self, state: Any, seat: int, action: Any) -> bool: ...

    def takes_back(self, state: Any, seat: int, action: Any,
                   events: Sequence[Event]) -> bool: ...


@functools.cache
def has_rulings(kind: type) -> bool:
    """Whether a game's class gives the clock rulings. (Asked of the class once: the
    structural check of a Protocol costs about 10 µs, and it was asked twice a move.)"""
    return issubclass(kind, ClockRulings)


def forced_action(game: Game[Any, Any], state: Any, seat: int) -> Any | None:
    """The seat's only legal action, if the game rules it forced (None otherwise)."""
    if not has_rulings(type(game)):
        return None
    legal = game.legal_actions(state, seat)
    if len(legal) != 1 or not game.is_forced(state, seat, legal[0]):
        return None
    return legal[0]


def may_take_back(game: Game[Any, Any], state: Any, seat: int, action: Any,
                  events: Sequence[Event], rng: random.Random) -> bool:
    """May `action` of `seat` (its own, not the server's for it), which caused `events`
    drawing from `rng` (`domain.rng.rng_for`), be taken back?"""
    if not has_rulings(type(game)) or not events or events[0].actor != seat:
        return False
    if drew(rng):
        return False  # randomness consumed: a take-back would let the seat draw again
    return game.takes_back(state, seat, action, events)
