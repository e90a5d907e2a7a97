"""What a player is told: the entries of their own event stream, one for each change they
care about in any game where they hold (or are invited to) a seat.

- `my_turn` — their seat started waiting for them, not because of their own move (the
  seats of `domain.webhooks.triggers.newly_to_act`; not a seat a bot plays for them);
  with the game's version and their deadline;
- `deadline_soon` — 80 % of their time to move has gone (the notifier's timer, see
  `workers.notify`);
- `invited` — a seat of a new game (or a rematch) is kept for them;
- `game_started` — every seat of a game they sit at is taken;
- `game_finished` — the game they played ended: their place, their score and what it did
  to their rating (told by the rating job, once the rating is applied);
- `message` — somebody else wrote in the table's chat (without its text: a message may be
  hidden later; read it from the chat);
- `seat_taken_over` — their deadline passed and a bot played for them.

An entry is `{type, at, game, game_type, data}`; the stream gives it an id. Pure: the
service writes the entries with the inbox's own round trip after an append.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.chat import MESSAGE, ChatEntry
from domain.events import Event
from domain.players.inbox import waits_for
from domain.table import Table
from domain.webhooks.triggers import newly_to_act

KINDS = ("my_turn", "deadline_soon", "invited", "game_started", "game_finished", "message",
         "seat_taken_over")
# The share of the time to move after which `deadline_soon` is told.
SOON_AT = 0.8


class PlayerNote(msgspec.Struct, frozen=True, kw_only=True):
    """One entry of a player's stream, before the stream numbers it."""

    player: str
    type: str
    at: float
    game: str
    game_type: str
    data: dict[str, Any] = {}

    def entry(self) -> dict[str, Any]:
        """As kept in the stream (and shown, with its `id`)."""
        return {"type": self.type, "at": self.at, "game": self.game,
                "game_type": self.game_type, "data": self.data}


class PlayerEntry(msgspec.Struct, frozen=True):
    """An entry as read back: the stream's id (`<ms>-<n>`) and what the note said."""

    id: str
    body: bytes  # the JSON of `PlayerNote.entry()`

    def shown(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, **msgspec.json.decode(self.body)}
        return out


def entry_order(entry_id: str) -> tuple[int, int]:
    """An entry id's place in its stream (`<ms>-<n>`, as Redis numbers stream entries)."""
    ms, _, n = entry_id.partition("-")
    return int(ms), int(n or 0)


def encode_note(note: PlayerNote) -> bytes:
    return msgspec.json.encode(note.entry())


def after_append(before: Table | None, after: Table, events: Sequence[Event]) -> list[PlayerNote]:
    """The notes an append from `before` (None: the game was created) to `after` causes."""
    if not events or not (after.player_ids() or (before and before.player_ids())):
        return []
    at = events[-1].at
    notes: list[PlayerNote] = []

    def note(player: str | None, kind: str, **data: Any) -> None:
        if player is not None:
            notes.append(PlayerNote(player=player, type=kind, at=at, game=after.id,
                                    game_type=after.type, data=data))

    kinds = {e.type for e in events}
    for seat, info in enumerate(after.seats):
        was = before.seats[seat].invited if before is not None else None
        if info.invited is not None and not info.taken and info.invited != was:
            note(info.invited, "invited", seat=seat, by=after.created_by,
                 rematch_of=after.rematch_of)
    if "game_started" in kinds:
        for seat, info in enumerate(after.seats):
            note(info.player, "game_started", seat=seat, version=after.version)
    for e in events:
        if e.type == "turn_timed_out":
            seat = e.data["seat"]
            note(after.seats[seat].player, "seat_taken_over", seat=seat,
                 version=after.version, away=after.is_away(seat))
    for seat in newly_to_act(after, events):
        if waits_for(after, seat):
            note(after.seats[seat].player, "my_turn", seat=seat, version=after.version,
                 deadline=after.deadline(seat))
    return notes


def movers(after: Table, events: Sequence[Event]) -> list[tuple[str, str, float]]:
    """(player, game, when) for each player who moved in these events themselves (not a
    bot for them): the notifier leaves alone a player who has just played there."""
    seen: dict[str, float] = {}
    for e in events:
        if e.actor is not None and not e.data.get("auto") and e.type != "turn_timed_out":
            player = after.seats[e.actor].player
            if player is not None:
                seen[player] = e.at
    return [(player, after.id, at) for player, at in seen.items()]


def deadline_soon(table: Table, seat: int, at: float) -> PlayerNote | None:
    """The warning that seat `seat`'s deadline comes soon, if a player still waits there."""
    player = table.seats[seat].player
    deadline = table.deadline(seat)
    if player is None or deadline is None or table.status != "active" or \
            not waits_for(table, seat):
        return None
    return PlayerNote(player=player, type="deadline_soon", at=at, game=table.id,
                      game_type=table.type,
                      data={"seat": seat, "version": table.version, "deadline": deadline})


def soon_due(table: Table, seat: int, deadline: float) -> float | None:
    """When seat `seat`, whose deadline is `deadline`, is warned: after SOON_AT of its
    time to move (whatever clock set the deadline; a correspondence bank's from when it
    started running, so never during the vacation that stopped it)."""
    since = table.clock_started(seat)
    if since is None or deadline <= since:
        return None
    return since + SOON_AT * (deadline - since)


def chat_notes(table: Table, entries: Sequence[ChatEntry]) -> list[PlayerNote]:
    """Every player at the table but the writer hears of a new message."""
    notes: list[PlayerNote] = []
    for entry in entries:
        if entry.type != MESSAGE:
            continue
        for seat, info in enumerate(table.seats):
            if info.player is not None and info.player != entry.player and seat != entry.seat:
                notes.append(PlayerNote(player=info.player, type="message", at=entry.at,
                                        game=table.id, game_type=table.type,
                                        data={"n": entry.n, "seat": entry.seat,
                                              "name": entry.name}))
    return notes


def finished_note(table: Table, player: str, seat: int, rating: dict[str, Any] | None,
                  at: float) -> PlayerNote:
    """`game_finished` for the player of `seat`: place, score, rating change."""
    outcome = table.outcome or {}
    places, scores = outcome.get("places") or [], outcome.get("scores") or []
    return PlayerNote(player=player, type="game_finished", at=at, game=table.id,
                      game_type=table.type, data={
                          "seat": seat, "place": places[seat] if seat < len(places) else None,
                          "score": scores[seat] if seat < len(scores) else None,
                          "rating": rating})
