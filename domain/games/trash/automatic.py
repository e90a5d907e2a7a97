"""Trash's forced steps, as the rulebook tells them: what follows a choice, card by card.

Each function emits events through a `Play` (`domain.games.common`), which folds them as it
goes, so every rule reads the state its previous step left. Every placement is its own event, so
a replay shows the chain card by card.
"""

from __future__ import annotations

import random

from domain.events import event
from domain.games.common import HIDDEN, Play, places
from domain.games.trash.cards import CODES, DECK_SIZE, RANK, TEN, codes
from domain.games.trash.evolve import evolve
from domain.games.trash.state import (
    TrashState,
    face_down_slots,
    is_wild,
    placeable,
    stalemate,
)


def begin(state: TrashState) -> Play[TrashState]:
    """A `Play` from `state`: the events emitted through it are folded by Trash's evolve."""
    return Play(state, evolve)


def deal(play: Play[TrashState], leader: int, chosen: str, rng: random.Random) -> None:
    """Layout: every player is dealt one card face down per slot; the rest of the
    shuffled cards form the stock, the discard pile starts empty. Nobody may look at
    face-down cards, so the deal goes in the private part no seat receives."""
    state = play.state
    deck = list(range(DECK_SIZE)) * state.decks
    rng.shuffle(deck)
    layouts: list[list[str]] = []
    at = 0
    for size in state.slots:
        layouts.append(codes(deck[at:at + size]))
        at += size
    play.emit(event("round_dealt", round=state.round + 1, leader=leader, leader_chosen=chosen,
                    slots=list(state.slots), stock_size=len(deck) - at,
                    private={HIDDEN: {"layouts": layouts, "stock": codes(deck[at:])}}))
    start_turn(play, leader, rng)


def place(play: Play[TrashState], seat: int, slot: int) -> None:
    """Put the card in hand face up on `slot` and take the card that was there."""
    state = play.state
    under = state.layout[seat][slot - 1]
    play.emit(event("card_placed", seat, seat=seat, slot=slot, card=CODES[state.hand],
                    taken=CODES[under],
                    over="wild" if state.face_up[seat][slot - 1] else "face_down"))


def play_on(play: Play[TrashState], seat: int, rng: random.Random) -> None:
    """Rule 2, Place: play the card in hand on until a choice is pending or the turn ends."""
    while True:
        state = play.state
        layout, face_up = state.layout[seat], state.face_up[seat]
        # Rule 3: when every slot is face up (wilds count) the player wins the round at once.
        # Decision: with no face-down slot left a wild is discarded (so is any card in hand).
        if all(face_up):
            play.emit(event("card_discarded", seat, seat=seat, card=CODES[state.hand],
                            reason="layout_complete"))
            win_round(play, seat, rng)
            return
        card = state.hand
        if is_wild(state, card):
            # Decision: wilds go on face-down slots only; placing is mandatory.
            down = face_down_slots(state, seat)
            if len(down) > 1:
                return  # the player chooses the slot: TrashPlaceWild
            place(play, seat, down[0])
            continue
        number = RANK[card]
        if number > TEN:
            reason = "not_wild"  # a queen or king that is not wild ends the turn
        elif number > len(layout):
            reason = "above_layout"
        elif not face_up[number - 1]:
            place(play, seat, number)  # a number on its face-down slot: take the card
            continue
        elif is_wild(state, layout[number - 1]):
            return  # the player chooses: TrashDisplace or TrashDiscard
        else:
            reason = "slot_filled"  # the slot already shows that number face up
        discard_and_end_turn(play, seat, reason, rng)  # anything else is unplayable
        return


def discard_and_end_turn(play: Play[TrashState], seat: int, reason: str,
                         rng: random.Random) -> None:
    """The card in hand is discarded face up; it is the next player's turn."""
    play.emit(event("card_discarded", seat, seat=seat, card=CODES[play.state.hand],
                    reason=reason))
    following = (seat + 1) % play.state.players
    play.emit(event("turn_ended", seat, seat=seat, next=following))
    start_turn(play, following, rng)


def start_turn(play: Play[TrashState], seat: int, rng: random.Random) -> None:
    """Before `seat` draws: a stalled round is void; an empty stock is rebuilt from the
    discard pile minus its top card; with nothing to draw the turn passes."""
    for _ in range(play.state.players):
        state = play.state
        if stalemate(state):
            void_round(play, rng)
            return
        if not state.stock and len(state.discard) > 1:
            stock = list(state.discard[:-1])
            rng.shuffle(stock)
            play.emit(event("stock_reshuffled", seat=seat, size=len(stock),
                            top=CODES[state.discard[-1]],
                            private={HIDDEN: {"stock": codes(stock)}}))
            return
        if state.stock or (state.discard and placeable(state, seat, state.discard[-1])):
            return
        # Decision: if that leaves the stock empty and the discard is not placeable, the
        # player's turn passes. (Someone can place it, or the round would be stalled.)
        following = (seat + 1) % state.players
        play.emit(event("turn_passed", seat=seat, next=following))
        seat = following


def win_round(play: Play[TrashState], seat: int, rng: random.Random) -> None:
    """The round winner's layout shrinks by one slot and the winner leads the next round.
    Decision: no one gets a last turn."""
    before = play.state
    play.emit(event("round_won", seat, seat=seat, round=before.round,
                    slots=before.slots[seat] - 1))
    end_round(play, seat, rng)


def void_round(play: Play[TrashState], rng: random.Random) -> None:
    """A stalled round can never be won: nobody's layout shrinks, its leader leads again."""
    state = play.state
    play.emit(event("round_void", round=state.round, reason="no_placeable_card"))
    end_round(play, None, rng)


def end_round(play: Play[TrashState], winner: int | None, rng: random.Random) -> None:
    state = play.state
    reason = game_end(state, winner)
    if reason:
        play.emit(event("game_ended", reason=reason, slots=list(state.slots),
                        places=places(state.slots, lower_is_better=True)))
    elif winner is None:
        deal(play, state.leader, "void_round_leader", rng)
    else:
        deal(play, winner, "round_winner", rng)


def game_end(state: TrashState, winner: int | None) -> str:
    """Why the game ends after this round, or "" if it goes on."""
    left = None if winner is None else state.slots[winner]
    if state.target_slots == 0 and left == 0:
        return "one_slot_won"  # standard end: a round won holding a single slot
    if state.target_slots and left == state.target_slots:
        return "target_slots"  # variant 1: the first layout shrunk to the target
    if state.max_rounds is not None and state.round >= state.max_rounds:
        return "max_rounds"  # variant 2: after that many rounds the fewest slots wins
    return ""

