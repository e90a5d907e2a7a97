"""The seats' and players' clock settings, as the tables hear of them: forced moves that
play themselves, and vacations.

A table knows only its log: a player's setting reaches each of their games as an event of
that game's log (`forced_moves_set`, `vacation_started`, `vacation_ended`), written when
they change it (to every game they play), when they take a seat, and, for what a crash
between the player's record and their games left behind, by the workers' sweep
(`reconcile`). So a game's clocks and forced moves replay from its log alone.

- Forced moves: a per-player setting; an anonymous seat has its own (`set_seat_forced`).
- Vacation: `start_vacation` / `end_vacation` (`domain.players.clock_settings` counts the
  days); the clocks stop in every active correspondence game that allows vacations.
  Bot seats and anonymous seats have none.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from domain.clocks import Correspondence
from domain.errors import BadOptions, DomainError, GameRuleError, UnknownGame
from domain.events import Event, event
from domain.game import Game
from domain.players.clock_settings import ClockSettings, days_given_back, year_of
from domain.players.records import Player
from domain.service.decide import check_in_play, check_playing
from domain.service.deps import Deps
from domain.service.table_change import change_table
from domain.store.player_clocks import ALLOWANCE, RUNNING
from domain.table import Table

log = logging.getLogger(__name__)

FAN_OUT_PAGE = 200
FAN_OUT_MAX = 5000  # a player's games told at once; the sweep tells any beyond
PLAYING = ("open", "active")


class VacationRefused(GameRuleError):
    code = "vacation_refused"


# --- forced moves ------------------------------------------------------------------------
def set_seat_forced(deps: Deps, game_id: str, seat: int, auto: bool) -> Table:
    """Seat `seat`'s forced moves play themselves from now on (`auto`), or no longer."""

    def decide(table: Table, _game: Game[Any, Any]) -> list[Event]:
        if table.status not in PLAYING:
            check_playing(table)  # (its error says why)
        check_in_play(table, seat)
        return _forced_events(table, seat, auto)

    return change_table(deps, game_id, decide, "setting forced moves")


def set_player_forced(deps: Deps, player: Player, auto: bool) -> dict[str, Any]:
    """The player's setting, and each of their games told of it."""
    deps.player_clocks.set_auto_forced(player.id, auto)
    _tell_games(deps, player.id, lambda table, seat: _forced_events(table, seat, auto))
    return settings_view(deps, player)


def _forced_events(table: Table, seat: int, auto: bool) -> list[Event]:
    if table.status not in PLAYING or (seat in table.auto_forced) == auto or \
            table.seats[seat].bot_level is not None:
        return []
    return [event("forced_moves_set", seat=seat, auto=auto)]


# --- vacations ---------------------------------------------------------------------------
def start_vacation(deps: Deps, player: Player, days: int) -> dict[str, Any]:
    policy = deps.vacations
    if not 1 <= days <= policy.max_days:
        raise BadOptions(f"a vacation lasts 1 to {policy.max_days} days",
                         code="bad_vacation")
    now = deps.clock()
    outcome, mine = deps.player_clocks.start_vacation(player.id, now, days, year_of(now),
                                                      policy.allowance_days)
    if outcome == RUNNING:
        raise VacationRefused(f"you are on vacation until {mine.until:.0f} already: end it "
                              "first (DELETE)", code="on_vacation")
    if outcome == ALLOWANCE:
        left = policy.allowance_days - mine.used_in(year_of(now))
        raise VacationRefused(f"{days} days is more than the {left} vacation days left "
                              "this year", code="vacation_allowance")
    _tell_games(deps, player.id, lambda table, seat: _vacation_events(table, seat, mine, now),
                ("active",))
    return settings_view(deps, player)


def end_vacation(deps: Deps, player: Player) -> dict[str, Any]:
    """End the vacation running now (ending none is fine)."""
    now = deps.clock()
    _outcome, mine = deps.player_clocks.end_vacation(player.id, now)
    _tell_games(deps, player.id, lambda table, seat: _vacation_events(table, seat, mine, now),
                ("active",))
    return settings_view(deps, player)


