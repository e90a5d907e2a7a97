"""Checking an exported log: the hash chain, the seed commitment, and that it replays."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain import registry
from domain.events import Event, verify_chain
from domain.rng import commitment
from domain.table import Table, evolve_table


def verify_log(lines: Sequence[bytes]) -> list[str]:
    """Problems found in an NDJSON log (empty when it checks out)."""
    try:
        events = [_event(msgspec.json.decode(line)) for line in lines if line.strip()]
    except (msgspec.DecodeError, msgspec.ValidationError, KeyError) as err:
        return [f"not a donkeypost log: {err}"]
    if not events or events[0].type != "game_created":
        return ["the log does not start with game_created"]
    problems: list[str] = []
    broken = verify_chain(events)
    if broken is not None:
        problems.append(f"hash chain broken at event {broken} (private parts missing, or the "
                        "log was altered; complete logs are exported after the end)")
    finished = [e for e in events if e.type == "game_finished"]
    if finished and commitment(finished[-1].data["seed"]) != events[0].data["seed_hash"]:
        problems.append("the revealed seed does not match the commitment made at creation")
    try:
        game = registry.get_game(events[0].data["type"])
        table: Table | None = None
        for ev in events:
            table = evolve_table(table, ev, game)
    except Exception as err:  # a replay failure of any kind is what we report
        problems.append(f"the log does not replay: {type(err).__name__}: {err}")
    return problems


def _event(raw: dict[str, Any]) -> Event:
    private = {int(seat): part for seat, part in (raw.get("private") or {}).items()}
    return Event(type=raw["type"], data=raw.get("data") or {}, private=private,
                 actor=raw.get("actor"), seq=raw["seq"], at=raw["at"], hash=raw["hash"])
