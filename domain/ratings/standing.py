"""A player's standing in one game type, and the change one finished game made to it."""

from __future__ import annotations

import msgspec

from domain.ratings.glicko2 import (
    DEFAULT_DEVIATION,
    DEFAULT_RATING,
    DEFAULT_VOLATILITY,
    Rating,
)

# Above this deviation a rating is still provisional (few games, or none for long).
PROVISIONAL_DEVIATION = 110.0


class Standing(msgspec.Struct, frozen=True, kw_only=True):
    """A player's Glicko-2 rating in one game type, with the games it rests on."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY
    games: int = 0
    wins: int = 0  # first places (shared ones too)

    @property
    def glicko(self) -> Rating:
        return Rating(self.rating, self.deviation, self.volatility)

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION


class RatingChange(msgspec.Struct, frozen=True, kw_only=True):
    """What finished game `game` did to one player's standing (kept once per game: the
    record that the game was rated for that player)."""

    game: str
    type: str
    place: int
    before: Standing
    after: Standing
    at: float

    @property
    def delta(self) -> float:
        return self.after.rating - self.before.rating
