"""Donkey loads up the Grand Canyon: the `canyon-donkeys` game (see `game.py`)."""

from domain.games.canyon_donkeys.game import GAME, CanyonDonkeys
from domain.games.canyon_donkeys.state import CanyonState

__all__ = ["GAME", "CanyonDonkeys", "CanyonState"]
