"""Deciding one action on a table: the checks every game shares (If-Match, status, turn,
the action's shape), then the game's own `decide`, folded into a batch. No store here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, get_args

import msgspec

from domain.errors import (
    BadAction,
    GameNotStarted,
    GameOver,
    NotYourTurn,
    OutOfTime,
    PreconditionFailed,
    SeatGivenUp,
)
from domain.events import Event, event
from domain.game import Game
from domain.rng import rng_for
from domain.rulings import may_take_back
from domain.service.folding import Batch, finish, fold
from domain.service.forced import play_forced
from domain.table import Table, to_act


def decide_action(game: Game[Any, Any], table: Table, seed: str, seat: int, action: Any,
                  if_match: int | None, by: str, clock: Callable[[], float], *,
                  legal: bool = False) -> tuple[Table, Batch]:
    """The table the action of `seat` in `game` leads to, and the batch to append. `by`:
    the seat's owner ("player"), its bot, or the server for an absent player ("timeout",
    "away"). `legal`: `seat` is one of the table's seats to act and `action` one of the
    game's legal actions for it, as a replay takes them (`domain.archive.replay`), so
    neither is checked again (the game's `decide` still is, and the seat's time).
    Raises the domain's errors (PreconditionFailed when `if_match` is not the version)."""
    if if_match is not None and if_match != table.version:
        raise PreconditionFailed(if_match, table.version)
    if not legal:
        check_playing(table)
    if by == "player":
        check_in_play(table, seat)
    if not legal and seat not in to_act(table, game):
        raise NotYourTurn(f"seat {seat} may not act now")
    parsed = action if legal else parse_action(game, action)
    if by == "player":
        check_time_left(table, seat, clock())
    prefix: list[Event] = []
    if by == "timeout":
        away = {"away": True} if table.on_timeout == "away" else {}
        prefix.append(event("turn_timed_out", seat=seat, **away))
    elif by == "player" and table.timeouts_in_row[seat] > 0:
        prefix.append(event("seat_returned", seat=seat))
    rng = rng_for(seed, table.version)
    decided = game.decide(table.game, seat, parsed, rng)
    if by == "player" and may_take_back(game, table.game, seat, parsed, decided, rng):
        # The log says how many events the action made: the fold keeps the table before
        # them, for a take-back (`domain.table.Undo`).
        decided = [msgspec.structs.replace(decided[0], data={
            **decided[0].data, "undoable": len(decided)}), *decided[1:]]
    if by in ("timeout", "away"):
        # The log says which moves the server made for an absent player.
        decided = [msgspec.structs.replace(e, data={**e.data, "auto": by})
                   if e.actor == seat else e for e in decided]
    batch = Batch()
    after = fold(table, game, prefix + decided, batch, clock, seed)
    if game.outcome(after.game) is not None:
        return finish(after, game, seed, batch, clock), batch
    return play_forced(after, game, seed, batch, clock), batch


def check_playing(table: Table) -> None:
    """The game is being played, or the error that says why not."""
    if table.status == "finished":
        raise GameOver("the game is over")
    if table.status == "cancelled":
        raise GameOver("the game was cancelled", code="game_cancelled")
    if table.status == "aborted":
        raise GameOver("the game was aborted by agreement", code="game_aborted")
    if table.status == "open":
        raise GameNotStarted("the game starts when every seat is taken")


def check_time_left(table: Table, seat: int, now: float) -> None:
    """A seat whose correspondence clock ran out may not move: the timeout ruling applies
    (its job may not have run yet). A deadline per move is kept as it always was: a
    move that beats the timer's job is taken."""
    deadline = table.deadline(seat)
    if table.clock is not None and deadline is not None and now > deadline:
        raise OutOfTime(f"seat {seat}'s time ran out (at {deadline:.0f}); the table's "
                        f"timeout ruling ({table.on_timeout}) plays for it")


def check_in_play(table: Table, seat: int) -> None:
    """The seat's player still plays it, or SeatGivenUp."""
    mine = table.seats[seat]
    if mine.resigned:
        raise SeatGivenUp(f"seat {seat} resigned: the {mine.played_by} bot plays it to the "
                          "end", code="seat_resigned")
    if mine.left:
        raise SeatGivenUp(f"seat {seat} was left to the {mine.played_by} bot",
                          code="seat_left")


def parse_action(game: Game[Any, Any], action: Any) -> Any:
    """Turn an action body (JSON-like) into the game's action type, or raise BadAction.
    A field the action does not have is refused too (the document says each action's
    fields exactly: a misspelt one would otherwise be dropped without a word). An action
    of the game's own type (one of its legal actions, as a replay passes them) is taken
    as it is."""
    if type(action) in _action_classes(game.action_type):
        return action
    try:
        parsed = msgspec.convert(action, game.action_type)
    except msgspec.ValidationError as err:
        raise BadAction(f"not an action of {game.title}: {err}") from None
    unknown = action.keys() - _fields(type(parsed)) if isinstance(action, dict) else ()
    if unknown:
        raise BadAction(f"a {action.get('type')!r} action of {game.title} has no field "
                        + ", ".join(repr(f) for f in sorted(unknown)))
    return parsed


def _fields(cls: type[msgspec.Struct]) -> frozenset[str]:
    """The names an action of type `cls` may carry: its fields and its tag's."""
    known = _FIELDS.get(cls)
    if known is None:
        tag = cls.__struct_config__.tag_field
        known = _FIELDS[cls] = frozenset((*cls.__struct_fields__, *([tag] if tag else [])))
    return known


_FIELDS: dict[type, frozenset[str]] = {}  # per action type (a game's few), once


def _action_classes(action_type: Any) -> frozenset[Any]:
    """The classes of a game's actions (its `action_type`: a Union of them, or one)."""
    known = _CLASSES.get(action_type)
    if known is None:
        known = _CLASSES[action_type] = frozenset(get_args(action_type) or (action_type,))
    return known


_CLASSES: dict[Any, frozenset[Any]] = {}  # per game's action type, once
