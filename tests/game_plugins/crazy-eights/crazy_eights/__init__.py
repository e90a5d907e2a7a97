"""Crazy Eights (game id `crazy-eights`), a traditional shedding game, as a donkeypost game
installed from its own distribution: `cards` (the deck), `shapes` (its JSON), `game` (the
rules: state, actions, decide, evolve, view), `texts` (what a person reads)."""

from crazy_eights.game import GAME, CrazyEights

__all__ = ["GAME", "CrazyEights"]
