"""A player's right to leave: everything of theirs erased, the games they played kept.

In order (each step may be run again: an erasure cut short is finished by the next):
1. every game being played where they hold a seat still in play: the seat is handed to the
   basic bot, as on leave (`seat_left`, publicly), so the others' game goes on;
2. every game of theirs (open, being played, finished; an archived one is written back
   first): a `player_erased` event says which seats' player erased their account (from it
   on the table shows `deleted player` there, in every process, whatever it remembered);
   then their name becomes `deleted player` in the events before, the replay checkpoints
   and the chat; their chat texts are hidden; its idempotency records are dropped
   (`ErasureStore`); the other players' own streams lose the name too;
3. their own keys: name, key, inbox, ratings and their leaderboard places, their stream,
   notification settings, e-mail address, push subscriptions.

Their player id stays in the games' logs (a random id, nothing else of them), so results
and the hash chain hold: `donkeypost verify` takes the stored hash of an event whose name
was erased and says so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from domain.errors import DomainError, UnknownPlayer
from domain.events import Event, event
from domain.game import Game
from domain.players.names import name_key
from domain.service.deps import Deps
from domain.service.leave import leave
from domain.service.loading import read_latest
from domain.service.table_change import Decision, change_table
from domain.table import DELETED_NAME, Table

ERASED_BY_BOT = "basic"


class ErasureStore(Protocol):
    def games_of(self, player_id: str) -> list[str]: ...

    def idempotency_keys(self, game_ids: Sequence[str]) -> dict[str, list[str]]: ...

    def erase_from_game(self, game_id: str, player_id: str,
                        idempotency_keys: Sequence[str] = ()) -> bool: ...

    def erase_name_from_streams(self, player_ids: Sequence[str], name: str) -> None: ...

    def erase_player_keys(self, player_id: str, name_key: str | None,
                          game_types: Sequence[str]) -> None: ...


@dataclass
class Erased:
    """What an erasure did (or, with `dry_run`, would do)."""

    player_id: str
    games: list[str] = field(default_factory=list)
    seats_handed_to_bots: list[tuple[str, int]] = field(default_factory=list)
    dry_run: bool = False


def _erased_seats(player_id: str) -> Decision:
    def decide(table: Table, _game: Game[Any, Any]) -> list[Event]:
        seats = [i for i, s in enumerate(table.seats)
                 if player_id in (s.player, s.invited) and s.name != DELETED_NAME]
        return [event("player_erased", seats=seats)] if seats else []
    return decide


def hand_seats_to_bots(deps: Deps, game_ids: Sequence[str], player_id: str,
                       dry_run: bool = False) -> list[tuple[str, int]]:
    """The player's seats still in play in games being played, handed to the basic bot as
    on leave (`seat_left`); (game, seat) of each."""
    handed = []
    for game_id in game_ids:
        try:
            table, _, _ = read_latest(deps, game_id, None, with_seed=False)
        except DomainError:
            continue
        seat = table.seat_of(player_id)
        if seat is None or table.status != "active" or not table.seats[seat].in_play:
            continue
        if not dry_run:
            try:
                leave(deps, game_id, seat, ERASED_BY_BOT)
            except DomainError:
                continue  # over meanwhile
        handed.append((game_id, seat))
    return handed


def erase_player(deps: Deps, erasure: ErasureStore, player_id: str,
                 game_types: Sequence[str], dry_run: bool = False,
                 more: Sequence[Callable[[str], None]] = ()) -> Erased:
    """Erase `player_id` (see the module); `more` erase what other parts keep of them."""
    player = deps.players.player(player_id)
    if player is None:
        raise UnknownPlayer(f"no player {player_id!r}")
    report = Erased(player_id, erasure.games_of(player_id), dry_run=dry_run)
    report.seats_handed_to_bots = hand_seats_to_bots(deps, report.games, player_id, dry_run)
    if dry_run:
        return report
    restore = getattr(deps.store, "restore", None)
    if restore is not None:
        for game_id in report.games:
            restore(game_id)
    records = erasure.idempotency_keys(report.games)
    others: set[str] = set()
    for game_id in report.games:
        # First an event that says so (the table's seat shows a deleted player from it on,
        # in every process, whatever it remembered), then the name out of what came before.
        change_table(deps, game_id, _erased_seats(player_id), "erasing a player")
        erasure.erase_from_game(game_id, player_id, records.get(game_id, ()))
        try:
            table, _, _ = read_latest(deps, game_id, None, with_seed=False)
        except DomainError:
            continue
        others |= table.player_ids() - {player_id}
    erasure.erase_name_from_streams(sorted(others), player.name)
    for erase in more:
        erase(player_id)
    erasure.erase_player_keys(player_id, name_key(player.name), game_types)
    return report
