"""The command that creates a game: check its seats and options, commit to a seed, and
append `game_created` (with the players it seats at once, and the start, when no seat
waits for a person).

A seat is `{"kind": "bot", "level": …}` or `{"kind": "human"}`, which may name a `player`
(a `Player` seated at once), an `invited` player (only they may take it), or a
`rematch_seat` (kept for whoever held that seat of the game this one is a rematch of).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from domain import clocks
from domain.bots.levels import LEVELS
from domain.clocks import Correspondence
from domain.errors import BadOptions
from domain.events import Event, event
from domain.game import resolve_options
from domain.games.common import check_player_count
from domain.rng import commitment, new_seed
from domain.service.appending import append
from domain.service.deps import Deps
from domain.service.folding import Batch, fold, start
from domain.service.forced import play_forced
from domain.service.seat_clocks import seated_events
from domain.table import Table

BOT_LEVELS = LEVELS  # the bots package names the levels
# What happens when a seat's time runs out: the basic bot plays its move (two in a row and
# the seat is marked away), or the seat is marked away at once (`domain.clocks`).
TIMEOUT_POLICIES = ("autoplay", "away")
DEFAULT_DEADLINE_S = 3 * 24 * 3600  # play-by-post: three days a move


def create(deps: Deps, game_type: str, options: Mapping[str, Any] | None,
           seats: Sequence[Mapping[str, Any]], deadline_s: float | None = DEFAULT_DEADLINE_S,
           on_timeout: str = "autoplay", bot_delay_s: float = 0.0,
           created_by: str | None = None, game_id: str | None = None,
           rematch_of: str | None = None, clock: Correspondence | None = None) -> Table:
    """The new game. `game_id` is given by a rematch, whose creators may race: the first
    append wins and the others get VersionConflict (the seed kept is the first one too).
    `clock`: a correspondence time control (then `deadline_s` is None)."""
    game = deps.games.game(game_type)
    check_player_count(game, len(seats))
    for seat in seats:
        if seat.get("kind") == "bot" and seat.get("level", "basic") not in BOT_LEVELS:
            raise BadOptions(f"bot level must be one of {', '.join(BOT_LEVELS)}",
                             code="bad_bot_level")
    if on_timeout not in TIMEOUT_POLICIES:
        raise BadOptions(f"on_timeout must be one of {TIMEOUT_POLICIES}", code="bad_option")
    if clock is not None:
        deadline_s = None
    resolved = resolve_options(game.options, options, len(seats))
    # A game checks what its option specs cannot say (combinations, structured values)
    # in `new_state`: ask now, not when the last seat joins and the game starts.
    game.new_state(resolved, len(seats))
    game_id = game_id or secrets.token_urlsafe(9)
    named = [p.id for s in seats for p in (s.get("player"), s.get("invited")) if p]
    if len(set(named)) < len(named):
        raise BadOptions("a player sits at most once at a table", code="duplicate_player")
    seed = deps.store.save_secrets(game_id, new_seed())
    links: dict[str, Any] = {k: v for k, v in (("created_by", created_by),
                                                ("rematch_of", rematch_of)) if v}
    if clock is not None:
        links["time_control"] = {"kind": "correspondence", "bank_s": clock.bank_s,
                                 "increment_s": clock.increment_s, "vacation": clock.vacation}
    created = event(
        "game_created", id=game_id, type=game_type, options=resolved,
        seats=[_seat_created(s) for s in seats],
        deadline_s=deadline_s, on_timeout=on_timeout, bot_delay_s=bot_delay_s,
        seed_hash=commitment(seed), **links,
    )
    joined: list[Event] = [event("player_joined", seat=i, name=s["player"].name,
                                 player=s["player"].id,
                                 **({"bot": True} if s["player"].bot else {}))
                           for i, s in enumerate(seats) if s.get("player") is not None]
    joined += seated_events(deps, clock, [(i, s["player"].id) for i, s in enumerate(seats)
                                          if s.get("player") is not None])
    batch = Batch()
    table = fold(None, game, [created, *joined], batch, deps.clock)
    if all(s.taken for s in table.seats):
        table = play_forced(start(table, game, seed, batch, deps.clock), game, seed, batch,
                            deps.clock)
    append(deps, table, batch, expected=0)
    return table


def resolve_time_control(requested: Mapping[str, Any] | None,
                         deadline_s: float | None) -> tuple[float | None, Correspondence | None]:
    """`domain.clocks.time_control`, refused as the API refuses options."""
    try:
        return clocks.time_control(requested, deadline_s)
    except ValueError as err:
        raise BadOptions(str(err), code="bad_time_control") from None


def _seat_created(seat: Mapping[str, Any]) -> dict[str, Any]:
    """A seat as `game_created` records it (a seated player joins in the next events)."""
    if seat["kind"] == "bot":
        return {"kind": "bot", "level": seat.get("level", "basic")}
    if seat.get("invited") is not None:
        return {"kind": "human", "invited": seat["invited"].id, "name": seat["invited"].name}
    if seat.get("rematch_seat") is not None:
        return {"kind": "human", "rematch_seat": seat["rematch_seat"]}
    return {"kind": "human"}
