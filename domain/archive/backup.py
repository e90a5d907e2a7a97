"""Backups: everything a store holds that the service needs to go on, in one file, and
loaded back into any store.

The file (format `donkeypost-backup` version 2, `docs/archive.md`) is NDJSON, one JSON
object a line:

    {"format": "donkeypost-backup", "version": 2, "written_at": <time>, "since": <time|null>}
    {"id": …, "record": "<base64>", "others": {<key>: <typed value>, …}}
    {"id": …, "type": …, "status": …, "created_at": …, "free_seat": …, "game": {
        "events": [<event>, …], "snapshot": "<base64>", "checkpoints": {"<seq>": "<base64>"},
        "tokens": {"<sha256>": <seat>}, "seed": …, "creator": …}, "others": {…}}
    …
    {"player": <player id>, "keys": {<key>: <typed value>, …}}
    …
    {"service": <key>, "value": <typed value>}
    …
    {"end": true, "games": <count>, "players": <count>, "service": <count>}

An archived game is its archive record as stored; any other game is everything the
store keeps of it (`StoredGame`); each with its other keys (`others`: its chat, webhook
registrations, analysis). A player is their keys: their record (name, key hash), inboxes,
ratings and rating changes, stream, notification settings and subscriptions, webhooks,
clock settings. The service's keys: the players' names, the leaderboards and the bots'
standings, the games awaiting their rating, the e-mail links' secret and the Web Push key
pair, the audit stream (`domain.store.redis_backup`: the typed values, and what is left
out). `--since` keeps the games changed since then; players and the service's keys are
always written whole.

A game is written whole or not at all (its keys are read in one round trip), and the last
line says the file is complete: a file cut short is refused. Loading writes each game,
with its other keys, in one atomic step, only if the store does not hold it (`put_game`,
`put_archived`); each player likewise, only if the store has no such player; the
service's keys are merged (what the store lacks is added, nothing is changed). Loading a
file twice, or into a store that has moved on, duplicates nothing and overwrites nothing.
Each game is listed again (`index`) and a game over but not archived is noted as due for
its archive; an archived game, which the load expands to check its record, gets its copy
for reads from that expansion, kept as the archiving keeps it (`ReadCopies`). Version 1
files (games only) are read as well.

What a backup does not hold: what happened after it was written (moves, joins, chat,
ratings, new players), idempotency records (a day's), stream tickets, webhook deliveries,
the queues and timers (the workers rebuild those from the games when they start). A
player erased after the backup comes back with a restore: erase them again (the audit
stream in the restored store lists the erasures up to the backup; those after it are in
the store that was lost, or in the operators' own records).
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
from domain.store.port import ArchiveStore, Inventory, KeyBackup, StoredGame
from domain.table import OVER, STATUSES, Table, decode_envelope, evolve_envelope

FORMAT, VERSION = "donkeypost-backup", 2
READ_VERSIONS = (1, 2)
Progress = Callable[[int, int], None]  # (games done, games in all)


class BackupError(ValueError):
    """A file that is not a complete backup this code can read."""


@dataclass
class Written:
    games: int = 0
    players: int = 0
    service: int = 0  # the service's keys


@dataclass
class Loaded:
    games: int = 0  # written into the store
    present: int = 0  # held by the store already: left as they were
    players: int = 0
    players_present: int = 0
    service_added: int = 0  # the service's fields, members, entries added
    names_taken: int = 0  # players whose name another player holds in this store


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
           progress: Progress | None = None, keyed: KeyBackup | None = None) -> Written:
    """Write every game (changed at or after `since`, if given), then (with `keyed`) every
    player and the service's keys, to `out`; how many of each."""
    ids = game_ids(reading)
    found = keyed.inventory() if keyed is not None else Inventory()
    out.write(msgspec.json.encode({"format": FORMAT, "version": VERSION,
                                   "written_at": time.time(), "since": since}) + b"\n")
    written = Written()
    for n, game_id in enumerate(ids, 1):
        line = _game_line(reading, game_id, since)
        if line is not None:
            others = found.games.get(game_id)
            if others and keyed is not None:
                line["others"] = keyed.dump(others)
            out.write(msgspec.json.encode(line) + b"\n")
            written.games += 1
        if progress is not None:
            progress(n, len(ids))
    for player_id, names in sorted(found.players.items()):
        assert keyed is not None
        values = keyed.dump(names)
        if values:
            out.write(msgspec.json.encode({"player": player_id, "keys": values}) + b"\n")
            written.players += 1
    if keyed is not None:
        for name, value in keyed.dump(found.service).items():
            out.write(msgspec.json.encode({"service": name, "value": value}) + b"\n")
            written.service += 1
    out.write(msgspec.json.encode({"end": True, "games": written.games,
                                   "players": written.players,
                                   "service": written.service}) + b"\n")
    return written


