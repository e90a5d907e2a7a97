"""Backups: every game of a store written to one file, and loaded back into any store.

The file (format `donkeypost-backup` version 1, `docs/archive.md`) is NDJSON, one JSON
object a line:

    {"format": "donkeypost-backup", "version": 1, "written_at": <time>, "since": <time|null>}
    {"id": …, "record": "<base64>"}
    {"id": …, "type": …, "status": …, "created_at": …, "free_seat": …, "game": {
        "events": [<event>, …], "snapshot": "<base64>", "checkpoints": {"<seq>": "<base64>"},
        "tokens": {"<sha256>": <seat>}, "seed": …, "creator": …}}
    …
    {"end": true, "games": <count>}

An archived game is its archive record as stored; any other game is everything the
store keeps of it (`StoredGame`). A game is written whole or not at all (its keys are
read in one round trip), and the last line says the file is complete: a file cut short
is refused. Loading writes each game in one atomic step, only if the store does not hold
it (`put_game`, `put_archived`): loading a file twice, or into a store that has moved on,
duplicates nothing and overwrites nothing. Each game is listed again (`index`) and a
game over but not archived is noted as due for its archive.

What a backup does not hold: what happened after it was written (moves, joins, chat), the
players, their ratings and inboxes, the games' chat, webhook registrations and
deliveries, idempotency records (a day's), the queues and timers (the workers rebuild
those from the games when they start).
"""

from __future__ import annotations

import base64
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

import msgspec

from domain.archive.reading import ArchivedGames, expand_record
from domain.archive.record import decode as decode_record
from domain.archive.replay import Games
from domain.events import Event
from domain.store.port import ArchiveStore, StoredGame
from domain.table import OVER, STATUSES, Table, decode_envelope, evolve_envelope

FORMAT, VERSION = "donkeypost-backup", 1
Progress = Callable[[int, int], None]  # (games done, games in all)


class BackupError(ValueError):
    """A file that is not a complete backup this code can read."""


@dataclass
class Loaded:
    games: int = 0  # written into the store
    present: int = 0  # held by the store already: left as they were


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def _unb64(text: str) -> bytes:
    return base64.b64decode(text, validate=True)


def game_ids(reading: ArchivedGames) -> list[str]:
    """Every game the listings hold (each once)."""
    seen: dict[str, None] = {}
    for status in STATUSES:
        for game_id in reading.scan_ids(status):
            seen.setdefault(game_id, None)
    return list(seen)


def export(reading: ArchivedGames, out: IO[bytes], since: float | None = None,
           progress: Progress | None = None) -> int:
    """Write every game (changed at or after `since`, if given) to `out`; how many."""
    ids = game_ids(reading)
    out.write(msgspec.json.encode({"format": FORMAT, "version": VERSION,
                                   "written_at": time.time(), "since": since}) + b"\n")
    written = 0
    for n, game_id in enumerate(ids, 1):
        line = _game_line(reading, game_id, since)
        if line is not None:
            out.write(line + b"\n")
            written += 1
        if progress is not None:
            progress(n, len(ids))
    out.write(msgspec.json.encode({"end": True, "games": written}) + b"\n")
    return written


def _game_line(reading: ArchivedGames, game_id: str, since: float | None) -> bytes | None:
    record = reading.archives.archived(game_id)
    if record is not None:
        decoded = decode_record(record)
        if since is not None and (max(decoded.times, default=0.0) < since):
            return None
        return msgspec.json.encode({"id": game_id, "record": _b64(record)})
    stored = reading.archives.stored_game(game_id)
    if stored is None or stored.snapshot is None:
        return None  # deleted meanwhile
    table = latest_envelope(stored)
    if since is not None and table.updated_at < since:
        return None
    return msgspec.json.encode({**_listing(table), "free_seat": table.has_free_seat(),
                                "game": _game(stored)})


def latest_envelope(stored: StoredGame) -> Table:
    assert stored.snapshot is not None
    table = decode_envelope(stored.snapshot)
    for ev in stored.events[table.version:]:
        table = evolve_envelope(table, ev)
    return table


def _listing(table: Table) -> dict[str, Any]:
    return {"id": table.id, "type": table.type, "status": table.status,
            "created_at": table.created_at}


def _game(stored: StoredGame) -> dict[str, Any]:
    return {"events": stored.events, "snapshot": _b64(stored.snapshot or b""),
            "checkpoints": {str(seq): _b64(raw) for seq, raw in stored.checkpoints.items()},
            "tokens": stored.tokens, "seed": stored.seed, "creator": stored.creator}


_events = msgspec.json.Decoder(list[Event])


def read_lines(lines: Iterable[bytes]) -> Iterator[dict[str, Any]]:
    """The games of a backup, checked to be complete (BackupError otherwise)."""
    header_seen = end_seen = False
    count = 0
    for raw in lines:
        if not raw.strip():
            continue
        try:
            line = msgspec.json.decode(raw)
        except msgspec.DecodeError as err:
            raise BackupError(f"not a JSON line: {err}") from None
        if not header_seen:
            if line.get("format") != FORMAT:
                raise BackupError("not a donkeypost backup (its first line says so)")
            if line.get("version") != VERSION:
                raise BackupError(f"backup format version {line.get('version')} is not "
                                  f"known here (this code reads {VERSION})")
            header_seen = True
            continue
        if end_seen:
            raise BackupError("lines after the backup's end")
        if line.get("end"):
            if line.get("games") != count:
                raise BackupError(f"the backup says {line.get('games')} games, it holds "
                                  f"{count}")
            end_seen = True
            continue
        count += 1
        yield line
    if not end_seen:
        raise BackupError("the backup ends early (its last line is missing): not loaded "
                          "past this point")


def load(reading: ArchivedGames, lines: Iterable[bytes], games: Games,
         progress: Progress | None = None) -> Loaded:
    """Write the games of a backup the store does not hold (see the module)."""
    archives: ArchiveStore = reading.archives
    done = Loaded()
    for n, line in enumerate(read_lines(lines), 1):
        game_id = line["id"]
        if "record" in line:
            record = _unb64(line["record"])
            archived = expand_record(record, games)  # (a record that does not expand is
            table = archived.expansion.table         # refused here, before it is kept)
            written = archives.put_archived(game_id, record)
        else:
            stored = _stored(line["game"])
            table = latest_envelope(stored)
            written = archives.put_game(game_id, stored)
        if written:
            done.games += 1
            reading.index(game_id, table.type, table.status, table.created_at,
                          free_seat=bool(line.get("free_seat")))
            if table.status in OVER and "record" not in line:
                archives.archive_due(game_id, table.ended_at or table.updated_at)
        else:
            done.present += 1
        if progress is not None:
            progress(n, 0)
    return done


def _stored(game: dict[str, Any]) -> StoredGame:
    return StoredGame(
        events=_events.decode(msgspec.json.encode(game["events"])),
        snapshot=_unb64(game["snapshot"]) or None,
        checkpoints={int(seq): _unb64(raw) for seq, raw in game["checkpoints"].items()},
        tokens={str(k): int(v) for k, v in game["tokens"].items()},
        seed=game.get("seed"), creator=game.get("creator"))
