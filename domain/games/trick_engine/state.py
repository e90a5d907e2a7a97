"""The state of a game of the Ochs & Esel family, and the questions the rules ask of it.

The state is the whole truth (every hand, the ox piles' contents); `view` decides what a
seat may see of it. Everything inside is a tuple of ints, so a state is cheap to copy and
survives a JSON round trip unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from domain.games.trick_engine.cards import DONKEY, JOKER, OX, SPECIALS, sorted_cards

NORMAL, DONKEY_TRICK, OX_TRICK = 0, 1, 2
TRICK_KINDS = ("normal", "donkey", "ox")

NOBODY = -1


class TrickEnginePlay(msgspec.Struct, frozen=True, array_like=True):
    """One play of the current trick. A pass has no cards; a donkey/ox lead has `special`;
    a set or a single card has `numbers` cards of `value` and `jokers` jokers (in a
    donkey/ox trick `value` is the card's worth, so a joker's declared value)."""

    seat: int
    value: int = 0
    numbers: int = 0
    jokers: int = 0
    special: int = 0

    def cards(self) -> tuple[int, ...]:
        out = (self.value,) * self.numbers + (JOKER,) * self.jokers
        return (*out, self.special) if self.special else out


class TrickEngineState(msgspec.Struct, frozen=True, kw_only=True):
    players: int
    rounds: int
    ox_variant: bool = False
    first_player: int = NOBODY  # option; NOBODY = drawn at random in setup
    round: int = 0  # 1-based; 0 before the first deal
    trick: int = 0  # 1-based within the round
    hands: tuple[tuple[int, ...], ...] = ()
    known: tuple[tuple[int, ...], ...] = ()  # cards everyone saw go into each hand
    centre: tuple[int, ...] = ()  # ox variant: specials not taken yet
    piles: tuple[tuple[int, ...], ...] = ()  # ox penalty piles, face down
    discards: tuple[int, ...] = ()  # count per card id of cards out of play this round
    leader: int = NOBODY
    turn: int = NOBODY
    kind: int = NORMAL
    count: int = 0  # cards per set, fixed by the leader
    high: int = 0  # value of the highest play so far
    high_seat: int = NOBODY  # who made it (the trick's winner or taker so far)
    plays: tuple[TrickEnginePlay, ...] = ()
    donkey_from: int = 1  # first trick in which the donkey may be led (lock)
    ox_from: int = 1
    scores: tuple[tuple[int, ...], ...] = ()  # penalties per round, per seat
    over: bool = False


def next_in_trick(state: TrickEngineState, seat: int,
                  hands: tuple[tuple[int, ...], ...]) -> int:
    """The next seat clockwise to act in this trick, skipping empty hands; NOBODY once
    every player has acted (the turn is back at the leader)."""
    n = state.players
    nxt = (seat + 1) % n
    while nxt != state.leader:
        if hands[nxt]:
            return nxt
        nxt = (nxt + 1) % n
    return NOBODY


def lock_waived(state: TrickEngineState, hand: tuple[int, ...]) -> bool:
    """Decision: a leader holding only locked special cards may lead one anyway."""
    if not hand or any(c not in SPECIALS for c in hand):
        return False
    return (DONKEY not in hand or state.trick < state.donkey_from) and \
        (OX not in hand or state.trick < state.ox_from)


def table_cards(plays: Iterable[TrickEnginePlay]) -> tuple[int, ...]:
    """Every card on the table, in the order played."""
    return tuple(c for p in plays for c in p.cards())


def out_of_play(state: TrickEngineState) -> tuple[int, ...]:
    """Cards everyone saw leave play this round: discarded tricks and the ox piles."""
    cards = [c for c, k in enumerate(state.discards) for _ in range(k)]
    return sorted_cards(tuple(cards) + tuple(c for p in state.piles for c in p))


def totals(state: TrickEngineState) -> list[int]:
    """Each seat's penalty points over the rounds scored so far."""
    return [sum(r[s] for r in state.scores) for s in range(state.players)]
