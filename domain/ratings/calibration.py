"""The bots' ratings per game type: measured by a calibration, so that a new player's first
games against bots put them where they belong.

A calibration (`donkeypost calibrate`) plays games of bots against each other and rates
each level as a player: each game is one Glicko-2 rating period for every level at the
table (`pairwise` results from the places against the other levels, against their ratings
before the game; a level meeting itself learns nothing from it). `random` is the anchor:
it stays at `ANCHOR` (the scale must hang on something, and the weakest level changes
least from one version of the bots to the next), the others start as new players and move.

Where the bots' ratings come from, first found first:
1. the deployment's own calibration, kept in the rating store (the budgets of its searching
   levels are its own, and so is their strength);
2. the calibration shipped with the code (`calibration.json`: the game types it holds, the
   commands that made it, with iteration budgets, are in it and in docs/bots.md);
3. the fixed ratings of `domain.ratings.bots` (a level or a game never calibrated).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from importlib import resources

from domain.ratings.bots import BOT_DEVIATION, BOT_RATINGS
from domain.ratings.glicko2 import Rating, Result, pairwise, rate
from domain.ratings.standing import Standing

ANCHOR_LEVEL = "random"
ANCHOR = Standing(rating=BOT_RATINGS[ANCHOR_LEVEL].rating, deviation=BOT_DEVIATION)
SHIPPED = "calibration.json"


def calibrate(games: Iterable[tuple[Sequence[str], Sequence[int]]],
              start: Mapping[str, Standing] | None = None) -> dict[str, Standing]:
    """Each level's standing after `games` (each: the levels by seat, the places), in
    order; `start`: the standings before them (default: new players, `random` anchored)."""
    standings: dict[str, Standing] = {ANCHOR_LEVEL: ANCHOR, **(start or {})}
    for levels, places in games:
        before = {lv: standings.get(lv, Standing()) for lv in levels}
        results = pairwise(places)
        for seat, level in enumerate(levels):
            if level == ANCHOR_LEVEL or seat > levels.index(level):
                continue  # the anchor does not move; a level rates once per game
            seats = [s for s, lv in enumerate(levels) if lv == level]
            against = [Result(before[levels[other]].glicko, score)
                       for s in seats for other, score in results[s]
                       if levels[other] != level]
            if not against:
                continue
            mine = before[level]
            new = rate(mine.glicko, against)
            wins = sum(places[s] == 1 for s in seats)
            standings[level] = Standing(rating=new.rating, deviation=new.deviation,
                                        volatility=new.volatility, games=mine.games + 1,
                                        wins=mine.wins + wins)
        for level in levels:  # a level seen for the first time keeps its start
            standings.setdefault(level, before[level])
    return standings


@cache
def shipped() -> dict[str, dict[str, Standing]]:
    """The calibration shipped with the code: game type -> level -> standing."""
    try:
        raw = resources.files("domain.ratings").joinpath(SHIPPED).read_text()
    except FileNotFoundError:
        return {}
    data = json.loads(raw)
    return {game: {level: Standing(**fields) for level, fields in levels.items()}
            for game, levels in data.get("ratings", {}).items()}


def bot_ratings(game_type: str,
                calibrated: Mapping[str, Standing] | None = None) -> dict[str, Rating]:
    """Each bot level's rating in `game_type`: the deployment's calibration (`calibrated`,
    from the rating store), else the shipped one, else the fixed ratings."""
    out = dict(BOT_RATINGS)
    for level, standing in shipped().get(game_type, {}).items():
        out[level] = standing.glicko
    for level, standing in (calibrated or {}).items():
        out[level] = standing.glicko
    return out
