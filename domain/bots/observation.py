"""What a bot is given: its seat, the game's view for that seat (exactly what the API shows
that seat) and its legal actions — never the game's state, so it cannot read hidden cards."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from domain.game import Game


class Observation(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    view: dict[str, Any]
    legal_actions: Sequence[Any]


# (game, what the seat sees, rng) -> one of the observation's legal actions
Bot = Callable[[Game[Any, Any], Observation, random.Random], Any]


def observe(game: Game[Any, Any], state: Any, seat: int,
            legal: Sequence[Any] | None = None) -> Observation:
    """What a bot in `seat` is given: the seat's view and legal actions, nothing more
    (`legal`: the seat's legal actions in `state`, when the caller has them already)."""
    if legal is None:
        legal = game.legal_actions(state, seat)
    return Observation(seat=seat, view=game.view(state, seat), legal_actions=tuple(legal))
