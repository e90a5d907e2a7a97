"""Rating a finished game (the rating job's command) and reading the leaderboards.

Exactly once per game and player, however often the job runs and whatever runs beside
it: each player's new standing is written by one atomic step of the rating store that
also records the game as rated for them and refuses when either the game was rated
already or the standing changed since it was read (another game of theirs was rated
meanwhile: read again and recompute). New standings are always computed from everyone's
standing *before* the game: a player the game was already rated for (by an earlier run
cut short) counts with the standing the record keeps from before it.

Each player whose rating this run applied is told `game_finished` in their stream, with
their place, score and rating change (a run cut short between the two tells nobody).
"""

from __future__ import annotations

from typing import Any

from domain.errors import Contention
from domain.players.notes import PlayerNote, finished_note
from domain.ratings.bots import bot_level, bot_member
from domain.ratings.calibration import bot_ratings
from domain.ratings.outcome import new_standings, participants
from domain.ratings.standing import RatingChange, Standing
from domain.service.deps import Deps
from domain.service.loading import load
from domain.service.players import standing_view

RATE_ATTEMPTS = 5


def rate_game(deps: Deps, game_id: str) -> str:
    """Rate finished game `game_id` for its players: "rated" when this run applied
    something, "already" when every player had it, "unrated" for a game without players
    or not finished."""
    table, _ = load(deps, game_id)
    members = participants(table)
    players = [m for m, s in zip(members, table.seats, strict=True)
               if m is not None and s.player is not None]
    if table.status != "finished" or not table.outcome or not players:
        deps.ratings.rated(game_id)
        return "unrated"
    places: list[int] = table.outcome["places"]
    bots = bot_ratings(table.type, deps.ratings.bot_standings(table.type))
    applied = False
    told: list[PlayerNote] = []  # `game_finished` for each player rated by this run
    for _attempt in range(RATE_ATTEMPTS):
        current = dict(zip(players, deps.ratings.standings(table.type, players), strict=True))
        done = {p: deps.ratings.changes(p, [game_id])[0] for p in players}
        before = {p: c.before if (c := done[p]) is not None else current[p] or Standing()
                  for p in players}
        after = new_standings(places, members, before, bots)
        conflicts = 0
        for p in players:
            if done[p] is not None:
                continue
            change = RatingChange(game=game_id, type=table.type,
                                  place=places[members.index(p)], before=before[p],
                                  after=after[p], at=table.ended_at or table.updated_at)
            answer = deps.ratings.apply(p, current[p], change)
            applied |= answer == "applied"
            if answer == "applied":
                told.append(finished_note(table, p, members.index(p), {
                    "before": before[p].rating, "after": after[p].rating,
                    "delta": change.delta, "deviation": after[p].deviation},
                    deps.clock()))
            conflicts += answer == "conflict"
        if not conflicts:
            break
    else:
        raise Contention(f"rating game {game_id}: other games of its players kept being "
                         "rated at the same time", RATE_ATTEMPTS)
    ranked = {p: s.rating for p, s in zip(
        players, deps.ratings.standings(table.type, players), strict=True) if s is not None}
    ranked.update({m: bots[level].rating for m in members
                   if m is not None and (level := bot_level(m)) is not None})
    deps.ratings.rank(table.type, ranked)
    deps.players.place([], told)
    deps.ratings.rated(game_id)
    return "rated" if applied else "already"


def leaderboard(deps: Deps, game_type: str, offset: int,
                limit: int) -> tuple[list[dict[str, Any]], int]:
    """One page of the game type's leaderboard, best rating first; bots (fixed ratings)
    stand among the players."""
    members, total = deps.ratings.leaderboard(game_type, offset, limit)
    bots = bot_ratings(game_type, deps.ratings.bot_standings(game_type))
    ids = [m for m, _ in members if bot_level(m) is None]
    players = dict(zip(ids, deps.players.players(ids), strict=True))
    standings = dict(zip(ids, deps.ratings.standings(game_type, ids), strict=True))
    entries: list[dict[str, Any]] = []
    for rank, (member, rating) in enumerate(members, start=offset + 1):
        level = bot_level(member)
        if level is not None:
            bot = bots.get(level)
            entries.append({"rank": rank, "kind": "bot", "level": level, "player": None,
                            "rating": rating, "deviation": bot.deviation if bot else None,
                            "played": None, "won": None, "provisional": False})
            continue
        player, standing = players.get(member), standings.get(member)
        view = standing_view(game_type, standing) if standing else {}
        entries.append({"rank": rank, "kind": "player", "level": None,
                        "player": {"id": member, "name": player.name if player else None,
                                   "bot": player.bot if player else False},
                        "rating": view.get("rating", rating),
                        "deviation": view.get("deviation"), "played": view.get("played"),
                        "won": view.get("won"), "provisional": view.get("provisional", True)})
    return entries, total


def awaiting(deps: Deps, finished_before: float, limit: int = 500) -> list[str]:
    """Finished games still waiting for their rating (a job lost on the way)."""
    return deps.ratings.awaiting(finished_before, limit)


def calibrated(deps: Deps, game_type: str, standings: dict[str, Standing]) -> None:
    """Keep a calibration of the bot levels in `game_type` (`domain.ratings.calibration`)
    and stand them on its leaderboard at their new ratings."""
    deps.ratings.calibrated(game_type, standings)
    deps.ratings.rank(game_type, {bot_member(level): s.rating
                                  for level, s in standings.items()})
