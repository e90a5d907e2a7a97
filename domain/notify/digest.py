"""One round of the notifier for one player: which of their stream's new entries go out, by
which channel, and when to look again (pure; `workers.notify` reads and sends).

Each channel keeps its own place in the player's stream (`NotifyState`): Web Push sends
each wanted entry at once; e-mail gathers the wanted entries since its last message and
sends them in one, at once (`digest_hours` 0) or once the window since the last e-mail
has passed (then the e-mail also lists every game where it is the player's turn, read
when it is written). Nothing goes out during quiet hours: the round ends there and the
player is looked at again when they end, with everything that waited. An entry about a
game the player is watching (an event stream open on it, or their own stream open) or
moved in within `RECENT_MOVE_S` is not sent (it is passed over, not kept for later).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from domain.notify.prefs import Preferences, quiet_until
from domain.players.notes import entry_order as order

RECENT_MOVE_S = 300.0


class NotifyState(msgspec.Struct, frozen=True, kw_only=True):
    """Where each channel is in the player's stream, and when the last e-mail went."""

    push_after: str = "0-0"
    email_after: str = "0-0"
    email_at: float = 0.0
    email_failures: int = 0  # in a row: the next attempt waits longer
    # Each player-level webhook's place in the stream, and its failed attempts in a row.
    hooks: dict[str, str] = {}
    hook_failures: dict[str, int] = {}


class Round(msgspec.Struct, frozen=True, kw_only=True):
    push: list[dict[str, Any]]  # entries to push, one push each
    email: list[dict[str, Any]] | None  # the entries of the one e-mail to send (None: none)
    state: NotifyState  # once what this round sends is sent
    next_look: float | None  # when to look again although nothing new came (None: never)


def plan_round(prefs: Preferences, state: NotifyState, entries: Sequence[dict[str, Any]],
               now: float, skip: Callable[[dict[str, Any]], bool], email_ready: bool,
               push_ready: bool) -> Round:
    """`entries`: the stream's entries after the earlier of the two places, as shown
    (with their `id`); `skip(entry)`: the player is at that table; `email_ready`: a
    confirmed address and a mail server; `push_ready`: at least one subscription."""
    last = entries[-1]["id"] if entries else None
    wants_push = "push" in prefs.channels and push_ready
    wants_email = "email" in prefs.channels and email_ready
    if last is None:
        return Round(push=[], email=None, state=state, next_look=None)
    quiet = quiet_until(prefs, now)
    if quiet is not None and (wants_push or wants_email):
        return Round(push=[], email=None, state=state, next_look=quiet)

    def wanted(after: str) -> list[dict[str, Any]]:
        return [e for e in entries if order(e["id"]) > order(after)
                and prefs.wants(e["type"]) and not skip(e)]

    push = wanted(state.push_after) if wants_push else []
    new = msgspec.structs.replace(state, push_after=last)
    email: list[dict[str, Any]] | None = None
    next_look: float | None = None
    pending = wanted(state.email_after) if wants_email else []
    if not pending:
        new = msgspec.structs.replace(new, email_after=last)
    else:
        opens = state.email_at + prefs.digest_hours * 3600.0
        if prefs.digest_hours == 0 or now >= opens:
            email = pending
            new = msgspec.structs.replace(new, email_after=last, email_at=now)
        else:
            next_look = opens  # the window is not over: these wait for it
    return Round(push=push, email=email, state=new, next_look=next_look)


def earliest(state: NotifyState) -> str:
    """Where the next round starts reading: the place of the channel furthest behind."""
    return min(state.push_after, state.email_after, *state.hooks.values(), key=order)


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(NotifyState)


def encode_state(state: NotifyState) -> bytes:
    return _encoder.encode(state)


def decode_state(raw: bytes) -> NotifyState:
    return _decoder.decode(raw)
