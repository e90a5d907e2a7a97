"""Checking an exported log: the hash chain, the seed, every private part, and the replay.

A log exported during the game (redacted for its viewer) can be checked as far as its
viewer can: the hash chain, which covers private parts through their commitments only.
The log of a finished game is complete: its `game_finished` reveals the seed, which must
match the `seed_hash` committed at creation; the seed gives the commitment key
(`domain.commitments`), and every private part must match its commitment; and the log must
replay.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.commitments import commitment_key, mismatches
from domain.events import Event, name_erased, verify_chain
from domain.registry import GameRegistry
from domain.rng import commitment
from domain.table import Table, evolve_table


@dataclass
class LogCheck:
    """What was wrong (`problems`: empty when the log checks out) and what was checked."""

    problems: list[str] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)


def verify_log(lines: Sequence[bytes], games: GameRegistry) -> list[str]:
    """Problems found in an NDJSON log of one of `games` (empty when it checks out)."""
    return check_log(lines, games).problems


def check_log(lines: Sequence[bytes], games: GameRegistry) -> LogCheck:
    """What an NDJSON log shows, checked (its replay needs its game among `games`)."""
    report = LogCheck()
    try:
        events = [_event(msgspec.json.decode(line)) for line in lines if line.strip()]
    except (msgspec.DecodeError, msgspec.ValidationError, KeyError, TypeError,
            ValueError) as err:
        report.problems.append(f"not a donkeypost log: {err}")
        return report
    if not events or events[0].type != "game_created":
        report.problems.append("the log does not start with game_created")
        return report
    broken = verify_chain(events)
    if broken is not None:
        report.problems.append(f"hash chain broken at event {broken}: the log was altered")
    else:
        report.checked.append(f"the hash chain over {len(events)} events")
        erased = [e.seq for e in events if name_erased(e)]
        if erased:
            report.checked.append(
                f"events {', '.join(map(str, erased))}: a player's name erased at their "
                "request; each event's recorded hash is taken as the chain's link")
    finished = [e for e in events if e.type == "game_finished"]
    withheld = sum(len(set(e.commitments) - set(e.private)) for e in events)
    if not finished:
        report.checked.append(
            f"{withheld} private parts withheld and the others' commitments are checked once "
            "the game is over (its seed is their key); the replay needs the complete log")
        return report
    seed = finished[-1].data.get("seed")
    if not isinstance(seed, str) or commitment(seed) != events[0].data.get("seed_hash"):
        report.problems.append("the revealed seed does not match the commitment made at "
                               "creation")
        return report
    report.checked.append("the revealed seed against its commitment")
    _check_private_parts(events, commitment_key(seed), report)
    if not report.problems:
        _check_replay(events, games, report)
    return report


def _check_private_parts(events: list[Event], key: bytes, report: LogCheck) -> None:
    parts = 0
    for ev in events:
        if not ev.commitments:
            continue  # no private parts (or written before commitments: in the chain)
        for seat in mismatches(key, ev.seq, ev.private, ev.commitments):
            what = "is missing" if seat not in ev.private else "does not match its commitment"
            report.problems.append(f"event {ev.seq}: the private part of "
                                   f"{_owner(seat)} {what}")
        parts += len(ev.commitments)
    if not report.problems:
        report.checked.append(f"{parts} private parts against their commitments")


def _check_replay(events: list[Event], games: GameRegistry, report: LogCheck) -> None:
    try:
        game = games.game(events[0].data["type"])
        table: Table | None = None
        for ev in events:
            table = evolve_table(table, ev, game)
    except Exception as err:  # a replay failure of any kind is what we report
        report.problems.append(f"the log does not replay: {type(err).__name__}: {err}")
        return
    report.checked.append("the replay of every event")


def _owner(seat: int) -> str:
    return f"seat {seat}" if seat >= 0 else "the hidden part (no seat's)"


def _event(raw: dict[str, Any]) -> Event:
    private = {int(seat): part for seat, part in (raw.get("private") or {}).items()}
    committed = {int(seat): c for seat, c in (raw.get("commitments") or {}).items()}
    return Event(type=raw["type"], data=raw.get("data") or {}, private=private,
                 commitments=committed, actor=raw.get("actor"), seq=raw["seq"], at=raw["at"],
                 hash=raw["hash"])
