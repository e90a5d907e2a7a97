"""What a person reads about Trash: each action's label, each event's sentence, and how the
table is laid out (the stock, the discard, the card in hand, each seat's row of slots).
All from the view and the events a seat already sees (`domain.texts`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from domain.games.trash.actions import TrashDiscard, TrashDisplace, TrashDraw, TrashPlaceWild
from domain.texts import ActionText, Card, Counter, Layout, Seat, Text, Zone, auto, text

_SUITS = {"C": ("♣", "black"), "D": ("♦", "red"), "H": ("♥", "red"), "S": ("♠", "black")}


# --- cards ----------------------------------------------------------------------------------
_RANK_NAMES = {"A": text("ace"), "J": text("jack"), "Q": text("queen"), "K": text("king")}
_SUIT_NAMES = {"C": text("clubs"), "D": text("diamonds"), "H": text("hearts"),
               "S": text("spades")}


def _rank_name(rank: str) -> Text | str:
    return _RANK_NAMES.get(rank, rank)


def _suit_name(suit: str) -> Text:
    return _SUIT_NAMES[suit]


@cache  # texts are frozen: one per card, its words rendered once per layout
def card_name(code: str) -> Text:
    """`"JS"` → "jack of spades"."""
    return text("{rank} of {suit}", rank=_rank_name(code[:-1]), suit=_suit_name(code[-1]))


@cache
def card(code: str | None, key: str | None = None, caption: str | None = None) -> Card:
    """A card face up (its code), or face down (None)."""
    if code is None:
        return Card(id=key, caption=caption)
    symbol, tone = _SUITS[code[-1]]
    return Card(id=key, text=f"{code[:-1]}{symbol}", name=card_name(code), tone=tone,
                caption=caption)


def slot_name(slot: int) -> str:
    """Slot 1 is the Ace's."""
    return "A" if slot == 1 else str(slot)


# --- labels ---------------------------------------------------------------------------------
def action_label(view: Mapping[str, Any], action: Any) -> ActionText:
    seat = view["turn"]
    if isinstance(action, TrashDraw):
        if action.source == "stock":
            return ActionText(text("Draw from the stock"), ("pile:stock",))
        return ActionText(text("Take the {card} from the discard",
                               card=card_name(view["discard"][-1])), ("pile:discard",))
    if isinstance(action, TrashPlaceWild):
        return ActionText(text("Put the wild on slot {slot}", slot=slot_name(action.slot)),
                          (f"slot:{seat}:{action.slot}",))
    if isinstance(action, TrashDisplace):
        slot = view["pending"]["slot"]
        return ActionText(text("Put the {card} on slot {slot} and take the wild",
                               card=card_name(view["hand"]), slot=slot_name(slot)),
                          (f"slot:{seat}:{slot}", "held"))
    if isinstance(action, TrashDiscard):
        return ActionText(text("Discard the {card} and leave the wild",
                               card=card_name(view["hand"])), ("pile:discard",))
    raise TypeError(f"not an action of this game: {action!r}")


# --- sentences ------------------------------------------------------------------------------
def _seat(ev: Mapping[str, Any]) -> Seat:
    return Seat(ev["data"]["seat"])


def _drawn(ev: Mapping[str, Any]) -> Text:
    d = ev["data"]
    if d["source"] == "discard":
        return text("{seat} took the {card} from the discard{auto}.", seat=_seat(ev),
                    card=card_name(d["card"]), auto=auto(d))
    return text("{seat} drew the {card} from the stock{auto}.", seat=_seat(ev),
                card=card_name(d["card"]), auto=auto(d))


_ENDS = {"one_slot_won": text("a player won with a single slot"),
         "target_slots": text("a player reached the target"),
         "max_rounds": text("the last round was played")}

_SENTENCES: dict[str, Callable[[Mapping[str, Any]], Text]] = {
    "round_dealt": lambda ev: text("Round {round} is dealt; {seat} leads.",
                                   round=ev["data"]["round"], seat=Seat(ev["data"]["leader"])),
    "card_drawn": _drawn,
    "card_placed": lambda ev: text("{seat} put the {card} on slot {slot} and took the "
                                   "{taken}{auto}.", seat=_seat(ev),
                                   card=card_name(ev["data"]["card"]),
                                   slot=slot_name(ev["data"]["slot"]),
                                   taken=card_name(ev["data"]["taken"]), auto=auto(ev["data"])),
    "card_discarded": lambda ev: text("{seat} discarded the {card}{auto}.", seat=_seat(ev),
                                      card=card_name(ev["data"]["card"]),
                                      auto=auto(ev["data"])),
    "turn_ended": lambda ev: text("The turn of {seat} ended; {next} plays next.",
                                  seat=_seat(ev), next=Seat(ev["data"]["next"])),
    "turn_passed": lambda ev: text("{seat} passed the turn to {next}.", seat=_seat(ev),
                                   next=Seat(ev["data"]["next"])),
    "stock_reshuffled": lambda ev: text("The discard pile became a new stock of {n} card.",
                                        plural="The discard pile became a new stock of {n} "
                                        "cards.", n=ev["data"]["size"]),
    "round_won": lambda ev: text("{seat} won round {round}{auto}.", seat=_seat(ev),
                                 round=ev["data"]["round"], auto=auto(ev["data"])),
    "round_void": lambda ev: text("Round {round} does not count: no card could be placed.",
                                  round=ev["data"]["round"]),
    "game_ended": lambda ev: text("The game ended: {why}.", why=_ENDS[ev["data"]["reason"]]),
}


def event_sentence(event: Mapping[str, Any]) -> Text | None:
    sentence = _SENTENCES.get(event["type"])
    return None if sentence is None else sentence(event)


# --- the layout -----------------------------------------------------------------------------
_PHASES = {"draw": text("draw"), "place_wild": text("place the wild"),
           "displace": text("place the card or keep the wild")}


def layout(view: Mapping[str, Any], viewer: int | None) -> Layout:
    turn = view["turn"]
    if view["phase"] == "over":
        notes = (text("The game is over."),)
    elif turn is not None and view["phase"] in _PHASES:
        notes = (text("{seat} to play: {what}", seat=Seat(turn), what=_PHASES[view["phase"]]),)
    else:
        notes = ()
    discard = view["discard"]
    stock = view["stock"]
    zones = [
        Zone(id="round", kind="table", title=text("Round {round}", round=view["round"]),
             notes=notes),
        Zone(id="pile:stock", kind="pile", title=text("Stock"),
             counters=(Counter("size", text("cards"), stock["size"]),),
             cards=(card(None, key="pile:stock"),) if stock["size"] else ()),
        Zone(id="pile:discard", kind="pile", title=text("Discard"),
             counters=(Counter("size", text("cards"), len(discard)),),
             cards=(card(discard[-1], key="pile:discard"),) if discard else ()),
    ]
    if view["hand"] is not None:
        zones.append(Zone(id="held", kind="pile", seat=turn,
                          title=text("In the hand of {seat}", seat=Seat(turn))
                          if turn is not None else text("In hand"),
                          cards=(card(view["hand"], key="held"),)))
    for seat, slots in enumerate(view["layouts"]):
        zones.append(Zone(
            id=f"seat:{seat}", kind="row", seat=seat, active=turn == seat,
            counters=(Counter("slots", text("slots"), view["slots"][seat]),
                      Counter("rounds_won", text("rounds won"), view["rounds_won"][seat])),
            cards=tuple(card(s["card"], key=f"slot:{seat}:{s['slot']}",
                             caption=slot_name(s["slot"]))
                        for s in slots)))
    return Layout(zones=tuple(zones))
