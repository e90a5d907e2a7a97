"""Games played through the service with everything a table lives through — people who
join, resign, leave, miss deadlines, come back, vote to abort, take moves back, on a
deadline per move or a correspondence clock; bots of every level; rematches — for the
archive's round-trip tests (memory or Redis alike)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec

from domain import bots
from domain.errors import DomainError
from domain.service import GameService
from domain.table import Table, may_take_back, to_act
from tests.support.games import games_under_test, installed_games

# (type, players, options): every game and variant, kept short.
VARIANTS: list[tuple[str, int, dict[str, Any]]] = [
    ("ochs-und-esel", 3, {"rounds": 1}),
    ("ochs-und-esel", 4, {"rounds": 1, "ox_variant": True}),
    ("crazy-donkey", 4, {"deals": 1}),
    ("crazy-donkey", 5, {"deals": 1}),
    ("canyon-donkeys", 3, {}),
    ("canyon-donkeys", 5, {"first_player": 2}),
    ("trash", 2, {"max_rounds": 2}),
    ("trash", 3, {"wild": "JQK", "max_rounds": 2}),
]
# Any other installed game (a game distribution installed beside the project's) with its
# defaults, at its fewest players.
VARIANTS += [(game_id, game.min_players, {}) for game_id, game in installed_games().items()
             if game_id not in {kind for kind, _, _ in VARIANTS}]


def play(service: GameService, game_type: str, players: int, options: dict[str, Any],
         seed: int, people: int = 2, life: bool = True, abort: bool = False,
         max_moves: int = 3000) -> tuple[Table, dict[int, str]]:
    """A game of `people` human seats (the others bots) played to its end; with `life`
    the people also time out, go away, come back, resign or leave. Returns the table and
    the people's seat tokens."""
    rng = random.Random(seed)
    levels = ["random", "basic"]
    seats: list[dict[str, Any]] = [{"kind": "human"} for _ in range(people)]
    seats += [{"kind": "bot", "level": levels[i % 2]} for i in range(players - people)]
    rng.shuffle(seats)
    # Every other game on a correspondence clock (a bank per seat), the others a deadline
    # per move.
    control = {"kind": "correspondence", "bank_s": 7200.0, "increment_s": 600.0} \
        if seed % 2 else None
    table = service.create(game_type, options, seats, deadline_s=3600.0,
                           time_control=control)
    tokens: dict[int, str] = {}
    for i in range(people):
        seat, token, table = service.join(table.id, f"p{i}")
        assert token is not None
        tokens[seat] = token
    game = games_under_test().game(game_type)
    if abort:
        for seat in tokens:
            table = service.vote_abort(table.id, seat)
        return table, tokens
    gave_up = 0
    for _ in range(max_moves):
        if table.status != "active":
            break
        acting = sorted(to_act(table, game))
        seat = rng.choice(acting)
        mine = table.seats[seat]
        if mine.bot_level is None and life:
            roll = rng.random()
            try:
                if roll < 0.01 and gave_up == 0:
                    gave_up += 1
                    table = service.resign(table.id, seat) if rng.random() < 0.5 else \
                        service.leave(table.id, seat, "random")
                    continue
                if roll < 0.02 and not table.abort_votes:
                    table = service.vote_abort(table.id, seat)
                    table = service.withdraw_abort(table.id, seat)
                    continue
            except DomainError:  # (too late to abort)
                table, _ = service.load(table.id)
                continue
            by = "player"
            if table.is_away(seat):
                if rng.random() < 0.3:
                    table = service.come_back(table.id, seat)
                    continue
                by = "away"
            elif roll < 0.08:
                by = "timeout"
        else:
            by = "bot" if mine.bot_level is not None else "player"
        level = mine.bot_level or "random"
        observation = bots.observe(game, table.game, seat)
        action = bots.choose_action(level if level != "strong" else "basic", game,
                                    observation, rng)
        try:
            table = service.act(table.id, seat, msgspec.to_builtins(action), by=by).table
            if life and by == "player" and may_take_back(table, seat) and rng.random() < 0.1:
                table = service.take_back(table.id, seat)
        except DomainError:
            table, _ = service.load(table.id)
    return table, tokens


def viewers(table: Table) -> Sequence[int | None]:
    return [None, *range(table.players)]