def _game_line(reading: ArchivedGames, game_id: str,
               since: float | None) -> dict[str, Any] | None:
    record = reading.archives.archived(game_id)
    if record is not None:
        decoded = decode_record(record)
        if since is not None and (max(decoded.times, default=0.0) < since):
            return None
        return {"id": game_id, "record": _b64(record)}
    stored = reading.archives.stored_game(game_id)
    if stored is None or stored.snapshot is None:
        return None  # deleted meanwhile
    table = latest_envelope(stored)
    if since is not None and table.updated_at < since:
        return None
    return {**_listing(table), "free_seat": table.has_free_seat(), "game": _game(stored)}


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
    """The lines of a backup (games, players, the service's keys), checked to be complete
    (BackupError otherwise)."""
    header_seen = end_seen = False
    counts = {"games": 0, "players": 0, "service": 0}
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
            if line.get("version") not in READ_VERSIONS:
                raise BackupError(f"backup format version {line.get('version')} is not "
                                  f"known here (this code reads "
                                  f"{', '.join(map(str, READ_VERSIONS))})")
            header_seen = True
            continue
        if end_seen:
            raise BackupError("lines after the backup's end")
        if line.get("end"):
            for kind, count in counts.items():
                if line.get(kind, 0) != count:
                    raise BackupError(f"the backup says {line.get(kind)} {kind}, it holds "
                                      f"{count}")
            end_seen = True
            continue
        counts["players" if "player" in line else "service" if "service" in line
               else "games"] += 1
        yield line
    if not end_seen:
        raise BackupError("the backup ends early (its last line is missing): not loaded "
                          "past this point")


def load(reading: ArchivedGames, lines: Iterable[bytes], games: Games,
         progress: Progress | None = None, keyed: KeyBackup | None = None) -> Loaded:
    """Write what the store does not hold of a backup (see the module). Without `keyed`
    (a store that keeps no keys of its own) players and the service's keys are skipped."""
    archives: ArchiveStore = reading.archives
    done = Loaded()
    for n, line in enumerate(read_lines(lines), 1):
        if "player" in line or "service" in line:
            if keyed is not None:
                _load_keys(keyed, line, done)
            continue
        game_id = line["id"]
        others = line.get("others") or None
        if "record" in line:
            record = _unb64(line["record"])
            archived = expand_record(record, games)  # (a record that does not expand is
            table = archived.expansion.table         # refused here, before it is kept)
            written = archives.put_archived(game_id, record, others)
            if written:  # (its copy for reads, as the archiving keeps it: from this expansion)
                archived.keep_copy(archives, game_id, games, reading.copies)
        else:
            stored = _stored(line["game"])
            table = latest_envelope(stored)
            written = archives.put_game(game_id, stored, others)
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


def _load_keys(keyed: KeyBackup, line: dict[str, Any], done: Loaded) -> None:
    if "player" in line:
        if keyed.put_player(line["player"], line["keys"]):
            done.players += 1
        else:
            done.players_present += 1
    else:
        merged = keyed.merge_service({line["service"]: line["value"]})
        done.service_added += merged.added
        done.names_taken += merged.names_taken


def _stored(game: dict[str, Any]) -> StoredGame:
    return StoredGame(
        events=_events.decode(msgspec.json.encode(game["events"])),
        snapshot=_unb64(game["snapshot"]) or None,
        checkpoints={int(seq): _unb64(raw) for seq, raw in game["checkpoints"].items()},
        tokens={str(k): int(v) for k, v in game["tokens"].items()},
        seed=game.get("seed"), creator=game.get("creator"))
