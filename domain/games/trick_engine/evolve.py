"""`evolve`: one event applied to the state of a game of the Ochs & Esel family.

No validation and no randomness: the events say everything (the dealt hands, who won the
trick), so a replay never asks the rules again.
"""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from domain.events import Event
from domain.games.common import replaced
from domain.games.trick_engine.cards import (
    DONKEY,
    JOKER,
    OX,
    card_id,
    forget,
    ids,
    sorted_cards,
    take,
)
from domain.games.trick_engine.state import (
    DONKEY_TRICK,
    NOBODY,
    NORMAL,
    OX_TRICK,
    TrickEnginePlay,
    TrickEngineState,
    next_in_trick,
    table_cards,
)


def evolve(state: TrickEngineState, ev: Event) -> TrickEngineState:
    d = ev.data
    match ev.type:
        case "set_played":
            return _apply_play(state, TrickEnginePlay(
                ev.actor, d["value"], d["numbers"], d["jokers"]))
        case "passed":
            return _apply_play(state, TrickEnginePlay(ev.actor))
        case "card_played":
            card = card_id(d["card"])
            if card == JOKER:
                return _apply_play(state, TrickEnginePlay(ev.actor, d["value"], 0, 1))
            return _apply_play(state, TrickEnginePlay(ev.actor, card, 1))
        case "donkey_led":
            return _apply_play(state, TrickEnginePlay(ev.actor, special=DONKEY))
        case "ox_led":
            return _apply_play(state, TrickEnginePlay(ev.actor, special=OX))
        case "trick_won":
            # Played cards are discarded face down and play no further part.
            discards = list(state.discards)
            for play in state.plays:
                for card in play.cards():
                    discards[card] += 1
            return _next_trick(state, d["seat"], discards=tuple(discards))
        case "donkey_trick_taken":
            # The taker takes all cards, donkey included, into their hand; locked.
            seat = d["seat"]
            cards = table_cards(state.plays)
            return _next_trick(
                state, seat,
                hands=replaced(state.hands, seat, sorted_cards(state.hands[seat] + cards)),
                known=replaced(state.known, seat, sorted_cards(state.known[seat] + cards)),
                donkey_from=d["trick"] + 2)
        case "ox_trick_taken":
            # The taker puts all cards, ox included, face down as a penalty pile.
            seat = d["seat"]
            cards = table_cards(state.plays)
            pile = sorted_cards(state.piles[seat] + cards)
            return _next_trick(state, seat, piles=replaced(state.piles, seat, pile))
        case "ox_taken":
            # Received at the end of trick T: locked in trick T+1.
            return replace(_from_centre(state, d["seat"], OX), ox_from=d["trick"] + 2)
        case "donkey_taken":
            return replace(_from_centre(state, d["seat"], DONKEY),
                           donkey_from=d["trick"] + 2)
        case "round_scored":
            return replace(state, scores=(*state.scores, tuple(d["penalties"])),
                           turn=NOBODY)
        case "round_dealt":
            return _apply_deal(state, ev)
        case "game_ended":
            return replace(state, over=True, turn=NOBODY)
        case _:
            return state  # informational events (first_player_chosen)


def _apply_play(state: TrickEngineState, play: TrickEnginePlay) -> TrickEngineState:
    seat = play.seat
    hands, known = state.hands, state.known
    if play.numbers or play.jokers or play.special:
        cards = play.cards()
        hands = replaced(hands, seat, take(hands[seat], cards))
        if known[seat]:
            known = replaced(known, seat, forget(known[seat], cards))
    kind, count, high, high_seat = state.kind, state.count, state.high, state.high_seat
    if play.special:
        kind = DONKEY_TRICK if play.special == DONKEY else OX_TRICK
        count, high, high_seat = 1, 0, seat  # the donkey (ox) is worth 0
    elif play.numbers or play.jokers:
        if kind == NORMAL:
            # The leader fixes the count; the last set played is the highest.
            count = count or play.numbers + play.jokers
            high, high_seat = play.value, seat
        elif play.value >= high:
            high, high_seat = play.value, seat  # on a tie the last one takes
    return replace(state, hands=hands, known=known, plays=(*state.plays, play), kind=kind,
                   count=count, high=high, high_seat=high_seat,
                   turn=next_in_trick(state, seat, hands))


def _apply_deal(state: TrickEngineState, ev: Event) -> TrickEngineState:
    d = ev.data
    n = state.players
    hands = tuple(sorted_cards(ids(ev.private[s]["hand"])) for s in range(n))
    known = tuple((DONKEY,) if s == d["donkey"] else () for s in range(n))
    return replace(
        state, round=d["round"], trick=1, hands=hands, known=known,
        centre=ids(d["centre"]), piles=((),) * n, discards=(0,) * (DONKEY + 1),
        leader=d["leader"], turn=d["leader"], kind=NORMAL, count=0, high=0,
        high_seat=NOBODY, plays=(), donkey_from=1, ox_from=1)


def _from_centre(state: TrickEngineState, seat: int, card: int) -> TrickEngineState:
    """Ox variant: `seat` takes `card` from the centre into their hand, in view of all."""
    return replace(state, centre=tuple(c for c in state.centre if c != card),
                   hands=replaced(state.hands, seat, sorted_cards((*state.hands[seat], card))),
                   known=replaced(state.known, seat, sorted_cards((*state.known[seat], card))))


def _next_trick(state: TrickEngineState, winner: int, **changes: Any) -> TrickEngineState:
    """Clear the table; the trick's winner (taker) leads the next trick."""
    return replace(state, trick=state.trick + 1, leader=winner, turn=winner, kind=NORMAL,
                   count=0, high=0, high_seat=NOBODY, plays=(), **changes)
