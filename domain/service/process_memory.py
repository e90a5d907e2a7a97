"""What one process remembers between requests: facts that never change once written.

(game, version) -> table, (game, token hash) -> seat, game -> seed; and per game the newest
version whose table is remembered, from which a later read needs only the events since.
Reading them again costs a round trip to the store; remembering them costs a few kilobytes each (see
`domain.lru`). A table at a version is only trusted for an action that names that version
(If-Match), whose append fails anyway if the game has moved on.

The player keys found valid (hash -> player id) are remembered too, but never trusted for
authentication (a key may be rotated any time, so every request reads the player's
record): only to tell that a key is not a guess (the rate limit of refused tokens).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.lru import Lru
from domain.table import Table

# Enough for the games a process's clients play now.
REMEMBERED_TABLES = 4096
REMEMBERED_TOKENS = 16384


@dataclass
class Remembered:
    tables: Lru[tuple[str, int], Table] = field(
        default_factory=lambda: Lru(REMEMBERED_TABLES))
    seats: Lru[tuple[str, str], int] = field(default_factory=lambda: Lru(REMEMBERED_TOKENS))
    seeds: Lru[str, str] = field(default_factory=lambda: Lru(REMEMBERED_TABLES))
    player_keys: Lru[str, str] = field(default_factory=lambda: Lru(REMEMBERED_TOKENS))
    newest: Lru[str, int] = field(default_factory=lambda: Lru(REMEMBERED_TABLES))

    def remember(self, table: Table) -> None:
        """Keep `table` at its version, and as the game's newest unless a later one is."""
        self.tables.put((table.id, table.version), table)
        known = self.newest.get(table.id)
        if known is None or table.version > known:
            self.newest.put(table.id, table.version)

    def newest_table(self, game_id: str) -> Table | None:
        """The remembered table of the game at the newest version remembered, if any."""
        version = self.newest.get(game_id)
        return self.tables.get((game_id, version)) if version is not None else None
