"""What a seat may do in the Grand Canyon game, phase by phase, and the events it causes.

`legal_actions` lists every action the seat may send in the current phase; `decide` checks
one action against the rules of that phase and returns its events (what follows by
itself is in `automatic`). Error codes (`IllegalAction`): `wrong_count`, `duplicate_card`,
`not_in_hand`, `bad_favour_card`, `bad_look`, `not_your_load`, `bad_adjust`,
`not_in_pile`, `bad_swap`, `no_favours_this_round`, `favour_limit`, `wrong_phase`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from typing import Any

from domain.errors import IllegalAction
from domain.events import Event, event
from domain.games.canyon_donkeys import donkeys as dk
from domain.games.canyon_donkeys import favours as fv
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
from domain.games.canyon_donkeys.state import (
    CONTRACT,
    FAVOURS,
    LATE_FAVOURS,
    LOAD,
    LOOKS,
    REWARD,
    CanyonState,
    look_targets,
    pile,
    swaps,
)


def legal_actions(state: CanyonState, seat: int) -> list[Any]:
    """Every action `seat` may send now (the caller checked that it is one to act)."""
    return _LEGAL[state.phase](state, seat)


def decide(state: CanyonState, seat: int, action: Any) -> list[Event]:
    """The events `action` causes in the current phase, or an `IllegalAction`."""
    return _DECIDE[state.phase](state, seat, action)


# -- legal actions, phase by phase ---------------------------------------------------------

def _legal_load(state: CanyonState, seat: int) -> list[Any]:
    need = dk.loads_each(state.effect)
    return [CanyonLoad(cards=combo) for combo in itertools.combinations(state.hands[seat], need)]


def _legal_favours(state: CanyonState, seat: int) -> list[Any]:
    calls = [CanyonFavour(card=c) for c in state.hands[seat] if c in fv.FAVOUR_CARDS]
    return [CanyonNoFavour(), *calls]


def _legal_looks(state: CanyonState, seat: int) -> list[Any]:
    return [*(CanyonLook(seat=t, slot=s) for t, s in look_targets(state, seat)),
            CanyonStopLooking()]


def _legal_contract(state: CanyonState, seat: int) -> list[Any]:
    return [CanyonContract(accept=True), CanyonContract(accept=False)]


def _legal_late(state: CanyonState, seat: int) -> list[Any]:
    if state.favour[seat] == fv.ADJUST:
        return [CanyonAdjust(delta=fv.ADJUST_STEP), CanyonAdjust(delta=-fv.ADJUST_STEP)]
    return [CanyonKeep(), *(CanyonExchange(load=value, card=card)
                            for _, value in state.loads[seat] for card in state.hands[seat])]


def _legal_reward(state: CanyonState, seat: int) -> list[Any]:
    if state.overloaded:
        return [CanyonTake(card=card) for card in pile(state)]
    return [CanyonKeep(), *(CanyonSwap(give=g, take=t) for g, t in swaps(state, seat))]



# -- decide, phase by phase ----------------------------------------------------------------

def _decide_load(state: CanyonState, seat: int, action: Any) -> list[Event]:
    if not isinstance(action, CanyonLoad):
        raise _wrong_phase(state, seat, action)
    need = dk.loads_each(state.effect)
    cards = tuple(action.cards)
    if len(cards) != need:
        raise IllegalAction(f"play exactly {need} load card(s)", code="wrong_count")
    if len(set(cards)) != len(cards):
        raise IllegalAction("the same card twice", code="duplicate_card")
    _require_in_hand(state, seat, cards)
    face_up: list[int] = []
    if state.effect == dk.DIFFICULT and state.turn in (0, state.players - 1):
        # The difficult donkey: the first and the last player load face up.
        face_up = list(cards)
    return [event("load_played", actor=seat, seat=seat, count=len(cards), face_up=face_up,
                  private={seat: {"cards": sorted(cards)}})]


def _decide_favours(state: CanyonState, seat: int, action: Any) -> list[Event]:
    if isinstance(action, CanyonNoFavour):
        return [event("favour_declined", actor=seat, seat=seat)]
    if not isinstance(action, CanyonFavour):
        raise _wrong_phase(state, seat, action)
    if action.card not in fv.FAVOUR_CARDS:
        raise IllegalAction(f"favours are called with a 2, 4, 6, 8 or 10, not {action.card}",
                            code="bad_favour_card")
    _require_in_hand(state, seat, (action.card,))
    return [event("favour_called", actor=seat, seat=seat, card=action.card)]


def _decide_looks(state: CanyonState, seat: int, action: Any) -> list[Event]:
    if isinstance(action, CanyonStopLooking):
        return [event("looks_declined", actor=seat, seat=seat)]
    if not isinstance(action, CanyonLook):
        raise _wrong_phase(state, seat, action)
    target = (action.seat, action.slot)
    if target not in look_targets(state, seat):
        raise IllegalAction("look at another player's face-down load card you have not "
                            "seen yet", code="bad_look")
    value = state.loads[action.seat][action.slot][1]
    return [event("card_looked", actor=seat, seat=seat, target=action.seat, slot=action.slot,
                  private={seat: {"value": value}})]


def _decide_contract(state: CanyonState, seat: int, action: Any) -> list[Event]:
    if not isinstance(action, CanyonContract):
        raise _wrong_phase(state, seat, action)
    return [event("contract_chosen", actor=seat, seat=seat, accept=action.accept)]


def _decide_late(state: CanyonState, seat: int, action: Any) -> list[Event]:
    favour = state.favour[seat]
    if favour == fv.EXCHANGE and isinstance(action, CanyonKeep):
        return [event("exchange_declined", actor=seat, seat=seat)]
    if favour == fv.EXCHANGE and isinstance(action, CanyonExchange):
        own = [value for _, value in state.loads[seat]]
        if action.load not in own:
            raise IllegalAction(f"{action.load} is not your load card", code="not_your_load")
        _require_in_hand(state, seat, (action.card,))
        slot = own.index(action.load)
        # A face-up card goes back to the hand in full view; the new one lies face down.
        public = (seat, action.load) in state.shown
        return [event("load_exchanged", actor=seat, seat=seat, slot=slot,
                      returned=action.load if public else None,
                      private={seat: {"returned": action.load, "card": action.card}})]
    if favour == fv.ADJUST and isinstance(action, CanyonAdjust):
        if action.delta not in (fv.ADJUST_STEP, -fv.ADJUST_STEP):
            raise IllegalAction("raise or lower by 2", code="bad_adjust")
        limit = fv.adjusted(state.effect, state.limit, action.delta)
        return [event("limit_adjusted", actor=seat, seat=seat, delta=action.delta, limit=limit)]
    raise _wrong_phase(state, seat, action)


def _decide_reward(state: CanyonState, seat: int, action: Any) -> list[Event]:
    if state.overloaded:
        if not isinstance(action, CanyonTake):
            raise _wrong_phase(state, seat, action)
        card = tuple(action.card)
        if card not in pile(state):
            raise IllegalAction("choose a card of the pile", code="not_in_pile")
        return [event("card_chosen", actor=seat, seat=seat, card=list(card))]
    if isinstance(action, CanyonKeep):
        return [event("swap_declined", actor=seat, seat=seat)]
    if not isinstance(action, CanyonSwap):
        raise _wrong_phase(state, seat, action)
    give, take = tuple(action.give), tuple(action.take)
    if (give, take) not in swaps(state, seat):
        raise IllegalAction("swap one of your counted load cards for another player's",
                            code="bad_swap")
    holder = next(s for s, load in enumerate(state.loads) if take in load)
    return [event("loads_swapped", actor=seat, seat=seat, give=list(give), take=list(take),
                  target=holder)]


def _wrong_phase(state: CanyonState, seat: int, action: Any) -> IllegalAction:
    """The most helpful error for an action that does not fit the current step."""
    if isinstance(action, CanyonFavour | CanyonNoFavour):
        if state.effect == dk.HURRIED:
            return IllegalAction("the hurried donkey allows no favours",
                                 code="no_favours_this_round")
        if state.favours_used[seat] >= fv.MAX_PER_GAME:
            return IllegalAction("two favours per game", code="favour_limit")
        if state.favour[seat]:
            return IllegalAction("one favour per round", code="favour_limit")
    return IllegalAction(f"{type(action).__name__} does not fit the {state.phase} step",
                         code="wrong_phase")


def _require_in_hand(state: CanyonState, seat: int, cards: Iterable[int]) -> None:
    hand = state.hands[seat]
    for card in cards:
        if card not in hand:
            raise IllegalAction(f"{card} is not in your hand", code="not_in_hand")



_LEGAL: dict[str, Callable[[CanyonState, int], list[Any]]] = {
    LOAD: _legal_load, FAVOURS: _legal_favours, LOOKS: _legal_looks,
    CONTRACT: _legal_contract, LATE_FAVOURS: _legal_late, REWARD: _legal_reward,
}
_DECIDE: dict[str, Callable[[CanyonState, int, Any], list[Event]]] = {
    LOAD: _decide_load, FAVOURS: _decide_favours, LOOKS: _decide_looks,
    CONTRACT: _decide_contract, LATE_FAVOURS: _decide_late, REWARD: _decide_reward,
}
