"""`evolve`: one event applied to the state of a Grand Canyon game.

Each event has its own function; when a phase has nobody left to act, the state moves on
to the next phase by itself (the phase transitions below). No validation, no randomness.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from domain.events import Event
from domain.games.canyon_donkeys import donkeys as dk
from domain.games.canyon_donkeys import favours as fv
from domain.games.canyon_donkeys.donkeys import Card
from domain.games.canyon_donkeys.state import (
    CARD_VALUES,
    CONTRACT,
    FAVOURS,
    LATE_FAVOURS,
    LOAD,
    LOOKS,
    NEXT_DONKEY,
    OVER,
    REVEAL,
    REWARD,
    ROUND_END,
    SCORE,
    SET_ASIDE,
    CanyonState,
    as_card,
    as_cards,
    clockwise,
    look_targets,
    pile,
    seats_to_act,
    swaps,
)
from domain.games.common import HIDDEN, replaced


def evolve(state: CanyonState, ev: Event) -> CanyonState:
    apply = _EVOLVE.get(ev.type)
    # Events of other kinds (timeouts, notes) leave the game as it is.
    return state if apply is None else apply(state, ev)


def _on_donkeys_drawn(state: CanyonState, ev: Event) -> CanyonState:
    n = state.players
    empty: tuple[tuple[Any, ...], ...] = ((),) * n
    state = msgspec.structs.replace(
        state, first=ev.data["first_player"], deck=tuple(ev.private[HIDDEN]["deck"]),
        hands=(CARD_VALUES,) * n, loads=empty, favours_used=(0,) * n, won=empty,
        buried=empty, memory=empty)
    return _fresh_round(state, NEXT_DONKEY)


def _on_donkey_revealed(state: CanyonState, ev: Event) -> CanyonState:
    data = ev.data
    effect = data["effect"]
    order = clockwise(state.first, state.players) if effect == dk.DIFFICULT else ()
    return msgspec.structs.replace(
        state, phase=LOAD, round=data["round"], deck=state.deck[1:],
        seen=(*state.seen, data["donkey"]), donkey=data["donkey"], effect=effect,
        limit=data["gap"] if effect == dk.PRECISION else data["capacity"], order=order, turn=0)


def _on_donkey_removed(state: CanyonState, ev: Event) -> CanyonState:
    return msgspec.structs.replace(state, deck=state.deck[:-1],
                                   removed_donkeys=(*state.removed_donkeys, state.deck[-1]))


def _on_lost_resumed(state: CanyonState, ev: Event) -> CanyonState:
    state = msgspec.structs.replace(
        state, round=ev.data["round"], loads=state.set_aside[0], set_aside=state.set_aside[1:],
        donkey=dk.LOST, effect=dk.NORMAL, limit=ev.data["capacity"])
    return _to_favours(state)


def _on_load_played(state: CanyonState, ev: Event) -> CanyonState:
    seat = ev.data["seat"]
    cards = ev.private[seat]["cards"]
    hand = tuple(v for v in state.hands[seat] if v not in cards)
    load = (*state.loads[seat], *((seat, v) for v in cards))
    state = msgspec.structs.replace(
        state, hands=replaced(state.hands, seat, hand),
        loads=replaced(state.loads, seat, load),
        shown=(*state.shown, *((seat, v) for v in ev.data["face_up"])))
    if state.effect == dk.DIFFICULT:
        state = msgspec.structs.replace(state, turn=state.turn + 1)
        if state.turn < len(state.order):
            return state
    elif seats_to_act(state):
        return state
    if state.effect == dk.LOST:
        return msgspec.structs.replace(state, phase=SET_ASIDE, order=(), turn=0)
    return _to_favours(state)


def _on_loads_set_aside(state: CanyonState, ev: Event) -> CanyonState:
    n = state.players
    return msgspec.structs.replace(state, set_aside=(*state.set_aside, state.loads),
                                   loads=((),) * n, phase=ROUND_END)


def _on_favour_called(state: CanyonState, ev: Event) -> CanyonState:
    seat, card = ev.data["seat"], ev.data["card"]
    state = msgspec.structs.replace(
        state, hands=replaced(state.hands, seat, tuple(v for v in state.hands[seat] if v != card)),
        favour_cards=(*state.favour_cards, (seat, card)),
        favour=replaced(state.favour, seat, card),
        favours_used=replaced(state.favours_used, seat, state.favours_used[seat] + 1))
    return _next_turn(state, _to_looks)


def _on_favour_declined(state: CanyonState, ev: Event) -> CanyonState:
    return _next_turn(state, _to_looks)


def _on_card_looked(state: CanyonState, ev: Event) -> CanyonState:
    seat, target, slot = ev.data["seat"], ev.data["target"], ev.data["slot"]
    seen = (target, slot, state.loads[target][slot][1])
    state = msgspec.structs.replace(
        state, looks=replaced(state.looks, seat, (*state.looks[seat], seen)),
        looks_left=replaced(state.looks_left, seat, state.looks_left[seat] - 1))
    return state if any(state.looks_left) else _to_contract(state)


def _on_looks_declined(state: CanyonState, ev: Event) -> CanyonState:
    state = msgspec.structs.replace(
        state, looks_left=replaced(state.looks_left, ev.data["seat"], 0))
    return state if any(state.looks_left) else _to_contract(state)


def _on_contract_chosen(state: CanyonState, ev: Event) -> CanyonState:
    state = msgspec.structs.replace(
        state, contract=replaced(state.contract, ev.data["seat"], bool(ev.data["accept"])))
    return _next_turn(state, _to_late_favours)


def _on_load_exchanged(state: CanyonState, ev: Event) -> CanyonState:
    seat, slot = ev.data["seat"], ev.data["slot"]
    new = ev.private[seat]["card"]
    old = state.loads[seat][slot][1]
    hand = tuple(sorted((*(v for v in state.hands[seat] if v != new), old)))
    state = msgspec.structs.replace(
        state, hands=replaced(state.hands, seat, hand),
        loads=replaced(state.loads, seat, replaced(state.loads[seat], slot, (seat, new))),
        exchanges=(*state.exchanges, (seat, slot, old)))
    return _next_turn(state, _to_reveal)


def _on_exchange_declined(state: CanyonState, ev: Event) -> CanyonState:
    return _next_turn(state, _to_reveal)


def _on_limit_adjusted(state: CanyonState, ev: Event) -> CanyonState:
    return _next_turn(msgspec.structs.replace(state, limit=ev.data["limit"]), _to_reveal)


def _on_loads_buried(state: CanyonState, ev: Event) -> CanyonState:
    n = state.players
    gone = {c for load in state.loads for c in load}
    return msgspec.structs.replace(
        state, phase=ROUND_END, loads=((),) * n,
        buried=tuple((*state.buried[s], *(v for _, v in state.loads[s])) for s in range(n)),
        # What a player looked at stays known to them: those cards left the game.
        memory=tuple((*state.memory[s], *((t, v) for t, _, v in state.looks[s]
                                          if (t, v) in gone)) for s in range(n)))


def _on_loads_revealed(state: CanyonState, ev: Event) -> CanyonState:
    n = state.players
    state = msgspec.structs.replace(
        state, revealed=True, overloaded=bool(ev.data["overloaded"]),
        removed=tuple(as_cards(ev.data["removed"])), excluded=tuple(ev.data["excluded"]),
        # Every load is face up now: looks are no longer secrets. Exchanges stay: a card
        # favour 4 sent back is in its owner's hand, known only to whoever saw it.
        looks=((),) * n)
    return _to_reward(state)


def _on_loads_swapped(state: CanyonState, ev: Event) -> CanyonState:
    seat, target = ev.data["seat"], ev.data["target"]
    give, take = as_card(ev.data["give"]), as_card(ev.data["take"])
    loads = replaced(state.loads, seat,
                     tuple(take if c == give else c for c in state.loads[seat]))
    loads = replaced(loads, target, tuple(give if c == take else c for c in loads[target]))
    return _next_turn(msgspec.structs.replace(state, loads=loads), _to_score)


def _on_swap_declined(state: CanyonState, ev: Event) -> CanyonState:
    return _next_turn(state, _to_score)


def _on_card_chosen(state: CanyonState, ev: Event) -> CanyonState:
    seat, card = ev.data["seat"], as_card(ev.data["card"])
    state = msgspec.structs.replace(
        state, loads=tuple(tuple(c for c in load if c != card) for load in state.loads),
        won=replaced(state.won, seat, (*state.won[seat], card)))
    return _next_turn(state, _to_score)


def _on_round_scored(state: CanyonState, ev: Event) -> CanyonState:
    won = list(state.won)
    taken: set[Card] = set()
    for seat, raw in ev.data["won"]:
        card = as_card(raw)
        won[seat] = (*won[seat], card)
        taken.add(card)
    # All other cards are discarded.
    rest = tuple(c for load in state.loads for c in load if c not in taken)
    return msgspec.structs.replace(state, won=tuple(won), discard=(*state.discard, *rest),
                                   loads=((),) * state.players, phase=ROUND_END)


def _on_round_ended(state: CanyonState, ev: Event) -> CanyonState:
    state = msgspec.structs.replace(state, first=ev.data["first_player"])
    return _fresh_round(state, NEXT_DONKEY)


def _on_game_ended(state: CanyonState, ev: Event) -> CanyonState:
    return msgspec.structs.replace(state, phase=OVER)


# -- phase transitions (used by evolve) ----------------------------------------------------

def _fresh_round(state: CanyonState, phase: str) -> CanyonState:
    n = state.players
    return msgspec.structs.replace(
        state, phase=phase, donkey="", effect="", limit=0, shown=(), favour=(0,) * n,
        order=(), turn=0, looks_left=(0,) * n, looks=((),) * n, contract=(None,) * n,
        exchanges=(), revealed=False, overloaded=False, removed=(), excluded=())


def _next_turn(state: CanyonState,
               then: Callable[[CanyonState], CanyonState]) -> CanyonState:
    """Pass a sequential step to the next seat in order, or on to the next step."""
    turn = state.turn + 1
    if turn < len(state.order):
        return msgspec.structs.replace(state, turn=turn)
    return then(state)


def _to_favours(state: CanyonState) -> CanyonState:
    # 2. From the first player clockwise, each says whether they call a favour.
    order = tuple(s for s in clockwise(state.first, state.players)
                  if fv.may_call(state.effect, state.favours_used[s]))
    if not order:
        return _to_looks(state)
    return msgspec.structs.replace(state, phase=FAVOURS, order=order, turn=0)


def _to_looks(state: CanyonState) -> CanyonState:
    # Favour 10 (⌊P/2⌋ cards) and the holed donkey (one card), before deciding.
    played = sum(len(load) for load in state.loads)
    looks = []
    for seat in range(state.players):
        wanted = (fv.looks_granted(played) if state.favour[seat] == fv.LOOK else 0) \
            + (1 if state.effect == dk.HOLED else 0)
        looks.append(min(wanted, len(look_targets(state, seat))) if wanted else 0)
    state = msgspec.structs.replace(state, looks_left=tuple(looks), order=(), turn=0)
    if any(looks):
        return msgspec.structs.replace(state, phase=LOOKS)
    return _to_contract(state)


def _to_contract(state: CanyonState) -> CanyonState:
    # 3. From the first player clockwise, each accepts or refuses (favour 2 callers last).
    order = fv.contract_order(clockwise(state.first, state.players), state.favour)
    return msgspec.structs.replace(state, phase=CONTRACT, order=order, turn=0)


def _to_late_favours(state: CanyonState) -> CanyonState:
    # Favours 4 and 6 act after all decisions, clockwise from the first player.
    order = fv.late_order(clockwise(state.first, state.players), state.favour)
    if not order:
        return _to_reveal(state)
    return msgspec.structs.replace(state, phase=LATE_FAVOURS, order=order, turn=0)


def _to_reveal(state: CanyonState) -> CanyonState:
    return msgspec.structs.replace(state, phase=REVEAL, order=(), turn=0)


def _to_reward(state: CanyonState) -> CanyonState:
    # Favour 8, for a caller who was right (and scores this round at all).
    callers = [s for s in clockwise(state.first, state.players)
               if state.favour[s] == fv.REWARD and s not in state.excluded
               and fv.was_right(bool(state.contract[s]), state.overloaded)]
    if state.overloaded:
        # Refusers choose their card from the pile, as long as it lasts.
        order = tuple(callers[:len(pile(state))])
    else:
        order = tuple(s for s in callers if swaps(state, s))
    state = msgspec.structs.replace(state, order=order, turn=0)
    return msgspec.structs.replace(state, phase=REWARD) if order else _to_score(state)


def _to_score(state: CanyonState) -> CanyonState:
    # `order` still names the favour 8 callers: refusers among them chose already.
    return msgspec.structs.replace(state, phase=SCORE)



_EVOLVE: dict[str, Callable[[CanyonState, Event], CanyonState]] = {
    "donkeys_drawn": _on_donkeys_drawn,
    "donkey_revealed": _on_donkey_revealed,
    "donkey_removed": _on_donkey_removed,
    "lost_resumed": _on_lost_resumed,
    "load_played": _on_load_played,
    "loads_set_aside": _on_loads_set_aside,
    "favour_called": _on_favour_called,
    "favour_declined": _on_favour_declined,
    "card_looked": _on_card_looked,
    "looks_declined": _on_looks_declined,
    "contract_chosen": _on_contract_chosen,
    "load_exchanged": _on_load_exchanged,
    "exchange_declined": _on_exchange_declined,
    "limit_adjusted": _on_limit_adjusted,
    "loads_buried": _on_loads_buried,
    "loads_revealed": _on_loads_revealed,
    "loads_swapped": _on_loads_swapped,
    "swap_declined": _on_swap_declined,
    "card_chosen": _on_card_chosen,
    "round_scored": _on_round_scored,
    "round_ended": _on_round_ended,
    "game_ended": _on_game_ended,
}
