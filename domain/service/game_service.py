"""`GameService`: the one object the API, the workers and the bench call.

It holds the collaborators (`Deps`: the stores, the clock, the hooks, what the process
remembers) and hands each call to the module that does that one thing: loading, the
commands (create, join, come back, act, cancel, rematch; resign, leave, abort by
agreement; the table's chat; register a player, rotate a key; rate a finished game), the
queries (views, listings, a player's inbox, the leaderboards).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import domain.service.abort as aborting
import domain.service.act as acting
import domain.service.analysis as analysing
import domain.service.chat as chat
import domain.service.create as creating
import domain.service.creator as creator
import domain.service.inbox as inbox
import domain.service.leave as leaving
import domain.service.loading as loading
import domain.service.lobby as lobby
import domain.service.players as players
import domain.service.queries as queries
import domain.service.rating as rating
import domain.service.rematch as rematching
import domain.service.replay as replay
import domain.service.resign as resigning
import domain.service.seat_clocks as seat_clocks
import domain.service.seats as seating
import domain.service.take_back as taking_back
import domain.service.words as wording
from domain.bots.analysis import AnalysisBudget
from domain.chat import ChatEntry
from domain.events import Event
from domain.players.clock_settings import VacationPolicy
from domain.players.records import Player
from domain.ratings.standing import Standing
from domain.registry import GameRegistry
from domain.service.act import ActResult
from domain.service.create import DEFAULT_DEADLINE_S
from domain.service.deps import Deps
from domain.service.hooks import Hooks, NoHooks
from domain.service.process_memory import Remembered
from domain.service.rematch import Rematch
from domain.service.tokens import hash_token
from domain.service.views import table_view
from domain.store.memory_players import MemoryPlayerStore
from domain.store.memory_ratings import MemoryRatingStore
from domain.store.player_clocks import MemoryPlayerClockStore, PlayerClockStore
from domain.store.port import EventStore, PlayerStore, RatingStore
from domain.table import Table
from domain.texts import Translate, english


class GameService:
    """`players` and `ratings` default to memory: a service of anonymous games only (as
    most unit tests build) needs no other store."""

    def __init__(self, store: EventStore, games: GameRegistry,
                 clock: Callable[[], float] = time.time,
                 hooks: Hooks | None = None, remembered: Remembered | None = None,
                 players: PlayerStore | None = None,
                 ratings: RatingStore | None = None,
                 player_clocks: PlayerClockStore | None = None,
                 vacations: VacationPolicy | None = None) -> None:
        self.deps = Deps(store=store, games=games, players=players or MemoryPlayerStore(),
                         ratings=ratings or MemoryRatingStore(), clock=clock,
                         hooks=hooks or NoHooks(), remembered=remembered or Remembered(),
                         player_clocks=player_clocks or MemoryPlayerClockStore(),
                         vacations=vacations or VacationPolicy())

    @property
    def store(self) -> EventStore:
        return self.deps.store

    @property
    def games(self) -> GameRegistry:
        """The games this service plays."""
        return self.deps.games

    @property
    def players(self) -> PlayerStore:
        return self.deps.players

    @property
    def clock(self) -> Callable[[], float]:
        return self.deps.clock

    @property
    def hooks(self) -> Hooks:
        return self.deps.hooks

    # --- loading -------------------------------------------------------------------------
    def load(self, game_id: str, token: str | None = None) -> tuple[Table, int | None]:
        """The table at its latest version, and the seat the token belongs to (if any)."""
        return loading.load(self.deps, game_id, token)

    def load_to_act(self, game_id: str, token: str | None = None,
                    version: int | None = None) -> loading.Loaded:
        """What an action needs before its append (see `loading.load_to_act`)."""
        return loading.load_to_act(self.deps, game_id, token, version)

    def table_at(self, game_id: str, version: int, recent: Sequence[Event] = ()) -> Table:
        """The table at `version` (see `replay.table_at`: no read when this process
        remembers it, or an earlier one and `recent` events up to it)."""
        return replay.table_at(self.deps, game_id, version, recent)

    def rebuild(self, game_id: str, until: int | None = None) -> Table:
        """Fold the log from its first event (replay, verification, lost snapshots)."""
        return replay.rebuild(self.deps.store, self.deps.games, game_id, until)

    def active_games(self, batch: int = 500) -> Iterator[Table]:
        """Every game being played, loaded from its snapshot `batch` games at a time."""
        return queries.active_games(self.deps.store, self.deps.games, batch)

    # --- commands ------------------------------------------------------------------------
    def create(self, game_type: str, options: Mapping[str, Any] | None,
               seats: Sequence[Mapping[str, Any]],
               deadline_s: float | None = DEFAULT_DEADLINE_S,
               on_timeout: str = "autoplay", bot_delay_s: float = 0.0,
               by: Player | None = None,
               time_control: Mapping[str, Any] | None = None) -> Table:
        """A new game; seats may say `me` (seats `by`, a player) or `invite` (a name).
        `time_control` (`domain.clocks.time_control`; None: a deadline per move of
        `deadline_s`, or none)."""
        deadline_s, clock = creating.resolve_time_control(time_control, deadline_s)
        resolved = lobby.seats_for(self.deps, seats, by)
        return creating.create(self.deps, game_type, options, resolved,
                               deadline_s=deadline_s, on_timeout=on_timeout,
                               bot_delay_s=bot_delay_s, created_by=by.id if by else None,
                               clock=clock)

    def join(self, game_id: str, name: str | None, player: Player | None = None,
             idempotency_key: str | None = None) -> tuple[int, str | None, Table]:
        return seating.join(self.deps, game_id, name, player, idempotency_key)

    def cancel(self, game_id: str, credential: str) -> Table:
        return lobby.cancel(self.deps, game_id, credential)

    def rematch(self, game_id: str, seat: int) -> Rematch:
        return rematching.rematch(self.deps, game_id, seat)

    def resign(self, game_id: str, seat: int) -> Table:
        return resigning.resign(self.deps, game_id, seat)

    def leave(self, game_id: str, seat: int, level: str) -> Table:
        return leaving.leave(self.deps, game_id, seat, level)

    def vote_abort(self, game_id: str, seat: int) -> Table:
        return aborting.vote(self.deps, game_id, seat)

    def withdraw_abort(self, game_id: str, seat: int) -> Table:
        return aborting.withdraw(self.deps, game_id, seat)

    def post_message(self, table: Table, seat: int, text: str) -> ChatEntry:
        """Seat `seat` says `text` at the table (as the caller read it)."""
        return chat.post(self.deps, table, seat, text)

    def hide_message(self, game_id: str, n: int, credential: str) -> ChatEntry:
        return chat.hide(self.deps, game_id, n, credential)

    def messages(self, game_id: str, after: int, limit: int) -> list[ChatEntry]:
        return chat.read(self.deps, game_id, after, limit)

    def register_player(self, name: str, bot: bool = False) -> tuple[Player, str]:
        return players.register(self.deps, name, bot)

    def authenticate(self, key: str) -> Player:
        return players.authenticate(self.deps, key)

    def rotate_key(self, player: Player) -> str:
        return players.rotate_key(self.deps, player)

    def rate_game(self, game_id: str) -> str:
        return rating.rate_game(self.deps, game_id)

    def analysis(self, game_id: str) -> bytes | None:
        """The finished game's analysis (JSON) once made (GameNotFinished before the end)."""
        return analysing.analysis(self.deps, game_id)

    def analyse_game(self, game_id: str, budget: AnalysisBudget,
                     on_progress: Callable[[int, int], None] | None = None) -> str:
        """Make and keep the finished game's analysis (the analysis job's command)."""
        return analysing.analyse_game(self.deps, game_id, budget, on_progress)

    def calibrated(self, game_type: str, standings: dict[str, Standing]) -> None:
        """Keep a calibration of the bot levels (`donkeypost calibrate`)."""
        rating.calibrated(self.deps, game_type, standings)

    def come_back(self, game_id: str, seat: int) -> Table:
        return seating.come_back(self.deps, game_id, seat)

    def act(self, game_id: str, seat: int, action: Any, if_match: int | None = None,
            idempotency_key: str | None = None, by: str = "player",
            loaded: loading.Loaded | None = None) -> ActResult:
        return acting.act(self.deps, game_id, seat, action, if_match=if_match,
                          idempotency_key=idempotency_key, by=by, loaded=loaded)

    def take_back(self, game_id: str, seat: int) -> Table:
        """The seat's last action, taken back (`domain.service.take_back`)."""
        return taking_back.take_back(self.deps, game_id, seat)

    # --- the clocks' settings: forced moves, vacations ------------------------------------
    def set_seat_forced(self, game_id: str, seat: int, auto: bool) -> Table:
        return seat_clocks.set_seat_forced(self.deps, game_id, seat, auto)

    def clock_settings(self, player: Player) -> dict[str, Any]:
        return seat_clocks.settings_view(self.deps, player)

    def set_player_forced(self, player: Player, auto: bool) -> dict[str, Any]:
        return seat_clocks.set_player_forced(self.deps, player, auto)

    def start_vacation(self, player: Player, days: int) -> dict[str, Any]:
        return seat_clocks.start_vacation(self.deps, player, days)

    def end_vacation(self, player: Player) -> dict[str, Any]:
        return seat_clocks.end_vacation(self.deps, player)

    def reconcile_clocks(self, tables: Iterable[Table]) -> int:
        """What the players' records say and their games missed (the workers' sweep)."""
        return seat_clocks.reconcile(self.deps, tables)

    def issue_creator_token(self, game_id: str) -> str:
        """The creator's token of a game just created (shown once)."""
        return creator.issue_creator_token(self.deps.store, game_id)

    # --- queries -------------------------------------------------------------------------
    def knows_seat_token(self, game_id: str, token: str) -> bool:
        """Has this process found `token` to be a seat's of the game? (No store read: a
        token is only remembered once it was found valid.)"""
        return self.deps.remembered.seats.get((game_id, hash_token(token))) is not None

    def knows_player_key(self, key: str) -> bool:
        """Has this process found `key` to be a player's (then or since)? No store read."""
        return players.known_key(self.deps, key)

    def is_creator(self, game_id: str, token: str) -> bool:
        return creator.is_creator(self.deps.store, game_id, token)

    def view(self, table: Table, viewer: int | None,
             words: Translate | None = None) -> dict[str, Any]:
        """The viewer's view; with `words` (a translator: `domain.texts`), its legal
        actions' labels and its layout in those words."""
        return table_view(table, self.deps.games.game(table.type), viewer, self.deps.clock(),
                          words=words)

    def with_sentences(self, table: Table, events: Sequence[dict[str, Any]],
                       words: Translate = english) -> Sequence[dict[str, Any]]:
        """Redacted events of `table`'s game, each given its `sentence` (in place)."""
        return wording.with_sentences(table, self.deps.games.game(table.type), events, words)

    def list_games(self, status: str | None, game_type: str | None, offset: int,
                   limit: int, free_seat: bool = False) -> tuple[list[Table], int]:
        return queries.list_games(self.deps.store, self.deps.games, status, game_type,
                                  offset, limit, free_seat)

    def events_for(self, game_id: str, viewer: int | None, after: int = 0,
                   limit: int = 1000,
                   words: Translate | None = None) -> tuple[list[dict[str, Any]], Table]:
        """The log as the viewer may see it; with `words`, each event's sentence."""
        return queries.events_for(self.deps, game_id, viewer, after, limit, words)

    def state_at(self, game_id: str, seq: int, viewer: int | None,
                 words: Translate | None = None) -> dict[str, Any]:
        return replay.state_at(self.deps, game_id, seq, viewer, words)

    def profile(self, player_id: str) -> dict[str, Any]:
        return players.profile(self.deps, player_id)

    def inbox(self, key: str, status: str, my_turn: bool | None, offset: int,
              limit: int) -> tuple[list[dict[str, Any]], int]:
        """A page of the inbox of the player whose key this is (BadCredentials if none)."""
        return inbox.page(self.deps, key, status, my_turn, offset, limit)

    def leaderboard(self, game_type: str, offset: int,
                    limit: int) -> tuple[list[dict[str, Any]], int]:
        return rating.leaderboard(self.deps, game_type, offset, limit)

    def awaiting_rating(self, finished_before: float) -> list[str]:
        return rating.awaiting(self.deps, finished_before)
