"""The service layer: each use case loads a table, decides, appends, and tells the hooks.

Functions take their collaborators (store, clock, hooks) from `GameService`, built once by
the application's bootstrap; nothing here knows about HTTP or queues.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Protocol

import msgspec

from domain import registry
from domain.errors import (
    BadAction,
    BadOptions,
    DomainError,
    GameNotStarted,
    GameOver,
    NotYourTurn,
    SeatNotAway,
    SeatTaken,
    UnknownGame,
    VersionConflict,
)
from domain.events import Event, event, stamp
from domain.game import Game, resolve_options
from domain.lru import Lru
from domain.redaction import redact
from domain.rng import commitment, new_seed, rng_for
from domain.store import CHECKPOINT_EVERY, RedisEventStore
from domain.table import Table, decode_table, encode_table, evolve_table, to_act

BOT_LEVELS = ("random", "basic", "strong")
TIMEOUT_POLICIES = ("autoplay",)
DEFAULT_DEADLINE_S = 3 * 24 * 3600  # play-by-post: three days a move

_log = logging.getLogger(__name__)


class PreconditionFailed(Exception):
    """The client's If-Match version is not the game's version."""

    code = "version_mismatch"

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"the game is at version {actual}, not {expected}")
        self.message = str(self)
        self.version = actual


class Hooks(Protocol):
    """What happens after an append: bot jobs, deadlines, notifications."""

    def after_append(self, table: Table, new_events: Sequence[Event]) -> None: ...


class NoHooks:
    def after_append(self, table: Table, new_events: Sequence[Event]) -> None:
        pass


class FanOutHooks:
    """Several hooks objects behind the one the service calls, each told of every append.

    The events are stored before any hook runs, so a hook that fails must not turn a
    recorded move into an error for the caller, nor keep the next hooks from running: the
    failure is logged with its traceback, and what the hook missed is rebuilt from the
    stored games (the workers rebuild bot turns and deadlines when they start and on every
    sweep)."""

    def __init__(self, hooks: Sequence[Hooks]) -> None:
        self.hooks = tuple(hooks)

    def after_append(self, table: Table, new_events: Sequence[Event]) -> None:
        for hook in self.hooks:
            try:
                hook.after_append(table, new_events)
            except Exception:
                _log.exception("hook %s failed after an append to game %s (version %s)",
                               type(hook).__name__, table.id, table.version)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Batch:
    """Events prepared for one append, and the replay checkpoint met on the way (if any)."""

    events: list[Event] = field(default_factory=list)
    checkpoint: tuple[int, bytes] | None = None


@dataclass(frozen=True)
class Loaded:
    """A table as read for an action: with the seat the caller's token names (if any) and
    the game's seed, so that an action needs no other read before its append. `cached`:
    the table was remembered at the version the caller named, not read just now."""

    table: Table
    seat: int | None
    seed: str
    cached: bool = False


@dataclass
class ActResult:
    table: Table
    events: list[Event]
    body: bytes  # the JSON answer given to the acting seat (also kept for idempotent retries)


# What a process remembers (see `domain.lru`): enough for the games its clients play now.
REMEMBERED_TABLES = 4096
REMEMBERED_TOKENS = 16384


@dataclass
class GameService:
    store: RedisEventStore
    clock: Callable[[], float] = time.time
    hooks: Hooks = field(default_factory=NoHooks)
    # Facts that never change once written: (game, version) -> table, (game, token hash)
    # -> seat, game -> seed. A table at a version is only trusted for an action that names
    # that version (If-Match), whose append fails anyway if the game has moved on.
    tables: Lru[tuple[str, int], Table] = field(
        default_factory=lambda: Lru(REMEMBERED_TABLES))
    seats: Lru[tuple[str, str], int] = field(default_factory=lambda: Lru(REMEMBERED_TOKENS))
    seeds: Lru[str, str] = field(default_factory=lambda: Lru(REMEMBERED_TABLES))

    # --- loading -------------------------------------------------------------------------
    def load(self, game_id: str, token: str | None = None) -> tuple[Table, int | None]:
        """The table at its latest version, and the seat the token belongs to (if any).

        One round trip: the snapshot is written with every append, so nothing is folded."""
        token_hash = hash_token(token) if token is not None else None
        table, seat, _ = self._read(game_id, token_hash, with_seed=False)
        return table, seat

    def load_to_act(self, game_id: str, token: str | None = None,
                    version: int | None = None) -> Loaded:
        """What an action needs before its append, in one round trip at most: none when the
        caller names a `version` (If-Match) whose table this process remembers."""
        token_hash = hash_token(token) if token is not None else None
        if version is not None:
            table = self.tables.get((game_id, version))
            seed = self.seeds.get(game_id)
            seat = self.seats.get((game_id, token_hash)) if token_hash is not None else None
            if table is not None and seed is not None and (token_hash is None or
                                                          seat is not None):
                return Loaded(table, seat, seed, cached=True)
        table, seat, seed = self._read(game_id, token_hash, with_seed=True)
        assert seed is not None
        return Loaded(table, seat, seed)

    def _read(self, game_id: str, token_hash: str | None,
              with_seed: bool) -> tuple[Table, int | None, str | None]:
        """The latest table, read from Redis with what this process does not remember."""
        seat = self.seats.get((game_id, token_hash)) if token_hash is not None else None
        seed = self.seeds.get(game_id) if with_seed else None
        raw, read_seat, read_seed = self.store.read_table(
            game_id, token_hash if seat is None else None,
            with_seed=with_seed and seed is None)
        if raw is None or (with_seed and seed is None and read_seed is None):
            raise UnknownGame(f"no game {game_id!r}")
        if read_seat is not None and token_hash is not None:
            seat = read_seat
            self.seats.put((game_id, token_hash), seat)
        if read_seed is not None:
            seed = read_seed
            self.seeds.put(game_id, seed)
        table = decode_table(raw, registry.games())
        self.tables.put((game_id, table.version), table)
        return table, seat, seed

    def rebuild(self, game_id: str, until: int | None = None) -> Table:
        """Fold the log from its first event (replay, verification, lost snapshots)."""
        start: Table | None = None
        after = 0
        if until is not None:
            ckpt = self.store.checkpoint_at_or_before(game_id, until)
            if ckpt is not None:
                after, raw = ckpt
                start = decode_table(raw, registry.games())
        events = self.store.read(game_id, after=after, until=until)
        if start is None and not events:
            raise UnknownGame(f"no game {game_id!r}")
        table = start
        game: Game[Any, Any] | None = registry.get_game(start.type) if start else None
        for ev in events:
            if game is None:
                game = registry.get_game(ev.data["type"])
            table = evolve_table(table, ev, game)
        assert table is not None
        return table

    def active_games(self, batch: int = 500) -> Iterator[Table]:
        """Every game being played, loaded from its snapshot `batch` games at a time."""
        games = registry.games()
        ids = self.store.scan_ids("active", batch)
        while chunk := list(islice(ids, batch)):
            for raw in self.store.snapshots(chunk):
                if raw is not None:
                    table = decode_table(raw, games)
                    if table.status == "active":  # the index is written after the append
                        yield table

    # --- use cases -----------------------------------------------------------------------
    def create(self, game_type: str, options: Mapping[str, Any] | None,
               seats: Sequence[Mapping[str, Any]], deadline_s: float | None = DEFAULT_DEADLINE_S,
               on_timeout: str = "autoplay", bot_delay_s: float = 0.0) -> Table:
        game = registry.get_game(game_type)
        if not game.min_players <= len(seats) <= game.max_players:
            raise BadOptions(f"{game.title} is played by {game.min_players} to "
                             f"{game.max_players} players, not {len(seats)}",
                             code="bad_player_count")
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
        self.store.save_secrets(game_id, seed)
        batch = Batch()
        table = self._fold(None, game, [created], batch)
        if all(s.taken for s in table.seats):
            table = self._start(table, game, seed, batch)
        self._append(table, batch, expected=0)
        return table

    def join(self, game_id: str, name: str) -> tuple[int, str, Table]:
        for _attempt in range(5):
            table, _ = self.load(game_id)
            game = registry.get_game(table.type)
            free = [i for i, s in enumerate(table.seats) if not s.taken]
            if not free:
                raise SeatTaken("every seat of this game is taken")
            seat = free[0]
            token = secrets.token_urlsafe(24)
            expected = table.version
            batch = Batch()
            table = self._fold(table, game, [event("player_joined", seat=seat, name=name)], batch)
            if all(s.taken for s in table.seats):
                seed = self.store.seed(game_id)
                assert seed is not None
                table = self._start(table, game, seed, batch)
            try:
                self._append(table, batch, expected=expected, token=(hash_token(token), seat))
            except VersionConflict:
                continue  # another player joined at the same moment: try the next seat
            return seat, token, table
        raise VersionConflict(-1, -1)

    def come_back(self, game_id: str, seat: int) -> Table:
        """An away seat's owner says they are back: the seat waits for them again (with its
        deadline) instead of being auto-played at once. Refused unless the seat is away."""
        for _attempt in range(3):
            table, _ = self.load(game_id)
            if table.status != "active":
                raise GameOver("the game is over") if table.status == "finished" else \
                    GameNotStarted("the game starts when every seat is taken")
            if not table.is_away(seat):
                raise SeatNotAway(f"seat {seat} is not away")
            game = registry.get_game(table.type)
            expected = table.version
            batch = Batch()
            table = self._fold(table, game, [event("seat_returned", seat=seat)], batch)
            try:
                self._append(table, batch, expected=expected)
            except VersionConflict:
                continue  # a move for the seat landed meanwhile: look again
            return table
        raise VersionConflict(-1, -1)

    def act(self, game_id: str, seat: int, action: Any, if_match: int | None = None,
            idempotency_key: str | None = None, by: str = "player",
            loaded: Loaded | None = None) -> ActResult:
        """Apply one action of `seat`. `by` is "player", "bot", "timeout" or "away".

        `loaded` is the table as the caller just read it (`load_to_act`), so that a move
        costs two round trips at most: that read and the append. A retried idempotent
        request is recognised by the append script itself; only when the action is refused
        is the first answer looked up (the game may have moved on since it was given)."""
        idem = f"{seat}:{idempotency_key}" if idempotency_key else None
        for _attempt in range(3):
            current = loaded if loaded is not None else self.load_to_act(game_id)
            loaded = None
            table = current.table
            try:
                game, after, batch = self._decide(table, current.seed, seat, action,
                                                  if_match, by)
            except (DomainError, PreconditionFailed):
                if current.cached:
                    continue  # refused on a remembered table: decide again on the latest
                first = self.store.first_answer(game_id, idem) if idem else None
                if first is not None:
                    return ActResult(table, [], first)
                raise
            expected = table.version
            table = after
            new = batch.events
            # `to_act` is public and saves the client a request to learn who plays next.
            body = msgspec.json.encode(
                {"version": table.version, "to_act": sorted(to_act(table, game)),
                 "events": [redact(e, seat) for e in new]})
            try:
                first = self._append(table, batch, expected=expected,
                                     idempotency=(idem, body) if idem else None)
            except VersionConflict as conflict:
                if if_match is not None:
                    first = self.store.first_answer(game_id, idem) if idem else None
                    if first is not None:
                        return ActResult(table, [], first)
                    raise PreconditionFailed(if_match, conflict.actual) from None
                continue
            if first is not None:
                return ActResult(table, [], first)
            self.tables.put((game_id, table.version), table)
            return ActResult(table, new, body)
        raise VersionConflict(-1, -1)

    def _decide(self, table: Table, seed: str, seat: int, action: Any, if_match: int | None,
                by: str) -> tuple[Game[Any, Any], Table, Batch]:
        """Check and decide one action on `table`: the game, the table it leads to and the
        batch to append. Raises the domain's errors, or PreconditionFailed."""
        if if_match is not None and if_match != table.version:
            raise PreconditionFailed(if_match, table.version)
        game = registry.get_game(table.type)
        if table.status == "finished":
            raise GameOver("the game is over")
        if table.status == "open":
            raise GameNotStarted("the game starts when every seat is taken")
        if seat not in to_act(table, game):
            raise NotYourTurn(f"seat {seat} may not act now")
        parsed = parse_action(game, action)
        prefix: list[Event] = []
        if by == "timeout":
            prefix.append(event("turn_timed_out", seat=seat))
        elif by == "player" and table.timeouts_in_row[seat] > 0:
            prefix.append(event("seat_returned", seat=seat))
        decided = game.decide(table.game, seat, parsed, rng_for(seed, table.version))
        if by in ("timeout", "away"):
            # The log says which moves the server made for an absent player.
            decided = [msgspec.structs.replace(e, data={**e.data, "auto": by})
                       if e.actor == seat else e for e in decided]
        batch = Batch()
        after = self._fold(table, game, prefix + decided, batch)
        if game.outcome(after.game) is not None:
            after = self._finish(after, game, seed, batch)
        return game, after, batch

    # --- reading for a viewer ------------------------------------------------------------
    def view(self, table: Table, viewer: int | None) -> dict[str, Any]:
        return table_view(table, registry.get_game(table.type), viewer, self.clock())

    def events_for(self, game_id: str, viewer: int | None, after: int = 0,
                   wait_s: float = 0.0, limit: int = 1000) -> tuple[list[dict[str, Any]], Table]:
        events = self.store.read(game_id, after=after, count=limit)
        if not events and wait_s > 0:
            events = self.store.wait(game_id, after, wait_s, count=limit)
        table, _ = self.load(game_id)
        reveal = table.status == "finished"
        return [redact(e, viewer, reveal) for e in events], table

    def state_at(self, game_id: str, seq: int, viewer: int | None) -> dict[str, Any]:
        now, _ = self.load(game_id)
        if not 1 <= seq <= now.version:
            raise UnknownGame(f"no event {seq} in game {game_id!r}", code="unknown_seq")
        past = self.rebuild(game_id, until=seq)
        game = registry.get_game(past.type)
        return table_view(past, game, viewer, now=past.updated_at,
                          reveal_all=now.status == "finished")

    # --- internals -----------------------------------------------------------------------
    def _fold(self, table: Table | None, game: Game[Any, Any], new: list[Event],
              batch: Batch) -> Table:
        """Stamp new events and apply them; they join `batch`, to be appended together."""
        version = table.version if table else 0
        prev_hash = table.last_hash if table else ""
        for ev in stamp(new, version + 1, self.clock(), prev_hash):
            table = evolve_table(table, ev, game)
            batch.events.append(ev)
            if ev.seq % CHECKPOINT_EVERY == 0:
                batch.checkpoint = (ev.seq, encode_table(table))
        assert table is not None
        return table

    def _start(self, table: Table, game: Game[Any, Any], seed: str, batch: Batch) -> Table:
        table = self._fold(table, game, [event("game_started")], batch)
        return self._fold(table, game, game.setup(table.game, rng_for(seed, 0)), batch)

    def _finish(self, table: Table, game: Game[Any, Any], seed: str, batch: Batch) -> Table:
        outcome = game.outcome(table.game)
        assert outcome is not None
        return self._fold(table, game, [event("game_finished", seed=seed,
                                              outcome=msgspec.to_builtins(outcome))], batch)

    def _append(self, table: Table, batch: Batch, expected: int,
                token: tuple[str, int] | None = None,
                idempotency: tuple[str, bytes] | None = None) -> bytes | None:
        """Append a batch; returns the first answer if the idempotency key was used before."""
        result = self.store.append(table.id, expected, batch.events, encode_table(table),
                                   checkpoint=batch.checkpoint, token=token,
                                   idempotency=idempotency)
        if result.duplicate is not None:
            return result.duplicate
        if expected == 0 or any(e.type in ("game_started", "game_finished")
                                for e in batch.events):
            self.store.index(table.id, table.type, table.status, table.created_at)
        self.hooks.after_append(table, batch.events)
        return None


