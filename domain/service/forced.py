"""Forced moves that play themselves: a seat that asked for it (`forced_moves_set`, from
its player's setting or, for an anonymous seat, its own) has its only legal action played
at once in its name when the game rules that action forced (`domain.rulings`), in the same
append as what led to it, marked `auto: "forced"` in the log.

Never for a bot's seat, nor an away one (the workers play those), and never when the game
says that playing at once would tell the table what waiting could hide.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from domain.game import Game
from domain.rng import rng_for
from domain.rulings import forced_action
from domain.service.folding import Batch, finish, fold
from domain.table import Table, to_act

# A chain of forced moves longer than this (none of our games has one) waits for the next
# append rather than hold a request.
CHAIN_LIMIT = 64


def forced_turn(table: Table, game: Game[Any, Any]) -> tuple[int, Any] | None:
    """The first seat to act that plays its forced moves itself and has one now, with it."""
    if table.status != "active" or not table.auto_forced:
        return None
    for seat in sorted(to_act(table, game)):
        if seat in table.auto_forced and table.seats[seat].bot_level is None and \
                not table.is_away(seat):
            action = forced_action(game, table.game, seat)
            if action is not None:
                return seat, action
    return None


def play_forced(table: Table, game: Game[Any, Any], seed: str, batch: Batch,
                clock: Callable[[], float]) -> Table:
    """`table` after every forced move it leads to (each folded into `batch`)."""
    for _ in range(CHAIN_LIMIT):
        found = forced_turn(table, game)
        if found is None:
            break
        seat, action = found
        decided = game.decide(table.game, seat, action, rng_for(seed, table.version))
        decided = [msgspec.structs.replace(e, data={**e.data, "auto": "forced"})
                   if e.actor == seat else e for e in decided]
        table = fold(table, game, decided, batch, clock, seed)
        if game.outcome(table.game) is not None:
            return finish(table, game, seed, batch, clock)
    return table
