"""What one seat may see of the canyon game, as the heuristic reads it: a `Spot`.

A view (the `basic` bot) and a determinized state (the search's rollout policy) are both
reduced to the same `Spot`, which holds only what that seat may see: its hand and loads,
the other seats' load cards it can see, and for each one it cannot see the values that
card may still have (its owner's unseen cards), tilted by the owner's public contract
choice: an accepter tends to have loaded low, a refuser high.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

from domain.games.canyon_donkeys import donkeys as dk
from domain.games.canyon_donkeys.state import CARD_VALUES, LOAD, CanyonState
from domain.games.canyon_donkeys.view import known_cards

TILT = 0.15  # how strongly an accept (refuse) suggests a low (high) hidden load


@dataclass(slots=True)
class Hidden:
    """A load card of another seat that this seat cannot see: what it may be."""

    owner: int
    values: tuple[int, ...]
    weights: tuple[float, ...]  # normalized
    mean: float
    var: float
    below: tuple[float, ...]  # below[v]: the chance that the card is worth at most v


@dataclass(slots=True)
class Spot:
    seat: int
    players: int
    phase: str
    effect: str
    limit: int
    loads_each: int
    hand: tuple[int, ...]
    mine: tuple[int, ...]  # my load values (empty before I load)
    seen: tuple[tuple[int, int], ...]  # other seats' load cards I can see
    hidden: tuple[Hidden, ...]  # other seats' load cards I cannot see (or not loaded yet)
    contract: tuple[bool | None, ...]
    favour: tuple[int, ...]
    needed: int  # load cards I must still play after this round's
    overloaded: bool | None
    # Worked out once per spot: every candidate load is weighed against the same others.
    seen_sum: int = 0
    hidden_mean: float = 0.0
    hidden_var: float = 0.0
    draws: list[list[tuple[int, int]]] | None = None  # sampled hidden cards (lazily)

    def __post_init__(self) -> None:
        self.seen_sum = sum(v for _, v in self.seen)
        self.hidden_mean = sum(h.mean for h in self.hidden)
        self.hidden_var = sum(h.var for h in self.hidden)


@functools.lru_cache(maxsize=4096)
def hidden_card(owner: int, pool: tuple[int, ...], choice: bool | None) -> Hidden:
    """A card of `owner` this seat cannot see: one of `pool` (the owner's values this seat
    has not seen), tilted by the owner's contract choice (None: not made yet)."""
    values = pool or CARD_VALUES
    if choice is None:
        weights = [1.0] * len(values)
    else:
        sign = -TILT if choice else TILT
        weights = [math.exp(sign * v) for v in values]
    total = sum(weights)
    norm = tuple(w / total for w in weights)
    mean = sum(w * v for w, v in zip(norm, values, strict=True))
    var = sum(w * (v - mean) ** 2 for w, v in zip(norm, values, strict=True))
    at = dict(zip(values, norm, strict=True))
    below, total = [0.0], 0.0
    for v in CARD_VALUES:
        total += at.get(v, 0.0)
        below.append(total)
    return Hidden(owner, values, norm, mean, var, tuple(below))


def spot_from_view(view: dict[str, Any], seat: int) -> Spot:
    you = view["you"]
    donkey = view["donkey"] or {}
    effect = donkey.get("effect") or dk.NORMAL
    limit = donkey.get("gap") if effect == dk.PRECISION else donkey.get("capacity")
    each = int(donkey.get("loads_each") or 1)
    exchanged = {(s, slot) for s, slot, _ in view["exchanges"]}
    looked = {(t, slot): v for t, slot, v in you["looks"] if (t, slot) not in exchanged}
    contract = tuple(None if s["contract"] is None else s["contract"] == "accept"
                     for s in view["seats"])
    seen: list[tuple[int, int]] = []
    hidden: list[Hidden] = []
    loading = view["phase"] == LOAD
    for s in view["seats"]:
        j = s["seat"]
        if j == seat:
            continue
        unknown = 0
        for slot, card in enumerate(s["load"]):
            if card is not None:
                seen.append((card[0], card[1]))
            elif (j, slot) in looked:
                seen.append((j, looked[(j, slot)]))
            else:
                unknown += 1
        if loading and not s["loaded"]:
            unknown += each
        hidden.extend([hidden_card(j, tuple(view["unseen"][j]), contract[j])] * unknown)
    return Spot(
        seat=seat, players=view["players"], phase=view["phase"], effect=effect,
        limit=int(limit or 0), loads_each=each, hand=tuple(you["hand"]),
        mine=tuple(v for _, v in you["load"]), seen=tuple(seen), hidden=tuple(hidden),
        contract=contract, favour=tuple(s["favour"] or 0 for s in view["seats"]),
        needed=view["donkeys_left"], overloaded=view["overloaded"])


def spot_from_state(state: CanyonState, seat: int,
                    contract: tuple[bool | None, ...] | None = None) -> Spot:
    """The spot of `seat` on a full state, reading only what that seat could see.
    `contract` replaces the public contract choices (to replay an earlier moment)."""
    known = known_cards(state, seat)
    contract = state.contract if contract is None else contract
    each = dk.loads_each(state.effect)
    seen: list[tuple[int, int]] = []
    hidden: list[Hidden] = []
    loading = state.phase == LOAD
    for j in range(state.players):
        if j == seat:
            continue
        unknown = 0
        for card in state.loads[j]:
            if card in known:
                seen.append(card)
            else:
                unknown += 1
        if loading:
            unknown += each - len(state.loads[j])
        if unknown:
            pool = tuple(v for v in CARD_VALUES if (j, v) not in known)
            h = hidden_card(j, pool, contract[j])
            hidden.extend([h] * unknown)
    return Spot(
        seat=seat, players=state.players, phase=state.phase, effect=state.effect or dk.NORMAL,
        limit=state.limit, loads_each=each, hand=state.hands[seat],
        mine=tuple(v for _, v in state.loads[seat]), seen=tuple(seen), hidden=tuple(hidden),
        contract=contract, favour=state.favour, needed=len(state.deck),
        overloaded=state.overloaded if state.revealed else None)

