"""What follows by itself in the Grand Canyon game: the steps nobody chooses.

The next donkey is revealed (or the lost round resumes, or the game ends), a lost donkey's
loads are set aside, the loads are revealed and added up (or the stubborn donkey refuses),
the round is scored (refusers draw at random from an overloaded donkey's pile), and the
first-player card passes on. Each random draw's outcome is recorded in its event.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from domain.events import Event, event
from domain.games.canyon_donkeys import donkeys as dk
from domain.games.canyon_donkeys.donkeys import Card
from domain.games.canyon_donkeys.state import (
    AUTOMATIC_PHASES,
    NEXT_DONKEY,
    REVEAL,
    ROUND_END,
    SCORE,
    SET_ASIDE,
    CanyonState,
    clockwise,
    pile,
    standings,
)
from domain.games.common import HIDDEN, Play


def run(play: Play[CanyonState], rng: random.Random) -> None:
    """The events nobody chooses, until a player must act or the game is over."""
    while play.state.phase in AUTOMATIC_PHASES:
        play.emit(*_AUTOMATIC[play.state.phase](play.state, rng))


def _auto_next_donkey(state: CanyonState, rng: random.Random) -> list[Event]:
    n = state.players
    if state.deck:
        # Reveal the next donkey.
        donkey, left = state.deck[0], len(state.deck) - 1
        effect = dk.effect_of(donkey, left)
        limit = dk.limit_of(effect, n)
        size = {"gap": limit} if effect == dk.PRECISION else {"capacity": limit}
        out = [event("donkey_revealed", round=state.round + 1, donkey=donkey, effect=effect,
                     left=left, **size)]
        if effect == dk.DOUBLE:
            # The double donkey counts as two: the last donkey of the deck is removed unseen.
            out.append(event("donkey_removed", left=left - 1,
                             private={HIDDEN: {"donkey": state.deck[-1]}}))
        return out
    if state.set_aside:
        # After every other donkey, the lost round resumes from step 2 (5 × players).
        return [event("lost_resumed", round=state.round + 1,
                      capacity=dk.limit_of(dk.NORMAL, n))]
    totals, counts, places = standings(state)
    return [event("game_ended", totals=totals, won_cards=counts, places=places)]


def _auto_set_aside(state: CanyonState, rng: random.Random) -> list[Event]:
    # The lost donkey: all loads go under it, face down, until the end.
    return [event("loads_set_aside", round=state.round)]


def _auto_reveal(state: CanyonState, rng: random.Random) -> list[Event]:
    refusers = sum(1 for c in state.contract if c is False)
    if dk.balks(state.effect, refusers, state.players):
        # The stubborn donkey: no reveal, every load card is removed, nobody scores.
        return [event("loads_buried", refused=refusers)]
    cards = [c for load in state.loads for c in load]
    removed = dk.removed_at_reveal(state.effect, cards)
    excluded = dk.excluded_at_reveal(state.effect, state.loads, removed)
    counted = [c for c in cards if c not in removed]
    over = dk.is_overloaded(state.effect, counted, state.limit)
    return [event("loads_revealed", loads=[[list(c) for c in load] for load in state.loads],
                  removed=[list(c) for c in removed], excluded=list(excluded),
                  total=sum(v for _, v in counted), overloaded=over)]


def _auto_score(state: CanyonState, rng: random.Random) -> list[Event]:
    order = clockwise(state.first, state.players)
    won: list[tuple[int, Card]] = []
    if not state.overloaded:
        # Not overloaded: every accepter wins their own load card(s).
        won = [(s, c) for s in order if state.contract[s] and s not in state.excluded
               for c in state.loads[s] if c not in state.removed]
    else:
        # Overloaded: the loads are shuffled into a pile and each refuser, clockwise from
        # the first player, wins one card at random (favour 8 callers chose already).
        drawn = pile(state)
        rng.shuffle(drawn)
        for s in order:
            if drawn and state.contract[s] is False and s not in state.excluded \
                    and s not in state.order:
                won.append((s, drawn.pop()))
    taken = {c for _, c in won}
    discarded = [c for load in state.loads for c in load if c not in taken]
    return [event("round_scored", overloaded=state.overloaded,
                  won=[[s, list(c)] for s, c in won], discarded=[list(c) for c in discarded])]


def _auto_round_end(state: CanyonState, rng: random.Random) -> list[Event]:
    # The first-player card passes clockwise.
    return [event("round_ended", round=state.round,
                  first_player=(state.first + 1) % state.players)]



_AUTOMATIC: dict[str, Callable[[CanyonState, random.Random], list[Event]]] = {
    NEXT_DONKEY: _auto_next_donkey, SET_ASIDE: _auto_set_aside, REVEAL: _auto_reveal,
    SCORE: _auto_score, ROUND_END: _auto_round_end,
}
