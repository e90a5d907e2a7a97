"""The ratings one finished game gives its players (pure: no store, no clock).

Each seat is a player, a bot (a fixed pseudo-player of its level, `bots`) or an anonymous
person, who is not rated and does not count as an opponent: a seat token says nothing about
who played, so a result against it would rate the player against nobody in particular. A
game of N rated seats is, for each player, one rating period of N − 1 results against the
others (`glicko2.pairwise`: 1 against a worse place, ½ against the same, 0 against a
better one), computed from everyone's rating *before* the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.ratings.bots import BOT_RATINGS, bot_level, bot_member
from domain.ratings.glicko2 import Rating, Result, pairwise, rate
from domain.ratings.standing import Standing
from domain.table import Table


def participants(table: Table) -> list[str | None]:
    """Each seat's rated identity: a player id, a bot member, or None (anonymous)."""
    out: list[str | None] = []
    for seat in table.seats:
        if seat.kind == "bot":
            out.append(bot_member(seat.level or "basic") if seat.level in BOT_RATINGS
                       else None)
        else:
            out.append(seat.player)
    return out


def new_standings(places: Sequence[int], seats: Sequence[str | None],
                  before: Mapping[str, Standing],
                  bots: Mapping[str, Rating] = BOT_RATINGS) -> dict[str, Standing]:
    """The standing of every player (keys of `before`) after a game with these places;
    `bots`: each bot level's rating in the game's type (`domain.ratings.calibration`)."""

    def rating_of(member: str) -> Rating:
        if member in before:
            return before[member].glicko
        level = bot_level(member)
        assert level is not None, f"{member!r} is neither a player of the game nor a bot"
        return bots[level]

    results = pairwise(places)
    out: dict[str, Standing] = {}
    for seat, member in enumerate(seats):
        if member is None or member not in before:
            continue
        mine = before[member]
        against = [Result(rating_of(other), score) for other_seat, score in results[seat]
                   if (other := seats[other_seat]) is not None]
        rated = rate(mine.glicko, against) if against else mine.glicko
        out[member] = Standing(rating=rated.rating, deviation=rated.deviation,
                               volatility=rated.volatility, games=mine.games + 1,
                               wins=mine.wins + (places[seat] == 1))
    return out
