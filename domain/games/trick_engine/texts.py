"""What a person reads about a game of the Ochs & Esel family: each action's label, each
event's sentence, and how a seat's view is laid out (the trick, the specials, the seats
with their hand sizes, piles and totals, the viewer's hand). All from the view and the
events a seat already sees (`domain.texts`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from domain.games.trick_engine.actions import (
    TrickPass,
    TrickPlayCard,
    TrickPlayDonkey,
    TrickPlayOx,
    TrickPlaySet,
)
from domain.texts import ActionText, Card, Counter, Layout, Seat, Text, Zone, auto, text

_SPECIAL_ORDER = {"joker": 14, "ox": 15, "donkey": 16}


# --- cards ----------------------------------------------------------------------------------
_NAMED = {"joker": text("the joker"), "donkey": text("the donkey"), "ox": text("the ox")}


def card_name(card: int | str) -> Text | str:
    """A card in words: `7`, `the joker`, `the donkey`, `the ox`."""
    return _NAMED.get(card, str(card)) if isinstance(card, str) else str(card)


@cache  # cards are frozen: one object per card, its name put in words once per layout
def card(card: int | str, key: str | None = None,
         caption: Text | Seat | str | None = None) -> Card:
    printed = {"joker": "Joker ★", "donkey": "Donkey", "ox": "Ox"}.get(str(card), str(card))
    return Card(id=key, text=printed, name=card_name(card),
                tone="special" if isinstance(card, str) else None, caption=caption)


def _order(c: int | str) -> int:
    return c if isinstance(c, int) else _SPECIAL_ORDER[c]


def set_words(value: int, numbers: int, jokers: int) -> Text:
    """A set as words: `2 × 7`, `2 × 7 and a joker`, `2 jokers as 14`."""
    if not numbers:
        return text("{n} joker as {value}", plural="{n} jokers as {value}", n=jokers,
                    value=value)
    if not jokers:
        return text("{numbers} × {value}", numbers=numbers, value=value)
    return text("{numbers} × {value} and {n} joker", plural="{numbers} × {value} and {n} jokers",
                numbers=numbers, value=value, n=jokers)


# --- labels ---------------------------------------------------------------------------------
def action_label(view: Mapping[str, Any], action: Any) -> ActionText:
    if isinstance(action, TrickPlaySet):
        uses = ([f"hand:{action.value}"] if action.numbers else []) + \
            (["hand:joker"] if action.jokers else [])
        return ActionText(text("Play {cards}", cards=set_words(action.value, action.numbers,
                                                                  action.jokers)), tuple(uses))
    if isinstance(action, TrickPass):
        return ActionText(text("Pass"))
    if isinstance(action, TrickPlayDonkey):
        return ActionText(text("Lead the donkey"), ("hand:donkey",))
    if isinstance(action, TrickPlayOx):
        return ActionText(text("Lead the ox"), ("hand:ox",))
    if isinstance(action, TrickPlayCard):
        if action.card == "joker":
            return ActionText(text("Play the joker as {value}", value=action.value or 1),
                              ("hand:joker",))
        return ActionText(text("Play {card}", card=card_name(action.card)),
                          (f"hand:{action.card}",))
    raise TypeError(f"not an action of this game: {action!r}")


# --- sentences ------------------------------------------------------------------------------
def _actor(ev: Mapping[str, Any]) -> Seat:
    return Seat(ev["actor"])


def _seat(ev: Mapping[str, Any]) -> Seat:
    return Seat(ev["data"]["seat"])


def _joined(values: Sequence[int]) -> str:
    return ", ".join(str(v) for v in values)


def _card_played(ev: Mapping[str, Any]) -> Text:
    d = ev["data"]
    if d["card"] == "joker":
        return text("{seat} played the joker as {value}{auto}.", seat=_actor(ev),
                    value=d["value"], auto=auto(d))
    return text("{seat} played {card}{auto}.", seat=_actor(ev), card=card_name(d["card"]),
                auto=auto(d))


_SENTENCES: dict[str, Callable[[Mapping[str, Any]], Text]] = {
    "first_player_chosen": lambda ev: text("{seat} goes first (drawn at random).",
                                           seat=_seat(ev)) if ev["data"]["random"]
    else text("{seat} goes first.", seat=_seat(ev)),
    "round_dealt": lambda ev: text("Round {round} is dealt; {seat} leads.",
                                   round=ev["data"]["round"], seat=Seat(ev["data"]["leader"])),
    "set_played": lambda ev: text("{seat} played {cards}{auto}.", seat=_actor(ev),
                                  cards=set_words(ev["data"]["value"], ev["data"]["numbers"],
                                                  ev["data"]["jokers"]), auto=auto(ev["data"])),
    "passed": lambda ev: text("{seat} passed (nothing to play){auto}.", seat=_actor(ev),
                              auto=auto(ev["data"])) if ev["data"].get("forced")
    else text("{seat} passed{auto}.", seat=_actor(ev), auto=auto(ev["data"])),
    "donkey_led": lambda ev: text("{seat} led the donkey{auto}.", seat=_actor(ev),
                                  auto=auto(ev["data"])),
    "ox_led": lambda ev: text("{seat} led the ox{auto}.", seat=_actor(ev), auto=auto(ev["data"])),
    "card_played": _card_played,
    "trick_won": lambda ev: text("{seat} won trick {trick}.", seat=_seat(ev),
                                 trick=ev["data"]["trick"]),
    "donkey_taken": lambda ev: text("{seat} took the donkey.", seat=_seat(ev)),
    "donkey_trick_taken": lambda ev: text("{seat} took the donkey trick.", seat=_seat(ev)),
    "ox_taken": lambda ev: text("{seat} took the ox.", seat=_seat(ev)),
    "ox_trick_taken": lambda ev: text("{seat} took the ox trick ({n} card).",
                                      plural="{seat} took the ox trick ({n} cards).",
                                      seat=_seat(ev), n=ev["data"]["count"]),
    "round_scored": lambda ev: text("Round {round} is scored: penalties {penalties}.",
                                    round=ev["data"]["round"],
                                    penalties=_joined(ev["data"]["penalties"])),
    "game_ended": lambda ev: text("The game ended: totals {totals}.",
                                  totals=_joined(ev["data"]["totals"])),
}


def event_sentence(event: Mapping[str, Any]) -> Text | None:
    sentence = _SENTENCES.get(event["type"])
    return None if sentence is None else sentence(event)


# --- the layout -----------------------------------------------------------------------------
def _where(special: Mapping[str, Any], what: Text) -> Text:
    seat, where = special["seat"], special["where"]
    if where == "hand" and seat is not None:
        place = text("in the hand of {seat}", seat=Seat(seat))
    elif where == "pile" and seat is not None:
        place = text("in the pile of {seat}", seat=Seat(seat))
    elif where == "table":
        place = text("on the table")
    else:
        place = text("in the centre")
    if special["locked"]:
        return text("{what}: {place} (it may be led from trick {trick})", what=what,
                    place=place, trick=special["playable_from_trick"])
    return text("{what}: {place}", what=what, place=place)


def _trick_zone(view: Mapping[str, Any]) -> Zone:
    trick = view["trick"]
    cards: list[Card] = []
    notes: list[Text] = []
    for play in trick["plays"]:
        who = Seat(play["seat"])
        if play["action"] == "pass":
            notes.append(text("{seat} passed.", seat=Seat(play["seat"])))
        elif play["action"] == "lead":
            cards.append(card(play["card"], caption=who))
        else:
            cards += [card(c, caption=who) for c in play.get("cards", [])]
    if trick["kind"] != "normal":
        beat = text("A {kind} trick: one card each.", kind=card_name(trick["kind"]))
    elif trick["high"] is not None:
        beat = text("To beat: {count} × {high} ({seat}).", count=trick["count"],
                    high=trick["high"], seat=Seat(trick["high_seat"]))
    else:
        beat = text("A new trick: lead any set.")
    specials = view["specials"]
    notes = [beat, *notes, _where(specials["donkey"], text("The donkey"))]
    if "ox" in specials:
        notes.append(_where(specials["ox"], text("The ox")))
    title = text("Round {round} of {rounds} · trick {trick}", round=view["round"],
                 rounds=view["rounds"], trick=trick["number"])
    if view["ox_variant"]:
        title = text("{title} · ox variant", title=title)
    return Zone(id="trick", kind="table", title=title, cards=tuple(cards), notes=tuple(notes))


def _seat_zone(view: Mapping[str, Any], seat: int) -> Zone:
    pile = view["penalty_piles"][seat]
    inner: list[Zone] = []
    if view["known_cards"][seat]:
        inner.append(Zone(id=f"seat:{seat}:known", kind="row", seat=seat,
                          title=text("Known cards in the hand"),
                          cards=tuple(card(c) for c in view["known_cards"][seat])))
    if "hands" in view:
        inner.append(Zone(id=f"seat:{seat}:hand", kind="row", seat=seat, title=text("Hand"),
                          cards=tuple(card(c) for c in view["hands"][seat])))
    if "cards" in pile:
        inner.append(Zone(id=f"seat:{seat}:pile", kind="pile", seat=seat,
                          title=text("Penalty pile"), cards=tuple(card(c) for c in pile["cards"])))
    return Zone(id=f"seat:{seat}", kind="seat", seat=seat, active=view["to_act"] == seat,
                counters=(Counter("cards", text("cards"), view["hand_sizes"][seat]),
                          Counter("pile", text("pile"), pile["count"]),
                          Counter("total", text("penalty"), view["totals"][seat])),
                zones=tuple(inner))


def layout(view: Mapping[str, Any], viewer: int | None) -> Layout:
    zones = [_trick_zone(view)]
    if view["centre"]:
        zones.append(Zone(id="centre", kind="pile", title=text("The centre"),
                          cards=tuple(card(c) for c in view["centre"])))
    # (Before the first deal the seats hold nothing yet: no seat to show.)
    zones += [_seat_zone(view, seat) for seat in range(len(view["penalty_piles"]))]
    if "hand" in view and viewer is not None:
        hand = sorted(view["hand"], key=_order)
        zones.append(Zone(id="hand", kind="hand", seat=viewer, title=text("Your hand"),
                          active=view["to_act"] == viewer,
                          cards=tuple(card(c, key=f"hand:{c}") for c in hand)))
    if view["out_of_play"]:
        zones.append(Zone(id="out", kind="pile", title=text("Out of play this round"),
                          cards=tuple(card(c) for c in sorted(view["out_of_play"], key=_order))))
    return Layout(zones=tuple(zones))
