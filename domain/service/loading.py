"""Loading a game's latest table: one read of the store at most, none when remembered.

The store gives the last snapshot and the log's tail (the snapshot is written every
`SNAPSHOT_EVERY` events, see `domain.store.port`): the events after the snapshot, fewer
than SNAPSHOT_EVERY, are folded into it. The token's seat and the seed come in the same
read, unless this process remembers them (`process_memory`). A player key (`pk.…`) costs one
read more, of the player's record (the key may have been rotated since): its seat is the
one the table says the player holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from domain.errors import UnknownGame
from domain.events import Event
from domain.players.credentials import is_player_key
from domain.registry import GameRegistry
from domain.service.deps import Deps
from domain.service.players import authenticate
from domain.service.tokens import hash_token
from domain.store.port import EventLog, GameLog, Stored
from domain.table import (
    Table,
    UndoNotKept,
    decode_envelope,
    decode_table,
    evolve_envelope,
    evolve_table,
    with_before,
)


@dataclass(frozen=True)
class Loaded:
    """A table as read for an action: with the seat the caller's token names (if any) and
    the game's seed, so that an action needs no other read before its append. `cached`:
    the table was remembered at the version the caller named, not read just now."""

    table: Table
    seat: int | None
    seed: str
    cached: bool = False


def load(deps: Deps, game_id: str, token: str | None = None) -> tuple[Table, int | None]:
    """The table at its latest version, and the seat the token belongs to (if any): a
    seat token's, or the seat a player key's player holds (None if none here)."""
    if token is not None and is_player_key(token):
        player = authenticate(deps, token)
        table, _, _ = read_latest(deps, game_id, None, with_seed=False)
        return table, table.seat_of(player.id)
    token_hash = hash_token(token) if token is not None else None
    table, seat, _ = read_latest(deps, game_id, token_hash, with_seed=False)
    return table, seat


def load_to_act(deps: Deps, game_id: str, token: str | None = None,
                version: int | None = None) -> Loaded:
    """What an action needs before its append, in one round trip at most: none when the
    caller names a `version` (If-Match) whose table this process remembers."""
    if token is not None and is_player_key(token):
        player = authenticate(deps, token)
        found = load_to_act(deps, game_id, None, version)
        return Loaded(found.table, found.table.seat_of(player.id), found.seed, found.cached)
    token_hash = hash_token(token) if token is not None else None
    remembered = deps.remembered
    if version is not None:
        table = remembered.tables.get((game_id, version))
        seed = remembered.seeds.get(game_id)
        seat = remembered.seats.get((game_id, token_hash)) if token_hash is not None else None
        if table is not None and seed is not None and (token_hash is None or
                                                      seat is not None):
            return Loaded(table, seat, seed, cached=True)
    table, seat, seed = read_latest(deps, game_id, token_hash, with_seed=True)
    assert seed is not None
    return Loaded(table, seat, seed)


def read_latest(deps: Deps, game_id: str, token_hash: str | None,
                with_seed: bool) -> tuple[Table, int | None, str | None]:
    """The latest table, read from the store with what this process does not remember.
    When it remembers the game at some version, only the events since are read and
    folded into that table (usually none: the process made or read the last move)."""
    remembered = deps.remembered
    seat = remembered.seats.get((game_id, token_hash)) if token_hash is not None else None
    seed = remembered.seeds.get(game_id) if with_seed else None
    ask_token = token_hash if seat is None else None
    ask_seed = with_seed and seed is None
    table: Table | None = None
    base = remembered.newest_table(game_id)
    if base is not None:
        newer, read_seat, read_seed = deps.store.read_after(game_id, base.version, ask_token,
                                                            ask_seed)
        if newer is not None:
            table = fold_events(deps.store, deps.games, base, newer)
    if table is None:
        stored, read_seat, read_seed = deps.store.read_table(game_id, ask_token, ask_seed)
        if stored is None:
            raise UnknownGame(f"no game {game_id!r}")
        table = stored_table(deps.store, deps.games, game_id, stored)
    if ask_seed and read_seed is None:
        raise UnknownGame(f"no game {game_id!r}")
    if read_seat is not None and token_hash is not None:
        seat = read_seat
        remembered.seats.put((game_id, token_hash), seat)
    if read_seed is not None:
        seed = read_seed
        remembered.seeds.put(game_id, seed)
    remembered.remember(table)
    return table, seat, seed


def stored_envelope(log: EventLog, game_id: str, stored: Stored) -> Table:
    """The table without its game state, the stored tail's events applied to it as far as
    they concern the table itself (`evolve_envelope`: its `waiting_since` is the
    snapshot's). Cheap: for listings that show seats, status, version and result."""
    table = decode_envelope(stored.snapshot)
    for ev in _newer(log, game_id, stored, table.version):
        table = evolve_envelope(table, ev)
    return table


def stored_table(log: GameLog, games: GameRegistry, game_id: str,
                 stored: Stored) -> Table:
    """The table a stored snapshot and tail make: the snapshot with the tail's events after
    it folded in."""
    table = decode_table(stored.snapshot, games)
    return fold_events(log, games, table, _newer(log, game_id, stored, table.version))


def fold_events(log: GameLog, games: GameRegistry, table: Table | None,
                events: Sequence[Event]) -> Table:
    """`table` with `events` (those right after its version, in order; None: from the
    log's first) folded in. A take-back met on a table read from a snapshot, which does
    not keep the table before the action, has it folded again from `log` first."""
    game = games.game(table.type) if table is not None else None
    for ev in events:
        if game is None:
            game = games.game(ev.data["type"])
        try:
            table = evolve_table(table, ev, game)
        except UndoNotKept:
            assert table is not None
            table = evolve_table(kept_undo(log, games, table), ev, game)
    assert table is not None
    return table


def kept_undo(log: GameLog, games: GameRegistry, table: Table) -> Table:
    """`table` with its take-back's table before the action (`Table.undo`), folded again
    from the log when it was read from a snapshot (which does not keep it)."""
    undo = table.undo
    if undo is None or undo.before is not None:
        return table
    return with_before(table, fold_log(log, games, table.id, until=undo.first - 1))


def fold_log(log: GameLog, games: GameRegistry, game_id: str,
             until: int | None = None) -> Table:
    """The table folded from the log: from its first event, or with `until` from the
    replay checkpoint at or before it (its take-back, if any, as a snapshot keeps it:
    `kept_undo`)."""
    start: Table | None = None
    after = 0
    if until is not None:
        ckpt = log.checkpoint_at_or_before(game_id, until)
        if ckpt is not None:
            after, raw = ckpt
            start = decode_table(raw, games)
    events = log.read(game_id, after=after, until=until)
    if start is None and not events:
        raise UnknownGame(f"no game {game_id!r}")
    return fold_events(log, games, start, events)


def _newer(log: EventLog, game_id: str, stored: Stored, version: int) -> list[Event]:
    """The events after `version`: the stored tail's, or the log's when the tail does not
    reach back to it (a snapshot written less often than the tail is long: not expected)."""
    newer = [e for e in stored.tail if e.seq > version]
    if newer and newer[0].seq != version + 1:
        return log.read(game_id, after=version)
    return newer
