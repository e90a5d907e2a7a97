"""The document's part for the game's words (`domain.texts`, rendered by
`domain.service.words`): one shape for every game.

- `Text`: a sentence as shown (`text`), its gettext message id and its parameters;
- `ActionLabel`: a legal action's label, and the layout ids it involves (`uses`);
- `Layout` of `Zone`s, each with `Counter`s, `Card`s, notes and inner zones.
"""

from __future__ import annotations

from typing import Any

from api.contract.jsonschema import nullable, ref

_PARAMS = {"type": "object", "additionalProperties": {
    "anyOf": [{"type": "string"}, {"type": "number"}]},
    "description": "the values filled in, in words (a seat as its name)"}
_TEXT = {
    "text": {"type": "string", "description": "what to show"},
    "msgid": {"type": "string", "description": (
        "the gettext message id: the English sentence with `{name}` placeholders")},
    "plural": {**nullable({"type": "string"}), "description": (
        "the English plural's message id, used when `params.n` is not 1 (gettext's "
        "msgid_plural); null: no plural form")},
    "params": _PARAMS,
}
ZONE_KINDS = ["table", "seat", "hand", "pile", "row"]


def _closed(properties: dict[str, Any], description: str) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "required": list(properties),
            "properties": properties, "description": description}


def components() -> dict[str, dict[str, Any]]:
    string_or_null = nullable({"type": "string"})
    return {
        "Text": _closed(_TEXT, "A sentence in the game's words, rendered for the caller."),
        "ActionLabel": _closed({**_TEXT, "uses": {
            "type": "array", "items": {"type": "string"},
            "description": "the ids of the layout's cards and zones the action involves"}},
            "The label of the legal action at the same place in `legal_actions`."),
        "Card": _closed({
            "id": {**string_or_null, "description": (
                "what an action's `uses` names (identical cards may share one)")},
            "text": {**string_or_null, "description": "printed on the card; null: face down"},
            "name": {**string_or_null, "description": "the card in words"},
            "tone": {**string_or_null, "description": (
                "a colour hint: red, black, special, colour-0 … colour-7")},
            "caption": {**string_or_null, "description": "a caption under the card"},
        }, "A card of the layout."),
        "Counter": _closed({
            "id": {"type": "string"}, "label": {"type": "string"},
            "value": {"anyOf": [{"type": "string"}, {"type": "number"}]},
        }, "A small figure shown with a zone."),
        "Zone": _closed({
            "id": {"type": "string", "description": "unique in the layout"},
            "kind": {"enum": ZONE_KINDS, "description": (
                "how to draw it: the table's middle, a seat, the caller's hand, a pile, "
                "a row of places")},
            "title": {**string_or_null, "description": (
                "a heading (null for a seat zone: write the seat's name)")},
            "seat": {**nullable({"type": "integer", "minimum": 0}),
                     "description": "the seat it belongs to"},
            "active": {"type": "boolean", "description": "its seat is to act"},
            "counters": {"type": "array", "items": ref("Counter")},
            "cards": {"type": "array", "items": ref("Card"), "description": "left to right"},
            "notes": {"type": "array", "items": {"type": "string"}},
            "zones": {"type": "array", "items": ref("Zone"),
                      "description": "zones inside this one"},
        }, "A part of the board."),
        "Layout": _closed({"zones": {"type": "array", "items": ref("Zone"),
                                     "description": "in the order to draw them"}},
                          "How the game's view is laid out, for a client that knows "
                          "nothing of the game."),
    }


# The properties the views and the events gain.
ACTION_LABELS = {**nullable({"type": "array", "items": ref("ActionLabel")}), "description": (
    "the label of each legal action, in the order of `legal_actions` (null unless asked "
    "with `words=true`)")}
LAYOUT = {**nullable(ref("Layout")), "description": (
    "how the game's view is laid out (null unless asked with `words=true`, and until the "
    "game is dealt)")}
SENTENCE = {**ref("Text"), "description": (
    "the event in the game's words, for the caller (when asked with `words=true`)")}
