"""What follows by itself in a game of the Ochs & Esel family: the deal, the end of a
trick (who wins or takes it, the ox variant's specials), the end of a round (scoring, the
next deal) and the end of the game. The deal is the only random step; its outcome, the
hands, is recorded in the event."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from domain.events import Event, event
from domain.games.common import Play, places
from domain.games.trick_engine.cards import (
    CARD_NAMES,
    DECK_NUMBERS,
    DONKEY,
    JOKER,
    OX,
    names,
    pile_penalty,
)
from domain.games.trick_engine.config import TrickConfig
from domain.games.trick_engine.state import (
    DONKEY_TRICK,
    NORMAL,
    TrickEngineState,
    table_cards,
    totals,
)


# --- The deal ----------------------------------------------------------------------------
def deal(config: TrickConfig, state: TrickEngineState, number: int, leader: int | None,
         rng: random.Random) -> Event:
    """Shuffle everything but the specials (a full reshuffle every round) and deal."""
    n = state.players
    size = config.hand_sizes[n]
    deck = [*DECK_NUMBERS, *(JOKER,) * config.jokers]
    rng.shuffle(deck)
    if config.donkey_shuffled_in:
        # Crazy Donkey: the donkey goes at a random place among the first 39 cards,
        # then the cards are dealt one at a time (it counts among a hand's cards).
        # The dealing starts one seat further every deal.
        position = rng.randrange(config.donkey_within)
        deck.insert(position, DONKEY)
        start = (number - 1) % n
        hands = [deck[(s - start) % n: n * size: n] for s in range(n)]
        return dealt(number, hands, (start + position) % n,
                     donkey_position=position, first_card_to=start)
    hands = [deck[s * size:(s + 1) * size] for s in range(n)]
    if state.ox_variant:
        # Ox variant: nobody gets the donkey; ox and donkey lie in the centre.
        assert leader is not None
        return dealt(number, hands, leader, centre=(OX, DONKEY))
    # Base game: the first player (later: the donkey's holder) holds the donkey.
    assert leader is not None
    hands[leader].append(DONKEY)
    return dealt(number, hands, leader)


def dealt(number: int, hands: Sequence[Sequence[int]], leader: int,
          centre: Sequence[int] = (), **public: Any) -> Event:
    """The `round_dealt` event: hands (ids, the donkey included) go in private parts."""
    donkey = next((s for s, h in enumerate(hands) if DONKEY in h), None)
    return event(
        "round_dealt",
        private={s: {"hand": names(sorted(h))} for s, h in enumerate(hands)},
        round=number, leader=leader, hand_sizes=[len(h) for h in hands],
        donkey=donkey, centre=names(centre), **public)


# --- The end of a trick, a round, the game -----------------------------------------------
def end_trick(config: TrickConfig, play: Play[TrickEngineState], rng: random.Random) -> None:
    state = play.state
    trick, winner = state.trick, state.high_seat
    if state.kind == NORMAL:
        # The highest set (always the last one played) wins; the winner leads next.
        play.emit(event("trick_won", trick=trick, seat=winner))
    elif state.kind == DONKEY_TRICK:
        play.emit(event("donkey_trick_taken", trick=trick, seat=winner,
                        cards=names(table_cards(state.plays))))
    else:
        play.emit(event("ox_trick_taken", trick=trick, seat=winner,
                        count=len(table_cards(state.plays))))
    # Ox variant: the winner of trick 1 takes the ox, of trick 2 the donkey.
    for card, when in ((OX, 1), (DONKEY, 2)):
        if trick == when and card in play.state.centre:
            play.emit(event(f"{CARD_NAMES[card]}_taken", trick=trick, seat=winner))
    # End of a round: once the cards are handed out, someone has an empty hand.
    if any(not h for h in play.state.hands):
        _end_round(config, play, rng)


def _end_round(config: TrickConfig, play: Play[TrickEngineState], rng: random.Random) -> None:
    state = play.state
    in_hand = [sum(h) for h in state.hands]  # a card's id is its penalty in hand
    in_pile = [sum(pile_penalty(c) for c in p) for p in state.piles]
    penalties = [h + p for h, p in zip(in_hand, in_pile, strict=True)]
    state = play.emit(event("round_scored", round=state.round, hand_penalties=in_hand,
                            pile_penalties=in_pile, penalties=penalties,
                            out=[s for s, h in enumerate(state.hands) if not h]))
    if state.round >= state.rounds:
        # Fewest penalty points first; ties share the place (competition ranking).
        final = totals(state)
        play.emit(event("game_ended", totals=final,
                        places=places(final, lower_is_better=True)))
        return
    # The donkey's holder leads the next round; if nobody holds it (ox variant), the
    # winner of the last trick does.
    holder = next((s for s, h in enumerate(state.hands) if DONKEY in h), state.leader)
    play.emit(deal(config, state, state.round + 1, holder, rng))
