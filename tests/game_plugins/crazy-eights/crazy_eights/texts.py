"""What a person reads about Crazy Eights: each action's label, each event's sentence, and
how the table is laid out (the discard pile, the stock, the seats, the viewer's hand)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from domain.texts import ActionText, Card, Counter, Layout, Seat, Text, Zone, auto, text

_SYMBOLS = {"C": ("♣", "black"), "D": ("♦", "red"), "H": ("♥", "red"), "S": ("♠", "black")}
_SUIT_NAMES = {"C": text("clubs"), "D": text("diamonds"), "H": text("hearts"),
               "S": text("spades")}
_RANK_NAMES = {"A": text("ace"), "J": text("jack"), "Q": text("queen"), "K": text("king")}


def card_name(code: str) -> Text:
    return text("{rank} of {suit}", rank=_RANK_NAMES.get(code[:-1], code[:-1]),
                suit=_SUIT_NAMES[code[-1]])


def card(code: str | None, key: str | None = None) -> Card:
    if code is None:
        return Card(id=key)
    symbol, tone = _SYMBOLS[code[-1]]
    return Card(id=key, text=code[:-1] + symbol, name=card_name(code), tone=tone)


# --- labels ---------------------------------------------------------------------------------
def action_label(view: Mapping[str, Any], action: Any) -> ActionText:
    kind = type(action).__struct_config__.tag
    if kind == "lay_card":
        uses = (f"hand:{action.card}",)
        if action.suit is not None:
            return ActionText(text("Lay the {card} and ask for {suit}",
                                   card=card_name(action.card), suit=_SUIT_NAMES[action.suit]),
                              uses)
        return ActionText(text("Lay the {card}", card=card_name(action.card)), uses)
    if kind == "draw_card":
        return ActionText(text("Draw from the stock"), ("pile:stock",))
    return ActionText(text("Pass"))


# --- sentences ------------------------------------------------------------------------------
def _seat(ev: Mapping[str, Any]) -> Seat:
    return Seat(ev["data"]["seat"])


def _drawn(ev: Mapping[str, Any]) -> Text:
    mine = (ev.get("private") or {}).get(str(ev["data"]["seat"]))
    if mine is not None:
        return text("{seat} drew the {card}{auto}.", seat=_seat(ev), card=card_name(mine["card"]),
                    auto=auto(ev["data"]))
    return text("{seat} drew a card{auto}.", seat=_seat(ev), auto=auto(ev["data"]))


def _laid(ev: Mapping[str, Any]) -> Text:
    d = ev["data"]
    if d["card"][:-1] == "8":
        return text("{seat} laid the {card} and asks for {suit}{auto}.", seat=_seat(ev),
                    card=card_name(d["card"]), suit=_SUIT_NAMES[d["suit"]], auto=auto(d))
    return text("{seat} laid the {card}{auto}.", seat=_seat(ev), card=card_name(d["card"]),
                auto=auto(d))


def _ended(ev: Mapping[str, Any]) -> Text:
    winner = ev["data"]["winner"]
    if winner is None:
        return text("Nobody can lay a card any more: the hand ends.")
    return text("{seat} went out and wins the hand.", seat=Seat(winner))


_SENTENCES: dict[str, Callable[[Mapping[str, Any]], Text]] = {
    "eights_dealt": lambda ev: text("The cards are dealt; the {card} is turned up and {seat} "
                                    "plays first.", card=card_name(ev["data"]["starter"]),
                                    seat=Seat(ev["data"]["first"])),
    "card_laid": _laid,
    "stock_drawn": _drawn,
    "player_passed": lambda ev: text("{seat} passed{auto}.", seat=_seat(ev),
                                     auto=auto(ev["data"])),
    "hand_ended": _ended,
}


def event_sentence(event: Mapping[str, Any]) -> Text | None:
    sentence = _SENTENCES.get(event["type"])
    return None if sentence is None else sentence(event)


# --- the layout -----------------------------------------------------------------------------
def layout(view: Mapping[str, Any], viewer: int | None) -> Layout:
    notes: list[Text] = []
    if view["suit"] is not None:
        notes.append(text("Follow {suit}, or the rank of the top card.",
                          suit=_SUIT_NAMES[view["suit"]]))
    if view["turn"] is not None:
        notes.append(text("{seat} to play.", seat=Seat(view["turn"])))
    discard = view["discard"]
    zones = [
        Zone(id="table", kind="table", title=text("Crazy Eights"), notes=tuple(notes)),
        Zone(id="pile:stock", kind="pile", title=text("Stock"),
             counters=(Counter("size", text("cards"), view["stock"]),),
             cards=(card(None, key="pile:stock"),) if view["stock"] else ()),
        Zone(id="pile:discard", kind="pile", title=text("Discard pile"),
             counters=(Counter("size", text("cards"), len(discard)),),
             cards=(card(discard[-1]),) if discard else ()),
    ]
    for seat, size in enumerate(view["hand_sizes"]):
        counters = [Counter("cards", text("cards"), size)]
        if view["penalties"] is not None:
            counters.append(Counter("penalty", text("penalty"), view["penalties"][seat]))
        shown = tuple(card(c) for c in view["hands"][seat]) if "hands" in view else ()
        zones.append(Zone(id=f"seat:{seat}", kind="seat", seat=seat,
                          active=view["turn"] == seat, counters=tuple(counters), cards=shown))
    if "hand" in view and viewer is not None:
        zones.append(Zone(id="hand", kind="hand", seat=viewer, title=text("Your hand"),
                          active=view["turn"] == viewer,
                          cards=tuple(card(c, key=f"hand:{c}") for c in view["hand"])))
    return Layout(zones=tuple(zones))