def _vacation_events(table: Table, seat: int, mine: ClockSettings, now: float) -> list[Event]:
    """What the table must hear to agree with the player's record (none when it does)."""
    if table.status != "active" or table.clock is None or not table.clock.vacation or \
            table.seats[seat].bot_level is not None:
        return []
    noted = table.vacation_until.get(seat, 0.0)
    if mine.on_vacation(now):
        return [] if noted == mine.until else \
            [event("vacation_started", seat=seat, until=mine.until)]
    return [event("vacation_ended", seat=seat)] if noted > now else []


def seated_events(deps: Deps, control: Correspondence | None,
                  seated: Sequence[tuple[int, str]]) -> list[Event]:
    """The events that bring the settings of the players just seated (seat, player id)
    to a table with time control `control`: one read of their records (none when nobody
    is seated)."""
    if not seated:
        return []
    now = deps.clock()
    out: list[Event] = []
    settings = deps.player_clocks.settings([p for _s, p in seated])
    for (seat, _player), mine in zip(seated, settings, strict=True):
        if mine.auto_forced:
            out.append(event("forced_moves_set", seat=seat, auto=True))
        if mine.on_vacation(now) and control is not None and control.vacation:
            out.append(event("vacation_started", seat=seat, until=mine.until))
    return out


def settings_view(deps: Deps, player: Player) -> dict[str, Any]:
    now = deps.clock()
    mine = deps.player_clocks.settings([player.id])[0]
    year = year_of(now)
    used = mine.used_in(year)
    return {"auto_forced": mine.auto_forced, "vacation": {
        "until": mine.until if mine.on_vacation(now) else None,
        "year": year, "days_used": used,
        "days_left": max(0, deps.vacations.allowance_days - used),
        "days_given_back_if_ended_now": days_given_back(mine.until, now)
        if mine.on_vacation(now) else 0,
        "allowance_days": deps.vacations.allowance_days,
        "max_days": deps.vacations.max_days}}


def reconcile(deps: Deps, tables: Iterable[Table]) -> int:
    """Tell the active correspondence games what their players' records say and they do
    not know (a crash between a player's record and their games); returns how many
    games were told. One read of the records of the players concerned."""
    concerned: list[tuple[Table, int, str]] = []
    for table in tables:
        if table.clock is not None and table.clock.vacation:
            concerned += [(table, seat, s.player) for seat, s in enumerate(table.seats)
                          if s.player is not None and s.in_play]
    if not concerned:
        return 0
    records = dict(zip({p for *_, p in concerned},
                       deps.player_clocks.settings(list({p for *_, p in concerned})),
                       strict=True))
    now = deps.clock()
    told = 0
    for table, seat, player_id in concerned:
        if _vacation_events(table, seat, records[player_id], now):
            told += _tell(deps, table.id, player_id,
                          lambda t, s, mine=records[player_id]: _vacation_events(t, s, mine,
                                                                                 now))
    return told


# --- telling a player's games --------------------------------------------------------------
TableEvents = Callable[[Table, int], list[Event]]


def _tell_games(deps: Deps, player_id: str, events: TableEvents,
                buckets: Sequence[str] = PLAYING) -> int:
    """Append `events(table, seat)` to each game of the player's inbox in `buckets`;
    returns how many games were told."""
    told = 0
    for bucket in buckets:
        offset = 0
        while offset < FAN_OUT_MAX:
            page = deps.players.inbox_ids(player_id, bucket, offset, FAN_OUT_PAGE)
            for game_id in page.ids:
                told += _tell(deps, game_id, player_id, events)
            if len(page.ids) < FAN_OUT_PAGE:
                break
            offset += FAN_OUT_PAGE
    return told


def _tell(deps: Deps, game_id: str, player_id: str, events: TableEvents) -> int:
    told = False

    def decide(table: Table, _game: Game[Any, Any]) -> list[Event]:
        nonlocal told
        seat = table.seat_of(player_id)
        if seat is None or not table.seats[seat].in_play:
            return []
        new = events(table, seat)
        told = bool(new)
        return new

    try:
        change_table(deps, game_id, decide, "telling a game of a player's setting")
    except UnknownGame:
        return 0
    except DomainError as err:  # busy, or over meanwhile: the sweep tells it later
        log.warning("game %s was not told of player %s's setting: %s", game_id, player_id,
                    err)
        return 0
    return int(told)
