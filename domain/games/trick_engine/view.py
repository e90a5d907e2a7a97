"""What a seat sees of a game of the Ochs & Esel family, and back: a full state sampled
from what it sees.

Everything but the viewer's own hand is public: hand sizes, the current trick (played face
up), the cards everyone saw go into each hand (`known_cards`) and go out of play this round
(`out_of_play`: discarded tricks and ox piles), where the specials are and their locks. Ox
piles lie face down: only their size, unless everything is revealed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from domain.games.trick_engine.cards import (
    CARD_IDS,
    CARD_NAMES,
    DECK_NUMBERS,
    DONKEY,
    JOKER,
    OX,
    SPECIALS,
    ids,
    names,
    sorted_cards,
)
from domain.games.trick_engine.config import TrickConfig
from domain.games.trick_engine.state import (
    NOBODY,
    TRICK_KINDS,
    TrickEnginePlay,
    TrickEngineState,
    out_of_play,
    table_cards,
    totals,
)


def view(config: TrickConfig, state: TrickEngineState, viewer: int | None,
         reveal_all: bool = False) -> dict[str, Any]:
    """What `viewer` (a seat, or None for a spectator) may see."""
    n = state.players
    out: dict[str, Any] = {
        "game": config.id,
        "players": n,
        "round": state.round,
        "rounds": state.rounds,
        "ox_variant": state.ox_variant,
        "over": state.over,
        "to_act": state.turn if state.turn >= 0 and not state.over else None,
        "trick": {
            "number": state.trick,
            "leader": state.leader if state.leader >= 0 else None,
            "kind": TRICK_KINDS[state.kind],
            "count": state.count or None,
            "high": state.high if state.high_seat >= 0 else None,
            "high_seat": state.high_seat if state.high_seat >= 0 else None,
            "plays": [_play_view(p) for p in state.plays],
        },
        "hand_sizes": [len(h) for h in state.hands],
        "known_cards": [names(k) for k in state.known],
        "centre": names(state.centre),
        "specials": _specials_view(state),
        "penalty_piles": [{"count": len(p)} for p in state.piles],
        "out_of_play": names(out_of_play(state)),
        "scores": [list(r) for r in state.scores],
        "totals": totals(state),
    }
    if viewer is not None and 0 <= viewer < len(state.hands):
        out["hand"] = names(state.hands[viewer])
    if reveal_all:
        out["hands"] = [names(h) for h in state.hands]
        for pile, shown in zip(state.piles, out["penalty_piles"], strict=True):
            shown["cards"] = names(pile)
    return out


def determinize(config: TrickConfig, view: Mapping[str, Any], seat: int,
                rng: random.Random) -> TrickEngineState:
    """A full state consistent with `view` (seat `seat`'s): its own hand as shown, the
    other hands drawn uniformly from the cards this seat has not seen (publicly known
    cards stay where they are), ox pile contents drawn from the cards seen going out of
    play. Undealt cards are simply the ones no hand received."""
    n = view["players"]
    own = ids(view["hand"])
    known = [ids(k) for k in view["known_cards"]]
    trick = view["trick"]
    plays = tuple(_play_from_view(p) for p in trick["plays"])
    gone = ids(view["out_of_play"])
    # Ox piles (face down): the ox and cards drawn from those seen going out of play.
    seen_out = [c for c in gone if c not in SPECIALS]
    rng.shuffle(seen_out)
    piles: list[tuple[int, ...]] = []
    for p in view["penalty_piles"]:
        size = p["count"]
        piles.append(sorted_cards((OX, *seen_out[:size - 1])) if size else ())
        seen_out = seen_out[size - 1:] if size else seen_out
    discards = [0] * (DONKEY + 1)
    for card in seen_out:
        discards[card] += 1
    # Hidden cards: the deck minus everything this seat saw.
    unseen = Counter(DECK_NUMBERS)
    unseen[JOKER] = config.jokers
    seen = [*own, *gone, *table_cards(plays)]
    seen += [c for s in range(n) if s != seat for c in known[s]]
    unseen.subtract(c for c in seen if c not in SPECIALS)
    if min(unseen.values()) < 0:
        raise ValueError("the view shows more cards than the deck holds")
    pool = list(unseen.elements())
    rng.shuffle(pool)
    hands: list[tuple[int, ...]] = []
    for s, size in enumerate(view["hand_sizes"]):
        if s == seat:
            hands.append(own)
            continue
        need = size - len(known[s])
        hands.append(sorted_cards(known[s] + tuple(pool[:need])))
        pool = pool[need:]
    specials = view["specials"]
    return TrickEngineState(
        players=n, rounds=view["rounds"], ox_variant=view["ox_variant"],
        round=view["round"], trick=trick["number"], hands=tuple(hands),
        known=tuple(known), centre=ids(view["centre"]), piles=tuple(piles),
        discards=tuple(discards),
        leader=NOBODY if trick["leader"] is None else trick["leader"],
        turn=NOBODY if view["to_act"] is None else view["to_act"],
        kind=TRICK_KINDS.index(trick["kind"]), count=trick["count"] or 0,
        high=trick["high"] or 0,
        high_seat=NOBODY if trick["high_seat"] is None else trick["high_seat"],
        plays=plays,
        donkey_from=specials.get("donkey", {}).get("playable_from_trick", 1),
        ox_from=specials.get("ox", {}).get("playable_from_trick", 1),
        scores=tuple(tuple(r) for r in view["scores"]), over=view["over"])


def _specials_view(state: TrickEngineState) -> dict[str, Any]:
    out: dict[str, Any] = {}
    specials = (DONKEY, OX) if state.ox_variant else (DONKEY,)
    for card in specials:
        free_from = state.donkey_from if card == DONKEY else state.ox_from
        where, seat = "centre", None
        for s, h in enumerate(state.hands):
            if card in h:
                where, seat = "hand", s
        if any(p.special == card for p in state.plays):
            where, seat = "table", None
        for s, p in enumerate(state.piles):
            if card in p:
                where, seat = "pile", s
        out[CARD_NAMES[card]] = {
            "where": where, "seat": seat, "playable_from_trick": free_from,
            "locked": where == "hand" and state.trick < free_from}
    return out


def _play_view(play: TrickEnginePlay) -> dict[str, Any]:
    if play.special:
        return {"seat": play.seat, "action": "lead", "card": CARD_NAMES[play.special]}
    if not (play.numbers or play.jokers):
        return {"seat": play.seat, "action": "pass"}
    return {"seat": play.seat, "action": "play", "value": play.value,
            "numbers": play.numbers, "jokers": play.jokers, "cards": names(play.cards())}


def _play_from_view(p: Mapping[str, Any]) -> TrickEnginePlay:
    if p["action"] == "lead":
        return TrickEnginePlay(p["seat"], special=CARD_IDS[p["card"]])
    if p["action"] == "pass":
        return TrickEnginePlay(p["seat"])
    return TrickEnginePlay(p["seat"], p["value"], p["numbers"], p["jokers"])
