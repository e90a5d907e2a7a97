"""What a person reads about the Grand Canyon game: each action's label, each event's
sentence, and how the table is laid out (the donkey, the piles, each seat with its load and
its winnings, the viewer's hand). All from the view and the events a seat already sees
(`domain.texts`). A load card on the table is `[owner, value]`: its colour is its owner's."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from domain.games.canyon_donkeys.actions import (
    CanyonAdjust,
    CanyonContract,
    CanyonExchange,
    CanyonFavour,
    CanyonKeep,
    CanyonLoad,
    CanyonLook,
    CanyonNoFavour,
    CanyonStopLooking,
    CanyonSwap,
    CanyonTake,
)
from domain.texts import ActionText, Card, Counter, Layout, Seat, Text, Zone, auto, text

DONKEYS = {"normal": text("normal"), "giant": text("giant"), "puny": text("puny"),
           "precision": text("precision"), "hurried": text("hurried"), "holed": text("holed"),
           "attacked": text("attacked"), "lost": text("lost"), "double": text("double"),
           "stubborn": text("stubborn"), "difficult": text("difficult"),
           "picky": text("picky")}
PHASES = {"setup": text("setting up"), "load": text("loading"), "favours": text("favours"),
          "looks": text("looks"), "contract": text("the contract"),
          "late_favours": text("late favours"), "reward": text("the reward"),
          "over": text("over"), "next_donkey": text("the next donkey"),
          "set_aside": text("loads set aside"), "reveal": text("the reveal"),
          "score": text("scoring"), "round_end": text("the end of the round")}


# --- cards ----------------------------------------------------------------------------------
@cache
def card_name(owner: int, value: int) -> Text:
    return text("{value} of colour {colour}", value=value, colour=owner + 1)


@cache  # cards are frozen: one object per card, its name put in words once per layout
def card(owner: int, value: int | None, key: str | None = None) -> Card:
    """A card of `owner`'s colour, face up (`value`) or face down (None)."""
    if value is None:
        return Card(id=key)
    return Card(id=key, text=str(value), name=card_name(owner, value),
                tone=f"colour-{owner % 8}")


def _values(values: Sequence[int]) -> str:
    return " + ".join(str(v) for v in values)


def _load_key(view: Mapping[str, Any], wanted: Sequence[int]) -> str | None:
    """The layout id of a load card on the table (`[owner, value]`), if it shows."""
    for shown in view["seats"]:
        for slot, c in enumerate(shown["load"]):
            if c is not None and list(c) == list(wanted):
                return f"load:{shown['seat']}:{slot}"
    you = view.get("you")
    if you is not None:
        for slot, c in enumerate(you["load"]):
            if list(c) == list(wanted):
                return f"load:{you['seat']}:{slot}"
    return None


# --- labels ---------------------------------------------------------------------------------
def action_label(view: Mapping[str, Any], action: Any) -> ActionText:
    if isinstance(action, CanyonLoad):
        return ActionText(text("Load {cards}", cards=_values(action.cards)),
                          tuple(f"hand:{v}" for v in action.cards))
    if isinstance(action, CanyonFavour):
        return ActionText(text("Call favour {card}", card=action.card), (f"hand:{action.card}",))
    if isinstance(action, CanyonNoFavour):
        return ActionText(text("Call no favour"))
    if isinstance(action, CanyonLook):
        return ActionText(text("Look at load card {slot} of {seat}", slot=action.slot + 1,
                               seat=Seat(action.seat)), (f"load:{action.seat}:{action.slot}",))
    if isinstance(action, CanyonStopLooking):
        return ActionText(text("Look no further"))
    if isinstance(action, CanyonContract):
        return ActionText(text("Accept the contract") if action.accept
                          else text("Refuse the contract"))
    if isinstance(action, CanyonExchange):
        you = view["you"]
        key = _load_key(view, [you["seat"], action.load])
        return ActionText(text("Take back your {load} and load {card} instead",
                               load=action.load, card=action.card),
                          (f"hand:{action.card}", *([key] if key else [])))
    if isinstance(action, CanyonAdjust):
        if action.delta > 0:
            return ActionText(text("Raise the limit by {delta}", delta=action.delta))
        return ActionText(text("Lower the limit by {delta}", delta=-action.delta))
    if isinstance(action, CanyonSwap):
        uses = [k for k in (_load_key(view, action.give), _load_key(view, action.take)) if k]
        return ActionText(text("Swap your {give} for the {take}",
                               give=card_name(*action.give), take=card_name(*action.take)),
                          tuple(uses))
    if isinstance(action, CanyonTake):
        key = _load_key(view, action.card)
        return ActionText(text("Take the {card}", card=card_name(*action.card)),
                          (key,) if key else ())
    if isinstance(action, CanyonKeep):
        return ActionText(text("Keep it as it is"))
    raise TypeError(f"not an action of this game: {action!r}")


# --- sentences ------------------------------------------------------------------------------
def _seat(ev: Mapping[str, Any]) -> Seat:
    return Seat(ev["data"]["seat"])


