"""Trash (game id `trash`). The modules, in the order every game of this server keeps:
`cards`, `actions`, `state` (and the questions the rules ask of it), `rules` (legal actions
and decide), `automatic` (the forced steps of a turn, the deal, the end of a round),
`evolve`, `view` (and `determinize`), and `game`, the game object that wires them."""

from domain.games.trash.actions import (
    TrashAction,
    TrashDiscard,
    TrashDisplace,
    TrashDraw,
    TrashPlaceWild,
)
from domain.games.trash.game import GAME, Trash
from domain.games.trash.state import TrashState

__all__ = ["GAME", "Trash", "TrashAction", "TrashDiscard", "TrashDisplace", "TrashDraw",
           "TrashPlaceWild", "TrashState"]
