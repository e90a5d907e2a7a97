"""Encoding the game view, the answer to the most frequent request, without marshmallow;
and a player's inbox page, which must cost about as much as one view.

`GameViewSchema` still documents the view; `encode_game_view` writes the same JSON (the
schema's fields only, numbers as its Float fields make them) with msgspec. The schema's
dump and Flask's JSON took a third of a `GET /games/{id}`; this takes a few microseconds.
`encode_inbox` does the same for `InboxEntrySchema` (a fifth of an inbox page otherwise).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
from marshmallow import fields

from api.player_schemas import InboxEntrySchema, InboxSeatSchema, RatingChangeSchema
from api.schemas import GameViewSchema, SeatViewSchema


def _floats(schema: type) -> frozenset[str]:
    """The fields a schema dumps as floats (an int deadline comes out as 259200.0)."""
    return frozenset(name for name, f in schema._declared_fields.items()
                     if isinstance(f, fields.Float))


_VIEW_FIELDS = tuple(GameViewSchema._declared_fields)
_VIEW_FLOATS = _floats(GameViewSchema)
_SEAT_FIELDS = tuple(SeatViewSchema._declared_fields)
_SEAT_FLOATS = _floats(SeatViewSchema)
_ENTRY_FIELDS = tuple(InboxEntrySchema._declared_fields)
_ENTRY_FLOATS = _floats(InboxEntrySchema)
_ENTRY_SEAT_FIELDS = tuple(InboxSeatSchema._declared_fields)
_CHANGE_FIELDS = tuple(RatingChangeSchema._declared_fields)
_CHANGE_FLOATS = _floats(RatingChangeSchema)
_encoder = msgspec.json.Encoder()


def _only(data: Mapping[str, Any], names: tuple[str, ...],
          floats: frozenset[str]) -> dict[str, Any]:
    out = {name: data[name] for name in names if name in data}
    for name in floats:  # (a few of them: cheaper than asking it of every field)
        value = out.get(name)
        if value is not None:
            out[name] = float(value)
    return out


def encode_game_view(view: Mapping[str, Any]) -> bytes:
    """`view` (from `table_view`) as `GameViewSchema` would dump it, as JSON bytes."""
    out = _only(view, _VIEW_FIELDS, _VIEW_FLOATS)
    out["seats"] = [_only(seat, _SEAT_FIELDS, _SEAT_FLOATS) for seat in view["seats"]]
    return _encoder.encode(out)


def encode_inbox(entries: Sequence[Mapping[str, Any]]) -> bytes:
    """Inbox entries (`domain.players.inbox.entry`) as `InboxEntrySchema(many=True)` would
    dump them, as JSON bytes."""
    out = []
    for entry in entries:
        row = _only(entry, _ENTRY_FIELDS, _ENTRY_FLOATS)
        row["seats"] = [_only(seat, _ENTRY_SEAT_FIELDS, frozenset()) for seat in entry["seats"]]
        if entry.get("rating") is not None:
            row["rating"] = _only(entry["rating"], _CHANGE_FIELDS, _CHANGE_FLOATS)
        out.append(row)
    return _encoder.encode(out)


def with_view(acted: bytes, view: bytes) -> bytes:
    """An action's answer (a JSON object: version, to_act, events) with the caller's view
    (`encode_game_view`) added as `view`, without decoding either."""
    assert acted.endswith(b"}")
    return acted[:-1] + b',"view":' + view + b"}"
