"""What a person reads about a game, as data: action labels, event sentences, the layout.

Every game says, in its own package and in English, each legal action's short label
(`Game.action_label`), each of its events' sentence (`Game.event_sentence`) and how its
view is laid out (`Game.layout`: zones of counters, cards and notes), from what the viewer
may already see (the redacted view, the redacted event): so nothing hidden can reach a
person through them. The server renders them (`render`) for the API, where a client that
knows nothing of the game draws the board, labels the legal actions and writes the log.

A `Text` is a gettext message id — the English sentence with `{name}` placeholders — and
its named parameters: plain values, other `Text`s (a card's name, translatable too) or a
`Seat` (the server writes the seat's name). Write each message id as a literal in a call of
`text(...)`, so that `pybabel extract -k text` finds it for a catalog; an English plural
goes in `plural=` with the count in `n=`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import msgspec


class Seat(msgspec.Struct, frozen=True):
    """A seat named in a text: rendered as its player's name (or "Seat 3", "Bot 3 …")."""

    seat: int


class Text(msgspec.Struct, frozen=True, omit_defaults=True):
    """A message id (English, `{name}` placeholders), its plural and count, its params."""

    msgid: str
    params: dict[str, Any] = msgspec.field(default_factory=dict)
    plural: str | None = None
    n: int | None = None  # the count that chooses between `msgid` and `plural`


def text(msgid: str, *, plural: str | None = None, n: int | None = None,
         **params: Any) -> Text:
    """`text("{seat} drew a card.", seat=Seat(0))`; `text("{n} card", plural="{n} cards",
    n=3)` (`n` is also a parameter)."""
    if n is not None:
        params["n"] = n
    return Text(msgid=msgid, params=params, plural=plural, n=n)


def auto(data: Mapping[str, Any]) -> Text | str:
    """The `{auto}` of a sentence: why the server played a seat's move (`auto` in the
    event's data), or nothing."""
    why = data.get("auto")
    if why == "timeout":
        return text(" (played for them: time ran out)")
    if why == "away":
        return text(" (played for them: away)")
    return ""


class ActionText(msgspec.Struct, frozen=True):
    """A legal action's label, and the ids of the layout's cards and zones it involves (a
    board makes them clickable: clicking one offers the actions that use it)."""

    label: Text
    uses: tuple[str, ...] = ()


# --- the layout ----------------------------------------------------------------------------
ZoneKind = Literal["table", "seat", "hand", "pile", "row"]


class Counter(msgspec.Struct, frozen=True):
    """A small figure shown with a zone: `cards 12`, `total 31`."""

    id: str
    label: Text
    value: int | str | Text


class Card(msgspec.Struct, frozen=True, omit_defaults=True):
    """A card as drawn: `text` printed on it and its `name` in words, or face down (both
    None); `id` is what an action's `uses` names (identical cards may share one)."""

    id: str | None = None
    text: str | None = None
    name: Text | str | None = None
    tone: str | None = None  # a colour hint: "red", "black", "special", "colour-0".."colour-7"
    caption: Text | Seat | str | None = None  # under the card: a slot's name, a seat

    @property
    def face_down(self) -> bool:
        return self.text is None


class Zone(msgspec.Struct, frozen=True, omit_defaults=True):
    """A part of the board: the table's middle, a seat, the viewer's hand, a pile, a row
    of places. A seat zone has no title: a client writes the seat's name."""

    id: str
    kind: ZoneKind
    title: Text | None = None
    seat: int | None = None
    active: bool = False
    counters: tuple[Counter, ...] = ()
    cards: tuple[Card, ...] = ()
    notes: tuple[Text, ...] = ()
    zones: tuple[Zone, ...] = ()


class Layout(msgspec.Struct, frozen=True):
    """The board: its zones, in the order to draw them."""

    zones: tuple[Zone, ...]


def ids(layout: Layout) -> set[str]:
    """Every id a layout holds (zones and cards): what an action's `uses` may name."""
    found: set[str] = set()

    def walk(zones: Sequence[Zone]) -> None:
        for zone in zones:
            found.add(zone.id)
            found.update(card.id for card in zone.cards if card.id is not None)
            walk(zone.zones)

    walk(layout.zones)
    return found


# --- rendering -----------------------------------------------------------------------------
Names = Callable[[int], str]
Translate = Callable[[str, str | None, int | None], str]  # (msgid, plural, n) -> template


def english(msgid: str, plural: str | None, n: int | None) -> str:
    """No translation: the message id, or its English plural when `n` is not 1."""
    return plural if plural is not None and n is not None and n != 1 else msgid


def render(value: Text, names: Names, translate: Translate = english) -> dict[str, Any]:
    """A text as the API serves it: `{"text", "msgid", "plural", "params"}`, params in
    words (`plural`: the English plural's message id, chosen when `params["n"]` is not 1)."""
    params = {key: _param(v, names, translate) for key, v in value.params.items()} \
        if value.params else {}
    return {"text": _filled(value, params, translate), "msgid": value.msgid,
            "plural": value.plural, "params": params}


def words(value: Text | Seat | str, names: Names, translate: Translate = english) -> str:
    """A text, or a seat's name, as words (a plain string stays as it is)."""
    return str(_param(value, names, translate))


def _filled(value: Text, params: dict[str, Any], translate: Translate) -> str:
    template = translate(value.msgid, value.plural, value.n)
    return template.format(**params) if params or "{" in template else template


def _param(value: Any, names: Names, translate: Translate) -> Any:
    if isinstance(value, str):
        return value
    if isinstance(value, Text):
        params = {key: _param(v, names, translate) for key, v in value.params.items()} \
            if value.params else {}
        return _filled(value, params, translate)
    if isinstance(value, Seat):
        return names(value.seat)
    return value


def render_layout(layout: Layout, names: Names,
                  translate: Translate = english) -> dict[str, Any]:
    """The layout as the API serves it: every text in words, every field present. (A text
    object met again — a game's cached card name — is put in words once.)"""
    said: dict[int, str] = {}

    def word(value: Text | Seat | str) -> str:
        if isinstance(value, str):
            return value
        found = said.get(id(value))
        if found is None:
            found = said[id(value)] = str(_param(value, names, translate))
        return found

    def card(c: Card) -> dict[str, Any]:
        return {"id": c.id, "text": c.text,
                "name": None if c.name is None else word(c.name),
                "tone": c.tone,
                "caption": None if c.caption is None else word(c.caption)}

    def zone(z: Zone) -> dict[str, Any]:
        return {"id": z.id, "kind": z.kind,
                "title": None if z.title is None else word(z.title),
                "seat": z.seat, "active": z.active,
                "counters": [{"id": c.id, "label": word(c.label),
                              "value": c.value if not isinstance(c.value, Text)
                              else word(c.value)} for c in z.counters],
                "cards": [card(c) for c in z.cards],
                "notes": [word(n) for n in z.notes],
                "zones": [zone(inner) for inner in z.zones]}

    return {"zones": [zone(z) for z in layout.zones]}
