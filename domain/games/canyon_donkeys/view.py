"""What a seat may see of a Grand Canyon game, and back: a full state sampled from it.

A seat sees every public fact (the donkeys revealed, who has loaded, favour cards,
contract choices, face-up and revealed loads, score piles), its own hand and loads, and
what it looked at. It never sees another seat's hand or face-down load, the donkey deck,
or the donkeys the double removed, unless `reveal_all` (after the end).

`unseen[j]` lists the values of seat j's colour whose place the viewer does not know: they
are exactly the cards of j's hidden places (hand, face-down loads, set-aside loads, buried
loads). `determinize` deals them out at random, so a search bot can play on a state that
agrees with everything it may know and nothing more.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

import msgspec

from domain.games.canyon_donkeys import donkeys as dk
from domain.games.canyon_donkeys.donkeys import Card
from domain.games.canyon_donkeys.state import (
    CARD_VALUES,
    OVER,
    CanyonState,
    as_card,
    seats_to_act,
    standings,
)

ACCEPT, REFUSE = "accept", "refuse"


def view(state: CanyonState, viewer: int | None, reveal_all: bool = False) -> dict[str, Any]:
    n = state.players
    if not state.hands:
        state = _before_the_deal(state)
    me = viewer if viewer is not None and 0 <= viewer < n else None
    known = known_cards(state, me)
    out: dict[str, Any] = {
        "game": "canyon-donkeys",
        "players": n,
        "options": {
            "donkey_deck": dict(state.composition) if state.deck_option is None
            else list(state.deck_option),
            "first_player": "random" if state.first_option is None else state.first_option,
        },
        "phase": state.phase,
        "round": state.round,
        "first_player": state.first,
        "to_act": sorted(seats_to_act(state)),
        "order": list(state.order),
        "turn": state.turn,
        "donkey": _donkey(state),
        "donkeys_left": len(state.deck),
        "donkeys_removed": len(state.removed_donkeys),
        "donkeys_seen": list(state.seen),
        "set_aside": [[len(load) for load in loads] for loads in state.set_aside],
        "face_up": [list(c) for c in state.shown],
        "exchanges": [[s, slot, old if (s, old) in known else None]
                      for s, slot, old in state.exchanges],
        "revealed": state.revealed,
        "overloaded": state.overloaded if state.revealed else None,
        "removed": [list(c) for c in state.removed],
        "excluded": list(state.excluded),
        "discard": [list(c) for c in state.discard],
        "favour_cards": [list(c) for c in state.favour_cards],
        "seats": [_seat(state, s) for s in range(n)],
        "unseen": [[v for v in CARD_VALUES if (j, v) not in known] for j in range(n)],
    }
    if me is not None:
        out["you"] = {
            "seat": me,
            "hand": list(state.hands[me]),
            "load": [list(c) for c in state.loads[me]],
            "set_aside": [[v for _, v in loads[me]] for loads in state.set_aside],
            "buried": list(state.buried[me]),
            "looks": [list(seen) for seen in state.looks[me]],
            "known_buried": [list(c) for c in state.memory[me]],
        }
    if state.phase == OVER:
        totals, counts, places = standings(state)
        out["outcome"] = {"totals": totals, "won_cards": counts, "places": places}
    if reveal_all:
        out["all"] = {
            "hands": [list(h) for h in state.hands],
            "loads": [[list(c) for c in load] for load in state.loads],
            "set_aside": [[[list(c) for c in load] for load in loads]
                          for loads in state.set_aside],
            "buried": [list(b) for b in state.buried],
            "looks": [[list(seen) for seen in looks] for looks in state.looks],
            "deck": list(state.deck),
            "removed_donkeys": list(state.removed_donkeys),
        }
    return out


def determinize(view: Mapping[str, Any], seat: int, rng: random.Random) -> CanyonState:
    """A full state that agrees with `view` (seat's view): hidden cards and donkeys are
    dealt at random from what the seat cannot place."""
    n = view["players"]
    you, seats, options = view["you"], view["seats"], view["options"]
    exchanged = {(s, slot): old for s, slot, old in view["exchanges"]}
    my_looks = [(t, slot, v) for t, slot, v in you["looks"]]
    hands: list[tuple[int, ...]] = []
    loads: list[tuple[Card, ...]] = []
    buried: list[tuple[int, ...]] = []
    set_aside: list[list[tuple[Card, ...]]] = [[()] * n for _ in view["set_aside"]]
    for j in range(n):
        if j == seat:
            hands.append(tuple(you["hand"]))
            loads.append(tuple(as_card(c) for c in you["load"]))
            buried.append(tuple(you["buried"]))
            for r, values in enumerate(you["set_aside"]):
                set_aside[r][j] = tuple((j, v) for v in values)
            continue
        pool = list(view["unseen"][j])
        rng.shuffle(pool)
        looked = {slot: v for t, slot, v in my_looks if t == j}
        # A card sent back by favour 4 that the seat saw (looked at, or played face up)
        # is in the hand.
        in_hand = [old for (s, _slot), old in exchanged.items() if s == j and old is not None]
        load: list[Card] = []
        for slot, entry in enumerate(seats[j]["load"]):
            if entry is not None:
                load.append(as_card(entry))
            elif slot in looked and (j, slot) not in exchanged:
                load.append((j, looked[slot]))
            else:
                load.append((j, pool.pop()))
        for r, counts in enumerate(view["set_aside"]):
            set_aside[r][j] = tuple((j, pool.pop()) for _ in range(counts[j]))
        known_buried = [v for owner, v in you["known_buried"] if owner == j]
        buried.append((*known_buried,
                       *(pool.pop() for _ in range(seats[j]["buried"] - len(known_buried)))))
        hand = in_hand + [pool.pop() for _ in range(seats[j]["hand_size"] - len(in_hand))]
        if pool:
            raise ValueError(f"view of seat {seat} does not account for seat {j}'s cards")
        hands.append(tuple(sorted(hand)))
        loads.append(tuple(load))

    # Exchanged cards the seat cannot name: any card of the exchanger's hand will do.
    exchanges = tuple((s, slot, old if old is not None else rng.choice(hands[s]))
                      for s, slot, old in view["exchanges"])
    returned = {(s, slot): old for s, slot, old in exchanges}
    looks = []
    for p in range(n):
        if p == seat:
            looks.append(tuple(my_looks))
            continue
        # Looks happen before the reveal, so every card looked at is still in its slot,
        # unless its owner exchanged it since.
        looks.append(tuple((t, slot, returned.get((t, slot)) or loads[t][slot][1])
                           for t, slot in seats[p]["looked"]))
    deck, removed_donkeys = _donkeys(view, rng)
    donkey = view["donkey"] or {}
    memory = [()] * n
    memory[seat] = tuple(as_card(c) for c in you["known_buried"])
    first_option = options["first_player"]
    explicit = options["donkey_deck"]
    return CanyonState(
        players=n,
        deck_option=tuple(explicit) if isinstance(explicit, list) else None,
        composition=tuple(explicit.items()) if isinstance(explicit, dict)
        else dk.DEFAULT_COMPOSITION,
        first_option=None if first_option == "random" else first_option,
        phase=view["phase"], round=view["round"], first=view["first_player"],
        deck=deck, removed_donkeys=removed_donkeys, seen=tuple(view["donkeys_seen"]),
        donkey=donkey.get("type", ""), effect=donkey.get("effect", ""),
        limit=_limit(donkey),
        hands=tuple(hands), loads=tuple(loads), shown=tuple(as_card(c) for c in view["face_up"]),
        set_aside=tuple(tuple(r) for r in set_aside),
        favours_used=tuple(s["favours_used"] for s in seats),
        favour=tuple(s["favour"] or 0 for s in seats),
        order=tuple(view["order"]), turn=view["turn"],
        looks_left=tuple(s["looks_left"] for s in seats), looks=tuple(looks),
        contract=tuple(None if s["contract"] is None else s["contract"] == ACCEPT
                       for s in seats),
        exchanges=exchanges, revealed=view["revealed"], overloaded=bool(view["overloaded"]),
        removed=tuple(as_card(c) for c in view["removed"]), excluded=tuple(view["excluded"]),
        won=tuple(tuple(as_card(c) for c in s["won"]) for s in seats),
        discard=tuple(as_card(c) for c in view["discard"]),
        favour_cards=tuple(as_card(c) for c in view["favour_cards"]),
        buried=tuple(buried), memory=tuple(memory),
    )


# -- helpers -------------------------------------------------------------------------------

def _before_the_deal(state: CanyonState) -> CanyonState:
    """The state before `donkeys_drawn` (a replay stopped at `game_started`), its seats
    sized: nobody holds anything yet."""
    n = state.players
    empty: tuple[tuple[Any, ...], ...] = ((),) * n
    return msgspec.structs.replace(
        state, hands=empty, loads=empty, favours_used=(0,) * n, favour=(0,) * n,
        looks_left=(0,) * n, looks=empty, contract=(None,) * n, won=empty, buried=empty,
        memory=empty)


def _donkey(state: CanyonState) -> dict[str, Any] | None:
    if not state.donkey:
        return None
    precision = state.effect == dk.PRECISION
    return {
        "type": state.donkey,
        "effect": state.effect,
        "capacity": None if precision else state.limit,
        "gap": state.limit if precision else None,
        "loads_each": dk.loads_each(state.effect),
        "resumed": state.donkey == dk.LOST and state.effect != dk.LOST,
    }


def _limit(donkey: dict[str, Any]) -> int:
    if donkey.get("gap") is not None:
        return int(donkey["gap"])
    return int(donkey.get("capacity") or 0)


def _seat(state: CanyonState, s: int) -> dict[str, Any]:
    contract = state.contract[s]
    return {
        "seat": s,
        "hand_size": len(state.hands[s]),
        "loaded": bool(state.loads[s]),
        # Face-down cards are None until the reveal.
        "load": [list(c) if state.revealed or c in state.shown else None
                 for c in state.loads[s]],
        "favours_used": state.favours_used[s],
        "favour": state.favour[s] or None,
        "looks_left": state.looks_left[s],
        "looked": [[t, slot] for t, slot, _ in state.looks[s]],
        "contract": None if contract is None else (ACCEPT if contract else REFUSE),
        "won": [list(c) for c in state.won[s]],
        "total": sum(v for _, v in state.won[s]),
        "won_cards": len(state.won[s]),
        "buried": len(state.buried[s]),
    }


def known_cards(state: CanyonState, me: int | None) -> set[Card]:
    """Every card whose place `me` (None: a spectator) knows."""
    known: set[Card] = {*state.shown, *state.discard, *state.favour_cards}
    for pile in state.won:
        known.update(pile)
    if state.revealed:
        for load in state.loads:
            known.update(load)
    if me is not None:
        known.update((me, v) for v in CARD_VALUES)  # a player knows where all their cards are
        known.update((t, v) for t, _, v in state.looks[me])
        known.update(state.memory[me])
    return known


def _donkeys(view: Mapping[str, Any], rng: random.Random) -> tuple[tuple[str, ...],
                                                                tuple[str, ...]]:
    """The deck and the removed donkeys: known from an explicit deck, else sampled from
    the composition minus every donkey seen."""
    left, removed, seen = view["donkeys_left"], view["donkeys_removed"], view["donkeys_seen"]
    explicit: list[str] | dict[str, int] = view["options"]["donkey_deck"]
    if isinstance(explicit, list):
        end = len(explicit) - removed
        return tuple(explicit[len(seen):end]), tuple(reversed(explicit[end:]))
    pool = Counter(dk.composition_deck(explicit.items()))
    pool.subtract(Counter(seen))
    drawn = rng.sample(sorted(pool.elements()), left + removed)
    return tuple(drawn[:left]), tuple(drawn[left:])
