"""Bluff reading for the search: how well a sampled deal explains the other seats' public
choices this round, each replayed through the heuristic from that seat's side with only
what it knew then. Samples are drawn in proportion (`domain.bots.sampler`), so the strong
bot reads bluffs; each factor keeps a floor, so a bluff or an odd play stays possible.
"""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

from domain.bots.canyon_basic.decision import FAVOUR_THRESHOLD, favour_scores
from domain.bots.canyon_basic.outlook import ROLLOUT_SAMPLES, future, outlook, without
from domain.bots.canyon_basic.spot import Hidden, Spot, hidden_card, spot_from_state
from domain.games.canyon_donkeys import donkeys as dk
from domain.games.canyon_donkeys import favours as fv
from domain.games.canyon_donkeys.state import CARD_VALUES, FAVOURS, LOAD, CanyonState, clockwise
from domain.games.canyon_donkeys.view import known_cards

# How sharply a seat's choice follows the model, and the floor that keeps a bluff possible.
BETA = 0.6
FLOOR = 0.1
BETA_LOAD = 1.5
LOAD_FLOOR = 0.1


def _likely(p: float, happened: bool) -> float:
    p = min(1.0 - FLOOR, max(FLOOR, p))
    return p if happened else 1.0 - p


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


def weigh(game: Any, sample: CanyonState, view: dict[str, Any], seat: int) -> float:
    """How well a sampled deal explains the other seats' choices this round: the card each
    loaded given the hand it held, each favour called (or not) and each accept or refuse,
    replayed through the heuristic from that seat's side with only what it knew then.
    Each factor keeps a floor, so a bluff or an odd play stays possible."""
    if sample.revealed:
        return 1.0  # every load is face up: nothing left to read
    rng = random.Random(0)
    n = sample.players
    weight = 1.0
    for j in range(n):
        if j != seat:
            weight *= _load_likelihood(sample, j, rng)
    undecided: tuple[bool | None, ...] = (None,) * n
    for j in _asked(sample):
        if j == seat:
            continue
        spot = spot_from_state(sample, j, contract=undecided)
        called = sample.favour[j]
        if called:  # the card was still in hand when the call was made
            spot.hand = tuple(sorted((*spot.hand, called)))
        scores = favour_scores(spot, rng, ROLLOUT_SAMPLES)
        if scores:
            p_call = _sigmoid(BETA * (max(scores.values()) - FAVOUR_THRESHOLD))
            weight *= _likely(p_call, called != 0)
    decided: list[bool | None] = [None] * n
    for j in fv.contract_order(clockwise(sample.first, n), sample.favour):
        choice = sample.contract[j]
        if choice is None:
            break
        if j != seat:
            spot = spot_from_state(sample, j, contract=tuple(decided))
            spot.mine = _first_load(sample, j)  # favour 4 changes it only afterwards
            out = outlook(spot, spot.mine, rng, ROLLOUT_SAMPLES)
            weight *= _likely(_sigmoid(BETA * (out.accept - out.refuse)), choice)
        decided[j] = choice
    return weight


def _first_load(state: CanyonState, seat: int) -> tuple[int, ...]:
    """The values `seat` loaded this round, before any favour 4 exchange."""
    values = [v for _, v in state.loads[seat]]
    for s, slot, old in state.exchanges:
        if s == seat:
            values[slot] = old
    return tuple(values)


def _load_likelihood(state: CanyonState, seat: int, rng: random.Random) -> float:
    """The chance that the heuristic, holding this sample's hand, loads this sample's card:
    a softmax over the cards it could have loaded, mixed with a uniform floor."""
    resumed = state.donkey == dk.LOST and state.effect != dk.LOST
    if state.revealed or resumed or not state.loads[seat]:
        return 1.0
    loaded = _first_load(state, seat)
    # The hand it loaded from: what it holds, plus the load, plus a favour card discarded.
    hand = [*state.hands[seat], *(v for _, v in state.loads[seat])]
    if state.favour[seat]:
        hand.append(state.favour[seat])
    # What it knew then: not this round's looks, favour calls or exchanges.
    known = known_cards(state, seat)
    known -= {(t, v) for t, _, v in state.looks[seat]}
    known -= {(k, f) for k, f in enumerate(state.favour) if f}
    each = dk.loads_each(state.effect)
    seen = [c for k in range(state.players) if k != seat for c in state.loads[k]
            if c in state.shown]
    hidden: list[Hidden] = []
    for k in range(state.players):
        if k != seat:
            pool = tuple(v for v in CARD_VALUES if (k, v) not in known)
            shown = sum(1 for c in state.loads[k] if c in state.shown)
            hidden.extend([hidden_card(k, pool, None)] * (each - shown))
    spot = Spot(seat=seat, players=state.players, phase=LOAD, effect=state.effect,
                limit=dk.limit_of(state.effect, state.players), loads_each=each,
                hand=tuple(sorted(hand)), mine=(), seen=tuple(seen), hidden=tuple(hidden),
                contract=(None,) * state.players, favour=(0,) * state.players,
                needed=len(state.deck), overloaded=None)
    options = list(itertools.combinations(spot.hand, each))
    scores = [outlook(spot, cards, rng, ROLLOUT_SAMPLES).best
              + future(without(spot.hand, cards), spot.needed) for cards in options]
    top = max(scores)
    total = sum(math.exp(BETA_LOAD * (x - top)) for x in scores)
    chosen = scores[options.index(tuple(sorted(loaded)))]
    return (1.0 - LOAD_FLOOR) * math.exp(BETA_LOAD * (chosen - top)) / total \
        + LOAD_FLOOR / len(options)


def _asked(state: CanyonState) -> list[int]:
    """The seats that have answered the favour question this round, in order."""
    if state.phase == FAVOURS:
        return list(state.order[:state.turn])
    if state.phase == LOAD:
        return []
    return [j for j in clockwise(state.first, state.players)
            if fv.may_call(state.effect, state.favours_used[j] - (1 if state.favour[j] else 0))]

