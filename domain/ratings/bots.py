"""Bots as rated opponents: one fixed pseudo-player per level, the same in every game type.

A bot's rating never moves; it anchors the scale, so that a new player's first games
against bots already say something (beating `basic` lifts a new player above 1400, not
merely above another newcomer). The values are set, not measured: a level's strength in
each game can be measured with `python -m bench.arena` and the anchors moved once, for every
player at the same time. The small deviation says "we are sure of this opponent".
"""

from __future__ import annotations

from domain.ratings.glicko2 import Rating

BOT_DEVIATION = 50.0
BOT_RATINGS: dict[str, Rating] = {
    "random": Rating(1000.0, BOT_DEVIATION),
    "basic": Rating(1400.0, BOT_DEVIATION),
    "strong": Rating(1800.0, BOT_DEVIATION),
    "expert": Rating(2000.0, BOT_DEVIATION),
}
BOT_PREFIX = "bot:"


def bot_member(level: str) -> str:
    """A bot level's name among the rated (player ids never hold a colon)."""
    return f"{BOT_PREFIX}{level}"


def bot_level(member: str) -> str | None:
    return member[len(BOT_PREFIX):] if member.startswith(BOT_PREFIX) else None
