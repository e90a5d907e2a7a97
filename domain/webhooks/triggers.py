"""Which notifications an append causes for one registration, and what they say.

- `your_turn`: a seat became one to act in this append, and not through its own move (a
  seat that plays and must play again — it won the trick and leads, or a chained choice —
  already knows from its own answer). A seat auto-played after a timeout did not move
  itself, so it is told; a seat whose player resigned or left is not (a bot plays it).
  A seat's registration hears about its own seat; the creator's game-wide one about
  every seat.
- `game_finished`: the append holds the game's `game_finished` event.
- `events`: every new event, through `domain.redaction.redact` for the registration's
  viewer (its seat, or a spectator for the creator's), in full once the game is over —
  exactly what the log shows that viewer.

- `messages`: every new entry of the table's chat (a message, or the creator hiding one),
  as `GET /games/{id}/messages` shows it. A message's text is not kept with the delivery:
  it is put in when the delivery is sent (`with_texts`), so a message hidden meanwhile is
  sent without it, and no delivery record shows it again.

The body of a delivery is `{id, type, game, hook, seat, version, status, data}`; `data` is
`{"seats": [{"seat", "deadline"}]}`, `{"outcome", "seed"}`, `{"events": [...]}` or
`{"messages": [...]}`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from domain.chat import MESSAGE, ChatEntry, shown
from domain.events import Event
from domain.redaction import redact
from domain.table import Table
from domain.webhooks.registration import Registration


class Notification(msgspec.Struct, frozen=True):
    kind: str
    data: dict[str, Any]


def newly_to_act(table: Table, new_events: Sequence[Event]) -> list[int]:
    """Seats that started waiting during this append, not because of their own move."""
    if table.status != "active" or not new_events:
        return []
    since = new_events[0].at
    moved = {e.actor for e in new_events if e.actor is not None and not e.data.get("auto")}
    return sorted(seat for seat, waiting_from in table.waiting_since.items()
                  if waiting_from >= since and seat not in moved)


def notifications_for(reg: Registration, table: Table,
                      new_events: Sequence[Event]) -> list[Notification]:
    """What `reg` is told about an append that left the game as `table`."""
    out: list[Notification] = []
    if "your_turn" in reg.notify:
        # A seat's own registration is not told when a bot plays the seat for its player
        # (they resigned or left); the creator's game-wide one hears of every seat.
        seats = [s for s in newly_to_act(table, new_events)
                 if reg.seat is None or (reg.seat == s and table.seats[s].in_play)]
        if seats:
            out.append(Notification("your_turn", {"seats": [
                {"seat": s, "deadline": table.deadline(s)} for s in seats]}))
    if "game_finished" in reg.notify and any(e.type == "game_finished" for e in new_events):
        out.append(Notification("game_finished", {"outcome": table.outcome,
                                                  "seed": table.seed}))
    if "events" in reg.notify and new_events:
        reveal = table.status == "finished"
        out.append(Notification("events", {"events": [redact(e, reg.seat, reveal)
                                                      for e in new_events]}))
    return out


def chat_notifications(reg: Registration,
                       entries: Sequence[ChatEntry]) -> list[Notification]:
    """What `reg` is told about new chat entries (each message without its text, until
    sent)."""
    if "messages" not in reg.notify or not entries:
        return []
    shown_ = [{k: v for k, v in shown(e).items() if k != "text"} for e in entries]
    return [Notification("messages", {"messages": shown_})]


def with_texts(body: bytes, text_of: Callable[[int], str | None]) -> bytes:
    """A `messages` delivery's body with each message's text as it is now (`text_of(n)`:
    None once hidden)."""
    data = msgspec.json.decode(body)
    for entry in data["data"]["messages"]:
        if entry["type"] == MESSAGE:
            entry["text"] = text_of(entry["n"])
            entry["hidden"] = entry["text"] is None
    return msgspec.json.encode(data)


def delivery_body(delivery_id: str, reg: Registration, table: Table,
                  note: Notification) -> bytes:
    return msgspec.json.encode({
        "id": delivery_id, "type": note.kind, "game": table.id, "hook": reg.id,
        "seat": reg.seat, "version": table.version, "status": table.status,
        "data": note.data,
    })