def parse_action(game: Game[Any, Any], action: Any) -> Any:
    """Turn an action body (JSON-like) into the game's action type, or raise BadAction."""
    try:
        return msgspec.convert(action, game.action_type)
    except msgspec.ValidationError as err:
        raise BadAction(f"not an action of {game.title}: {err}") from None


def table_view(table: Table, game: Game[Any, Any], viewer: int | None, now: float,
               reveal_all: bool | None = None) -> dict[str, Any]:
    """What `viewer` (a seat, or None for a spectator) may see of the table now."""
    reveal = table.status == "finished" if reveal_all is None else reveal_all
    acting = sorted(to_act(table, game))
    seats = [
        {"seat": i, "kind": s.kind, "level": s.level, "name": s.name, "taken": s.taken,
         "away": table.is_away(i), "timeouts_in_row": table.timeouts_in_row[i],
         "deadline": table.deadline(i)}
        for i, s in enumerate(table.seats)
    ]
    legal: list[Any] = []
    if viewer is not None and table.status == "active" and viewer in acting:
        legal = [msgspec.to_builtins(a) for a in game.legal_actions(table.game, viewer)]
    return {
        "id": table.id,
        "type": table.type,
        "status": table.status,
        "version": table.version,
        "options": table.options,
        "seats": seats,
        "you": viewer,
        "to_act": acting,
        "deadline_s": table.deadline_s,
        "on_timeout": table.on_timeout,
        "seed_hash": table.seed_hash,
        "seed": table.seed,
        "created_at": table.created_at,
        "updated_at": table.updated_at,
        "game": game.view(table.game, viewer, reveal) if table.game is not None else None,
        "legal_actions": legal,
        "outcome": table.outcome,
        "server_time": now,
    }
