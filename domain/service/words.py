"""The game's words in the answers: each legal action's label, each event's sentence, the
layout of the view (`domain.texts`), rendered with the table's seat names.

Computed from what the viewer receives anyway — the view built for it, each event as
`domain.redaction.redact` gave it — so they say nothing the viewer may not know.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.game import Game
from domain.table import Table
from domain.table_texts import seat_name, table_sentence, unknown_sentence
from domain.texts import Names, Translate, english, render, render_layout, words


def seat_names(table: Table, translate: Translate = english) -> Names:
    """The seats' names as a text renders them."""
    return lambda seat: words(seat_name(table, seat), lambda _s: "", translate)


def sentence(game: Game[Any, Any], event: Mapping[str, Any], names: Names,
             translate: Translate = english) -> dict[str, Any]:
    """The sentence of a redacted event: the table's, the game's, else its type."""
    said = table_sentence(event) or game.event_sentence(event) or unknown_sentence(event)
    return render(said, names, translate)


def with_sentences(table: Table, game: Game[Any, Any], events: Sequence[dict[str, Any]],
                   translate: Translate = english) -> Sequence[dict[str, Any]]:
    """`events` (redacted, as served) each given its `sentence`, in place."""
    names = seat_names(table, translate)
    for ev in events:
        ev["sentence"] = sentence(game, ev, names, translate)
    return events


def action_labels(game: Game[Any, Any], view: Mapping[str, Any], actions: Sequence[Any],
                  names: Names, translate: Translate = english) -> list[dict[str, Any]]:
    """The labels of `actions` (the game's Structs, as listed), in their order."""
    out = []
    for action in actions:
        described = game.action_label(view, action)
        out.append({**render(described.label, names, translate), "uses": list(described.uses)})
    return out


def layout(game: Game[Any, Any], view: Mapping[str, Any], viewer: int | None, names: Names,
           translate: Translate = english) -> dict[str, Any]:
    return render_layout(game.layout(view, viewer), names, translate)
