"""Redaction: the one function that decides what a viewer may see of an event.

A seat sees the public data and its own private part; a spectator sees the public data;
once the game is over everyone sees everything. Everyone receives the commitments to every
private part (they hide what they commit to), so every viewer can check the hash chain over
what it sees (`domain.events.verify_chain`). Every endpoint, stream, webhook and bot
receives events through this function and nothing else.
"""

from __future__ import annotations

from typing import Any

from domain.events import Event

SPECTATOR = None


def redact(ev: Event, viewer: int | None, reveal_all: bool = False) -> dict[str, Any]:
    """The event as `viewer` (a seat number, or None for a spectator) may see it."""
    out: dict[str, Any] = {
        "seq": ev.seq,
        "type": ev.type,
        "actor": ev.actor,
        "at": ev.at,
        "data": ev.data,
        "commitments": {str(seat): c for seat, c in ev.commitments.items()},
        "hash": ev.hash,
    }
    if reveal_all:
        out["private"] = {str(seat): part for seat, part in ev.private.items()}
    elif viewer is not None and viewer in ev.private:
        out["private"] = {str(viewer): ev.private[viewer]}
    else:
        out["private"] = {}
    return out
