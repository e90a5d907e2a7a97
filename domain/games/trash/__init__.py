"""Trash (game id `trash`): `game` holds the game object, `state` its actions, state and
evolve, `turn` the forced steps of a turn, `view` what a seat sees."""

from domain.games.trash.game import GAME, Trash
from domain.games.trash.state import (
    TrashAction,
    TrashDiscard,
    TrashDisplace,
    TrashDraw,
    TrashPlaceWild,
    TrashState,
)

__all__ = ["GAME", "Trash", "TrashAction", "TrashDiscard", "TrashDisplace", "TrashDraw",
           "TrashPlaceWild", "TrashState"]
