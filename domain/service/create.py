"""The command that creates a game: check its seats and options, commit to a seed, and
append `game_created` (and the start, when no seat waits for a person)."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from domain import registry
from domain.errors import BadOptions
from domain.events import event
from domain.game import resolve_options
from domain.games.kit import check_player_count
from domain.rng import commitment, new_seed
from domain.service.appending import append
from domain.service.deps import Deps
from domain.service.folding import Batch, fold, start
from domain.table import Table

BOT_LEVELS = ("random", "basic", "strong")
TIMEOUT_POLICIES = ("autoplay",)
DEFAULT_DEADLINE_S = 3 * 24 * 3600  # play-by-post: three days a move


def create(deps: Deps, game_type: str, options: Mapping[str, Any] | None,
           seats: Sequence[Mapping[str, Any]], deadline_s: float | None = DEFAULT_DEADLINE_S,
           on_timeout: str = "autoplay", bot_delay_s: float = 0.0) -> Table:
    game = registry.get_game(game_type)
    check_player_count(game, len(seats))
    for seat in seats:
        if seat.get("kind") == "bot" and seat.get("level", "basic") not in BOT_LEVELS:
            raise BadOptions(f"bot level must be one of {', '.join(BOT_LEVELS)}",
                             code="bad_bot_level")
    if on_timeout not in TIMEOUT_POLICIES:
        raise BadOptions(f"on_timeout must be one of {TIMEOUT_POLICIES}", code="bad_option")
    resolved = resolve_options(game.options, options, len(seats))
    # A game checks what its option specs cannot say (combinations, structured values)
    # in `new_state`: ask now, not when the last seat joins and the game starts.
    game.new_state(resolved, len(seats))
    game_id = secrets.token_urlsafe(9)
    seed = new_seed()
    created = event(
        "game_created", id=game_id, type=game_type, options=resolved,
        seats=[{"kind": s["kind"], **({"level": s.get("level", "basic")}
                                      if s["kind"] == "bot" else {})} for s in seats],
        deadline_s=deadline_s, on_timeout=on_timeout, bot_delay_s=bot_delay_s,
        seed_hash=commitment(seed),
    )
    deps.store.save_secrets(game_id, seed)
    batch = Batch()
    table = fold(None, game, [created], batch, deps.clock)
    if all(s.taken for s in table.seats):
        table = start(table, game, seed, batch, deps.clock)
    append(deps, table, batch, expected=0)
    return table
