"""Archiving one game that is over: read it, make its record, prove it, replace the game.

`archive_game` is what the workers' archive job runs (and `donkeypost archive`). It reads
everything the record will replace in one round trip, makes the record and expands it
again (`explain.archive`: the log, the final table and the checkpoints must come back
byte for byte), then swaps the game's keys for the record in one atomic step that checks
the log is still at the version read. Whatever stops it (a crash, a kill, Redis going
away) leaves the game whole or archived: the only write is that one step. Running it
twice, or on two workers at once, archives the game once.

Once the game is archived, the copy of what reads of its table need besides the record
(`reading.copy_of`, the key a reader's expansion writes too) is kept beside it as
`copies` says (`reading.ReadCopies`): a day by default, the day after a game ends being
when it is read most, and as long as the record for a long game, whose expansion a first
read could not afford; its first read after a restart then costs about what a live
game's does instead of an expansion. A crash before that write loses only the copy (the
first reader expands and writes it).

A game whose record does not expand exactly is kept whole and noted as refused, with the
reason (`donkeypost archive --refused` lists them).
"""

from __future__ import annotations

import logging
from typing import Literal

from domain.archive.explain import NotArchivable, archive
from domain.archive.reading import DEFAULT_COPIES, Archived, ReadCopies
from domain.archive.record import decode as decode_record
from domain.archive.replay import Games
from domain.store.port import ArchiveStore
from domain.table import OVER, decode_envelope, evolve_envelope

log = logging.getLogger(__name__)

Outcome = Literal["archived", "already", "unknown", "not_over", "moved", "refused"]


def archive_game(archives: ArchiveStore, games: Games, game_id: str,
                 copies: ReadCopies = DEFAULT_COPIES) -> Outcome:
    """Archive the game if it is over, with the copy its reads need for as long as
    `copies` says; what happened."""
    if archives.archived(game_id) is not None:
        archives.archive_done(game_id)
        return "already"
    stored = archives.stored_game(game_id)
    if stored is None or stored.snapshot is None:
        archives.archive_done(game_id)
        return "unknown"
    table = decode_envelope(stored.snapshot)
    for ev in stored.events[table.version:]:  # (an aborted game's snapshot is behind)
        table = evolve_envelope(table, ev)
    if table.status not in OVER or table.version != len(stored.events):
        archives.archive_done(game_id)
        return "not_over"
    try:
        data, expansion = archive(stored, games)
    except NotArchivable as err:
        log.warning("game %s is kept whole: its archive would not expand exactly (%s)",
                    game_id, err)
        archives.archive_done(game_id, refused=str(err))
        return "refused"
    if not archives.replace_with_archive(game_id, table.version, data):
        return "moved"  # appended to meanwhile (a rematch's link): archived next time
    Archived.of(decode_record(data), data, expansion, games).keep_copy(
        archives, game_id, games, copies)
    archives.archive_done(game_id)
    return "archived"
