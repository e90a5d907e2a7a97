"""What a seat may do in a game of the Ochs & Esel family, and the event each action causes.

`legal_actions` lists every action the seat may send; `play_event` checks one action
against the rules and returns the event it causes (what follows by itself is in
`automatic`).

Errors. `BadAction` (code `bad_action`): not an action of this game, or malformed (a set of
no cards, a value outside 1-14, jokers alone not worth 14, a joker value Crazy Donkey does
not know). `IllegalAction` codes:
- `not_in_hand`: the cards (or the donkey, the ox) are not in the player's hand;
- `cannot_pass`: the leader of a normal trick, or anyone holding a number card or joker in
  a donkey/ox trick, may not pass;
- `must_play_set`: `play_card` outside a donkey/ox trick;
- `must_follow_count`: a set of another size than the leader's;
- `too_low`: a set not strictly higher than the last set played;
- `only_leader_plays_donkey` / `only_leader_plays_ox`: the donkey or ox played when not
  leading;
- `donkey_locked` / `ox_locked`: the card was received in the previous trick (lock);
- `must_play_one_card`: a set in a donkey/ox trick (one card each);
- `must_pass`: a hand of only the donkey and/or the ox in a donkey/ox trick;
- `joker_value_fixed`: a joker declared other than 1 where it is always worth 1.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from domain.errors import BadAction, IllegalAction
from domain.events import Event, event
from domain.games.trick_engine.actions import (
    TrickAction,
    TrickPass,
    TrickPlayCard,
    TrickPlayDonkey,
    TrickPlayOx,
    TrickPlaySet,
)
from domain.games.trick_engine.cards import (
    CARD_NAMES,
    DONKEY,
    JOKER,
    JOKERS_ALONE,
    OX,
    SPECIALS,
    card_id,
)
from domain.games.trick_engine.config import TrickConfig
from domain.games.trick_engine.state import (
    NORMAL,
    TRICK_KINDS,
    TrickEngineState,
    lock_waived,
)


# --- Legal actions -----------------------------------------------------------------------
def legal_actions(config: TrickConfig, state: TrickEngineState,
                  seat: int) -> list[TrickAction]:
    if state.over or seat != state.turn or state.turn < 0:
        return []
    hand = state.hands[seat]
    if state.kind != NORMAL:
        # Donkey/ox trick: one card each, any value; only donkey/ox in hand -> pass.
        out: list[TrickAction] = [TrickPlayCard(card=v) for v in sorted(set(hand)) if v <= 13]
        if JOKER in hand:
            out += _joker_cards(config)
        return out or [TrickPass()]
    if not state.plays:
        return _leads(state, hand)
    return [TrickPass(), *_sets(hand, state.count, state.high)]


def _joker_cards(config: TrickConfig) -> list[TrickPlayCard]:
    if len(config.joker_values) == 1:
        return [TrickPlayCard(card="joker")]
    return [TrickPlayCard(card="joker", value=v) for v in config.joker_values]


def _leads(state: TrickEngineState, hand: tuple[int, ...]) -> list[TrickAction]:
    out: list[TrickAction] = _sets(hand, 0, 0)
    # Only the leader may play the donkey (the ox), alone, unless it is locked.
    waived = lock_waived(state, hand)
    if DONKEY in hand and (state.trick >= state.donkey_from or waived):
        out.append(TrickPlayDonkey())
    if OX in hand and (state.trick >= state.ox_from or waived):
        out.append(TrickPlayOx())
    return out


def _sets(hand: tuple[int, ...], count: int, above: int) -> list[TrickAction]:
    """Every distinct set from `hand` of `count` cards (any size if 0) worth more than
    `above`: number cards of one value plus jokers, or jokers alone (worth 14)."""
    jokers = hand.count(JOKER)
    out: list[TrickAction] = []
    for value in sorted(set(hand)):
        if value > 13:
            break
        if value <= above:
            continue
        have = hand.count(value)
        if count:
            for k in range(max(1, count - jokers), min(have, count) + 1):
                out.append(TrickPlaySet(value=value, numbers=k, jokers=count - k))
        else:
            for k in range(1, have + 1):
                out += [TrickPlaySet(value=value, numbers=k, jokers=j) for j in range(jokers + 1)]
    if above < JOKERS_ALONE:
        if count:
            sizes: Iterable[int] = (count,) if count <= jokers else ()
        else:
            sizes = range(1, jokers + 1)
        out += [TrickPlaySet(value=JOKERS_ALONE, jokers=j) for j in sizes]
    return out


# --- Decide: one action checked, its event -----------------------------------------------
def check_shape(config: TrickConfig, classes: tuple[type, ...], action: Any) -> None:
    """BadAction for anything that is not a well-formed action of this game."""
    if not isinstance(action, classes):
        raise BadAction(f"not an action of {config.title}: {action!r}")
    if isinstance(action, TrickPlaySet):
        v, k, j = action.value, action.numbers, action.jokers
        if not (_is_int(v) and _is_int(k) and _is_int(j)) or k < 0 or j < 0 or k + j == 0:
            raise BadAction("a set has a value, numbers >= 0, jokers >= 0, and a card")
        if not 1 <= v <= JOKERS_ALONE or (v == JOKERS_ALONE) != (k == 0):
            raise BadAction("a set's value is 1-13 with number cards, 14 for jokers alone")
    elif isinstance(action, TrickPlayCard):
        card, value = action.card, action.value
        if card != "joker" and not (_is_int(card) and 1 <= card <= 13):
            raise BadAction("a card is a number 1-13 or \"joker\"")
        if value is not None and not _is_int(value):
            raise BadAction("a card's value is an integer")
        if card != "joker" and value not in (None, card):
            raise BadAction("only a joker may be declared a value")
        if card == "joker" and value not in (None, 1, JOKERS_ALONE):
            raise BadAction("a joker in a donkey or ox trick is worth 1 or 14")


def play_event(config: TrickConfig, state: TrickEngineState, seat: int,
               action: Any) -> Event:
    """Check `action` against the rules; the event it causes."""
    hand = state.hands[seat]
    if state.kind != NORMAL:
        return _special_trick_event(config, state, seat, hand, action)
    leading = not state.plays
    if isinstance(action, TrickPlayDonkey | TrickPlayOx):
        return _special_lead_event(state, seat, hand, action, leading)
    if isinstance(action, TrickPass):
        if leading:
            raise IllegalAction("the leader must play a set", code="cannot_pass")
        return event("passed", actor=seat)
    if isinstance(action, TrickPlayCard):
        raise IllegalAction("this is a normal trick: play a set or pass",
                            code="must_play_set")
    value, numbers, jokers = action.value, action.numbers, action.jokers
    if not leading:
        # Follow: exactly as many cards as the leader, strictly higher.
        if numbers + jokers != state.count:
            raise IllegalAction(f"play exactly {state.count} card(s) or pass",
                                code="must_follow_count")
        if value <= state.high:
            raise IllegalAction(f"play higher than {state.high} or pass", code="too_low")
    if (numbers and hand.count(value) < numbers) or hand.count(JOKER) < jokers:
        raise IllegalAction("those cards are not in your hand", code="not_in_hand")
    return event("set_played", actor=seat, value=value, numbers=numbers, jokers=jokers)


def _special_trick_event(config: TrickConfig, state: TrickEngineState, seat: int,
                         hand: tuple[int, ...], action: Any) -> Event:
    # In an ox or donkey trick, a hand of nothing but the donkey and/or ox must pass.
    if all(c in SPECIALS for c in hand):
        if not isinstance(action, TrickPass):
            raise IllegalAction("you hold only the donkey and/or the ox: pass",
                                code="must_pass")
        return event("passed", actor=seat, forced=True)
    # Nobody may pass; everyone plays exactly one card of any value.
    if isinstance(action, TrickPass):
        raise IllegalAction(f"nobody may pass in a {TRICK_KINDS[state.kind]} trick",
                            code="cannot_pass")
    if isinstance(action, TrickPlaySet):
        raise IllegalAction("play exactly one card (play_card)", code="must_play_one_card")
    if isinstance(action, TrickPlayDonkey | TrickPlayOx):
        # Ox and donkey are never played in the same trick; only the leader plays them.
        return _special_lead_event(state, seat, hand, action, False)
    card = card_id(action.card)
    if card not in hand:
        raise IllegalAction("that card is not in your hand", code="not_in_hand")
    if card != JOKER:
        return event("card_played", actor=seat, card=card, value=card)
    # A joker is worth 1 (Crazy Donkey: its player may declare 1 or 14).
    value = config.joker_values[0] if action.value is None else action.value
    if value not in config.joker_values:
        raise IllegalAction(f"a joker is worth {config.joker_values[0]} here",
                            code="joker_value_fixed")
    return event("card_played", actor=seat, card="joker", value=value)


def _special_lead_event(state: TrickEngineState, seat: int, hand: tuple[int, ...],
                        action: Any, leading: bool) -> Event:
    card = DONKEY if isinstance(action, TrickPlayDonkey) else OX
    name = CARD_NAMES[card]
    if card not in hand:
        raise IllegalAction(f"you do not hold the {name}", code="not_in_hand")
    # Only the leader may play the donkey (the ox), and only alone.
    if not leading:
        raise IllegalAction(f"only the leader may play the {name}",
                            code=f"only_leader_plays_{name}")
    # Lock: received during or at the end of trick T, it may be led from trick T+2.
    free_from = state.donkey_from if card == DONKEY else state.ox_from
    if state.trick < free_from and not lock_waived(state, hand):
        raise IllegalAction(f"the {name} was received last trick; it may be led from "
                            f"trick {free_from}", code=f"{name}_locked")
    return event(f"{name}_led", actor=seat)


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)
