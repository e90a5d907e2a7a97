"""The jobs: act for one seat of one game at one version, or drop the job; rate a game;
analyse a finished game.

Each job takes ids only (game id, expected version, seat), loads the table, checks that
the game is still at that version and the seat still to act, asks a bot with nothing but
the seat's `Observation` (`domain.bots.observe`: its view and legal actions), and acts
with the expected version (`if_match`). Anyone acting first — the player, a duplicate of
this job, another worker — makes the append fail, and the job is dropped: duplicates and
races are harmless, and a job returns a short word saying what it did.
"""

from __future__ import annotations

import logging
import random
from typing import Any

import msgspec
from rq import get_current_job

from domain import bots
from domain.archive import archiving
from domain.bots.analysis import AnalysisBudget
from domain.errors import (
    GameNotStarted,
    GameOver,
    NotYourTurn,
    PreconditionFailed,
    UnknownGame,
    VersionConflict,
)
from domain.game import Game
from domain.players import notes
from domain.table import Table, to_act
from workers import context

log = logging.getLogger(__name__)

# What another actor getting there first looks like; nothing to report.
EXPECTED_CONFLICTS = (PreconditionFailed, VersionConflict, NotYourTurn, GameOver,
                      GameNotStarted)
# The level that plays for an absent player (the timeout policy `autoplay`).
AUTOPLAY_LEVEL = "basic"
# A deadline may fire this much early: the clocks of the web and worker hosts differ a little.
CLOCK_TOLERANCE_S = 1.0
# The analysis of one game: rollouts per decision and per game, CPU seconds at most.
ANALYSIS_BUDGET = AnalysisBudget()
PROGRESS_EVERY = 10  # decisions weighed between two saves of the job's progress


def bot_turn(game_id: str, version: int, seat: int) -> str:
    """A bot seat's move."""
    return _act_for(game_id, version, seat, by="bot")


def deadline_passed(game_id: str, version: int, seat: int) -> str:
    """The seat's deadline passed and the game has not moved: play for it (`autoplay`)."""
    return _act_for(game_id, version, seat, by="timeout")


def away_turn(game_id: str, version: int, seat: int) -> str:
    """A seat marked away (it missed deadlines in a row) is played at once."""
    return _act_for(game_id, version, seat, by="away")


def deadline_soon(game_id: str, version: int, seat: int) -> str:
    """Tell the player of the seat that most of their time to move has gone
    (`deadline_soon` in their stream), if the game still waits for them at `version`."""
    service = context.current().service
    try:
        table, _ = service.load(game_id)
    except UnknownGame:
        return "unknown_game"
    if table.version != version:
        return "superseded"
    note = notes.deadline_soon(table, seat, service.clock())
    if note is None:
        return "not_waiting"
    service.players.place([], [note])
    return "told"


def rate_game(game_id: str) -> str:
    """A finished game's players get their new ratings, exactly once however often this
    runs (`domain.service.rating`)."""
    try:
        return context.current().service.rate_game(game_id)
    except UnknownGame:
        log.warning("rating job for unknown game %s dropped", game_id)
        return "unknown_game"


def analyse_game(game_id: str) -> str:
    """A finished game's analysis, made and kept once however often this runs
    (`domain.service.analysis`); its progress is in the job's meta (`progress`: decisions
    weighed, of how many), for whoever asks meanwhile."""
    job = get_current_job()

    def progress(done: int, total: int) -> None:
        if job is not None and (done == total or done % PROGRESS_EVERY == 0):
            job.meta["progress"] = [done, total]
            job.save_meta()

    try:
        return context.current().service.analyse_game(game_id, ANALYSIS_BUDGET, progress)
    except UnknownGame:
        log.warning("analysis job for unknown game %s dropped", game_id)
        return "unknown_game"


def archive_game(game_id: str) -> str:
    """A game that is over becomes its archive record (`domain.archive.archiving`): what
    happened (`archived`, `already`, `moved`, `refused`, …)."""
    current = context.current()
    if current.archives is None:
        return "no_archives"
    return archiving.archive_game(current.archives, current.service.games, game_id,
                                  current.archive_copies)


def _act_for(game_id: str, version: int, seat: int, by: str) -> str:
    current = context.current()
    service = current.service
    try:
        table, _ = service.load(game_id)
    except UnknownGame:
        log.warning("%s job for unknown game %s dropped", by, game_id)
        return "unknown_game"
    game = service.games.game(table.type)
    reason = _stale(table, game, version, seat, by, service.clock())
    if reason is not None:
        log.info("%s job %s v%s seat %s dropped: %s", by, game_id, version, seat, reason)
        return reason
    level = (table.seats[seat].bot_level or AUTOPLAY_LEVEL) if by == "bot" else AUTOPLAY_LEVEL
    observation = bots.observe(game, table.game, seat)
    try:
        action = bots.choose_action(level, game, observation, random.Random(),
                                    current.bot_budgets.get(level))
        service.act(game_id, seat, msgspec.to_builtins(action), if_match=version, by=by)
    except EXPECTED_CONFLICTS as err:
        log.info("%s job %s v%s seat %s dropped: %s", by, game_id, version, seat, err)
        return "conflict"
    except Exception:
        log.exception("%s job %s v%s seat %s failed", by, game_id, version, seat)
        raise
    return "acted"


def _stale(table: Table, game: Game[Any, Any], version: int, seat: int, by: str,
           now: float) -> str | None:
    """Why the job has nothing left to do, or None when it must act."""
    if table.version != version:
        return "superseded"
    if seat not in to_act(table, game):
        return "not_to_act"
    # A bot plays a bot seat, and a seat its player resigned or left; people the others.
    by_bot = table.seats[seat].bot_level is not None
    if by == "bot" and not by_bot:
        return "not_a_bot"
    if by == "away" and (by_bot or not table.is_away(seat)):
        return "not_away"
    if by == "timeout":
        deadline = table.deadline(seat)
        if by_bot or deadline is None:
            return "no_deadline"
        if deadline > now + CLOCK_TOLERANCE_S:
            # Only a clock far off fires a timer early; the workers' sweep sets it again.
            log.warning("deadline of %s v%s seat %s fired %.1f s early", table.id,
                        version, seat, deadline - now)
            return "early"
    return None