def _mine(ev: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The viewer's own private part of the event, if it received one."""
    private = ev.get("private") or {}
    seat = ev["data"].get("seat")
    return private.get(str(seat)) if seat is not None else None


def _revealed(ev: Mapping[str, Any]) -> Text:
    d = ev["data"]
    if "capacity" in d:
        return text("Round {round}: the {donkey} donkey, carrying {capacity} ({left} left).",
                    round=d["round"], donkey=DONKEYS[d["donkey"]], capacity=d["capacity"],
                    left=d["left"])
    if "gap" in d:
        return text("Round {round}: the {donkey} donkey, a gap of at most {gap} ({left} left).",
                    round=d["round"], donkey=DONKEYS[d["donkey"]], gap=d["gap"], left=d["left"])
    return text("Round {round}: the {donkey} donkey ({left} left).", round=d["round"],
                donkey=DONKEYS[d["donkey"]], left=d["left"])


def _loaded(ev: Mapping[str, Any]) -> Text:
    d, mine = ev["data"], _mine(ev)
    if mine is not None:
        return text("{seat} loaded {cards}{auto}.", seat=_seat(ev),
                    cards=_values(mine["cards"]), auto=auto(d))
    if d["face_up"]:
        return text("{seat} loaded {cards} face up{auto}.", seat=_seat(ev),
                    cards=_values(d["face_up"]), auto=auto(d))
    return text("{seat} loaded {n} card face down{auto}.",
                plural="{seat} loaded {n} cards face down{auto}.", seat=_seat(ev),
                n=d["count"], auto=auto(d))


def _looked(ev: Mapping[str, Any]) -> Text:
    d, mine = ev["data"], _mine(ev)
    if mine is not None:
        return text("{seat} looked at load card {slot} of {target}: a {value}{auto}.",
                    seat=_seat(ev), slot=d["slot"] + 1, target=Seat(d["target"]),
                    value=mine["value"], auto=auto(d))
    return text("{seat} looked at load card {slot} of {target}{auto}.", seat=_seat(ev),
                slot=d["slot"] + 1, target=Seat(d["target"]), auto=auto(d))


def _acted(msgid: str) -> Callable[[Mapping[str, Any]], Text]:
    return lambda ev: text(msgid, seat=_seat(ev), auto=auto(ev["data"]))


_SENTENCES: dict[str, Callable[[Mapping[str, Any]], Text]] = {
    "donkeys_drawn": lambda ev: text("{n} donkey waits in the canyon.",
                                     plural="{n} donkeys wait in the canyon.",
                                     n=ev["data"]["donkeys"]),
    "donkey_revealed": _revealed,
    "donkey_removed": lambda ev: text("A donkey was taken out ({left} left).",
                                      left=ev["data"]["left"]),
    "lost_resumed": lambda ev: text("The lost donkey is back (round {round}), carrying "
                                    "{capacity}.", round=ev["data"]["round"],
                                    capacity=ev["data"]["capacity"]),
    "load_played": _loaded,
    "favour_declined": _acted("{seat} called no favour{auto}."),
    "favour_called": lambda ev: text("{seat} called favour {card}{auto}.", seat=_seat(ev),
                                     card=ev["data"]["card"], auto=auto(ev["data"])),
    "looks_declined": _acted("{seat} looked no further{auto}."),
    "card_looked": _looked,
    "contract_chosen": lambda ev: text("{seat} accepted the contract{auto}.", seat=_seat(ev),
                                       auto=auto(ev["data"])) if ev["data"]["accept"]
    else text("{seat} refused the contract{auto}.", seat=_seat(ev), auto=auto(ev["data"])),
    "exchange_declined": _acted("{seat} kept their load{auto}."),
    "load_exchanged": _acted("{seat} exchanged a load card{auto}."),
    "limit_adjusted": lambda ev: text("{seat} raised the limit to {limit}{auto}.",
                                      seat=_seat(ev), limit=ev["data"]["limit"],
                                      auto=auto(ev["data"])) if ev["data"]["delta"] > 0
    else text("{seat} lowered the limit to {limit}{auto}.", seat=_seat(ev),
              limit=ev["data"]["limit"], auto=auto(ev["data"])),
    "card_chosen": lambda ev: text("{seat} took the {card}{auto}.", seat=_seat(ev),
                                   card=card_name(*ev["data"]["card"]), auto=auto(ev["data"])),
    "swap_declined": _acted("{seat} swapped nothing{auto}."),
    "loads_swapped": lambda ev: text("{seat} swapped their {give} for the {take} of "
                                     "{target}{auto}.", seat=_seat(ev),
                                     give=card_name(*ev["data"]["give"]),
                                     take=card_name(*ev["data"]["take"]),
                                     target=Seat(ev["data"]["target"]), auto=auto(ev["data"])),
    "loads_set_aside": lambda ev: text("The loads of round {round} were set aside.",
                                       round=ev["data"]["round"]),
    "loads_buried": lambda ev: text("The refused loads were buried."),
    "loads_revealed": lambda ev: text("The loads are revealed: {total}, too heavy!",
                                      total=ev["data"]["total"]) if ev["data"]["overloaded"]
    else text("The loads are revealed: {total}.", total=ev["data"]["total"]),
    "round_scored": lambda ev: text("The round is scored."),
    "round_ended": lambda ev: text("Round {round} ended; {seat} starts the next one.",
                                   round=ev["data"]["round"],
                                   seat=Seat(ev["data"]["first_player"])),
    "game_ended": lambda ev: text("The game ended: totals {totals}.",
                                  totals=", ".join(str(t) for t in ev["data"]["totals"])),
}


def event_sentence(event: Mapping[str, Any]) -> Text | None:
    sentence = _SENTENCES.get(event["type"])
    return None if sentence is None else sentence(event)


# --- the layout -----------------------------------------------------------------------------
def _donkey_zone(view: Mapping[str, Any]) -> Zone:
    donkey = view["donkey"]
    notes: list[Text] = []
    cards: tuple[Card, ...] = ()
    if donkey is not None:
        cards = (Card(id="donkey", text=donkey["type"].capitalize(),
                      name=text("the {donkey} donkey", donkey=DONKEYS[donkey["type"]]),
                      tone="special"),)
        if donkey["effect"] != donkey["type"]:
            notes.append(text("It acts as the {donkey} donkey.", donkey=DONKEYS[donkey["effect"]]))
        if donkey["capacity"] is not None:
            notes.append(text("It carries {capacity}.", capacity=donkey["capacity"]))
        if donkey["gap"] is not None:
            notes.append(text("The largest gap it allows: {gap}.", gap=donkey["gap"]))
        notes.append(text("{n} load card each.", plural="{n} load cards each.",
                          n=donkey["loads_each"]))
    if view["overloaded"] is not None:
        notes.append(text("Too heavy!") if view["overloaded"] else text("It carries the load."))
    return Zone(id="donkey", kind="table",
                title=text("Round {round} · {phase}", round=view["round"],
                           phase=PHASES.get(view["phase"], view["phase"])),
                counters=(Counter("donkeys_left", text("donkeys left"), view["donkeys_left"]),),
                cards=cards, notes=tuple(notes))


def _pile(key: str, title: Text, cards: Sequence[Sequence[int]]) -> Zone:
    return Zone(id=key, kind="pile", title=title,
                cards=tuple(card(owner, value) for owner, value in cards))


def _seat_zone(view: Mapping[str, Any], shown: Mapping[str, Any]) -> Zone:
    seat = shown["seat"]
    you = view.get("you")
    own = you["load"] if you is not None and you["seat"] == seat else None
    load = []
    for slot, c in enumerate(shown["load"]):
        if c is None and own is not None and slot < len(own):
            c = own[slot]  # the viewer's own face-down card: it knows it
        key = f"load:{seat}:{slot}"
        load.append(card(seat, None, key) if c is None else card(c[0], c[1], key))
    notes: list[Text] = []
    if shown["favour"] is not None:
        notes.append(text("Favour {card}", card=shown["favour"]))
    if shown["contract"] == "accept":
        notes.append(text("Accepts the contract"))
    elif shown["contract"] == "refuse":
        notes.append(text("Refuses the contract"))
    inner = [Zone(id=f"load:{seat}", kind="row", seat=seat, title=text("Load"),
                  cards=tuple(load))]
    if shown["won"]:
        inner.append(_pile(f"won:{seat}", text("Won"), shown["won"]))
    return Zone(id=f"seat:{seat}", kind="seat", seat=seat, active=seat in view["to_act"],
                counters=(Counter("cards", text("cards"), shown["hand_size"]),
                          Counter("total", text("points"), shown["total"]),
                          Counter("favours", text("favours used"), shown["favours_used"])),
                notes=tuple(notes), zones=tuple(inner))


def layout(view: Mapping[str, Any], viewer: int | None) -> Layout:
    zones = [_donkey_zone(view)]
    for key, title, cards in (("face_up", text("Face up"), view["face_up"]),
                              ("favours", text("Favour cards"), view["favour_cards"]),
                              ("removed", text("Taken off the donkey"), view["removed"]),
                              ("discard", text("Discarded"), view["discard"])):
        if cards:
            zones.append(_pile(key, title, cards))
    zones += [_seat_zone(view, shown) for shown in view["seats"]]
    you = view.get("you")
    if you is not None:
        seat = you["seat"]
        zones.append(Zone(id="hand", kind="hand", seat=seat, title=text("Your hand"),
                          active=seat in view["to_act"],
                          cards=tuple(card(seat, v, key=f"hand:{v}") for v in you["hand"])))
        if you["looks"]:
            zones.append(Zone(id="looks", kind="row", seat=seat, title=text("You saw"),
                              cards=tuple(card(target, value)
                                          for target, _slot, value in you["looks"])))
    return Layout(zones=tuple(zones))
