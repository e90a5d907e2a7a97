"""The state of a Grand Canyon game and the actions a seat may send.

The state is the whole truth (hidden loads and the donkey deck included); `view` decides
what a seat may see of it. Everything inside is a tuple, so a state is hashable, cheap to
copy with `msgspec.structs.replace` and survives a JSON round trip unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from domain.games.canyon_donkeys.donkeys import DEFAULT_COMPOSITION, DIFFICULT, Card, loads_each
from domain.games.common import places

# Phases. Players act in the first group; the engine resolves the second group at once.
SETUP = "setup"
LOAD = "load"  # everyone plays load card(s) face down (one by one on the difficult donkey)
FAVOURS = "favours"  # clockwise from the first player: call a favour or not
LOOKS = "looks"  # favour 10 and holed-donkey looks, all at once
CONTRACT = "contract"  # clockwise from the first player: accept or refuse
LATE_FAVOURS = "late_favours"  # favours 4 and 6, clockwise
REWARD = "reward"  # favour 8 callers who were right
OVER = "over"

NEXT_DONKEY = "next_donkey"  # reveal the next donkey, resume the lost round, or end
SET_ASIDE = "set_aside"  # the lost donkey's loads go under it
REVEAL = "reveal"  # reveal and add up (or the stubborn donkey refuses to)
SCORE = "score"  # winners take their cards, refusers draw, the rest is discarded
ROUND_END = "round_end"  # the first-player card passes clockwise

PLAYER_PHASES = frozenset({LOAD, FAVOURS, LOOKS, CONTRACT, LATE_FAVOURS, REWARD})
AUTOMATIC_PHASES = frozenset({NEXT_DONKEY, SET_ASIDE, REVEAL, SCORE, ROUND_END})

CARD_VALUES = tuple(range(1, 11))


class CanyonState(msgspec.Struct, frozen=True, kw_only=True):
    players: int
    # Options (public): an explicit ordered deck, the 20-card composition, the first seat.
    deck_option: tuple[str, ...] | None = None
    composition: tuple[tuple[str, int], ...] = DEFAULT_COMPOSITION
    first_option: int | None = None

    phase: str = SETUP
    round: int = 0  # rounds begun, the resumed lost round included
    first: int = 0  # who holds the first-player card
    deck: tuple[str, ...] = ()  # hidden: the donkeys still to come, next first
    removed_donkeys: tuple[str, ...] = ()  # hidden: removed unseen by the double donkey
    seen: tuple[str, ...] = ()  # every donkey revealed so far, in order
    donkey: str = ""  # the current donkey card
    effect: str = ""  # the type it acts as (a last double or a resumed lost one: normal)
    limit: int = 0  # its capacity, or the precision donkey's gap

    hands: tuple[tuple[int, ...], ...] = ()  # values, each seat's own colour, sorted
    loads: tuple[tuple[Card, ...], ...] = ()  # this round's load cards per seat
    shown: tuple[Card, ...] = ()  # load cards played face up (difficult donkey)
    set_aside: tuple[tuple[tuple[Card, ...], ...], ...] = ()  # lost rounds waiting

    favours_used: tuple[int, ...] = ()
    favour: tuple[int, ...] = ()  # the favour card called this round, 0 = none
    order: tuple[int, ...] = ()  # who acts, in turn, in a sequential phase
    turn: int = 0  # index into `order`
    looks_left: tuple[int, ...] = ()
    looks: tuple[tuple[tuple[int, int, int], ...], ...] = ()  # per seat: (target, slot, value)
    contract: tuple[bool | None, ...] = ()  # True accept, False refuse, None not yet
    exchanges: tuple[tuple[int, int, int], ...] = ()  # favour 4: (seat, slot, returned value)

    revealed: bool = False
    overloaded: bool = False
    removed: tuple[Card, ...] = ()  # removed at the reveal (attacked, picky); still in loads
    excluded: tuple[int, ...] = ()  # seats scoring nothing this round (attacked)

    won: tuple[tuple[Card, ...], ...] = ()  # score piles
    discard: tuple[Card, ...] = ()  # revealed cards nobody won
    favour_cards: tuple[Card, ...] = ()  # discarded face up to call favours
    buried: tuple[tuple[int, ...], ...] = ()  # per seat: own loads removed unrevealed (stubborn)
    memory: tuple[tuple[Card, ...], ...] = ()  # per seat: buried cards it looked at


def clockwise(first: int, players: int) -> tuple[int, ...]:
    """All seats, clockwise from `first`."""
    return tuple((first + i) % players for i in range(players))


def seats_to_act(state: CanyonState) -> frozenset[int]:
    """Every seat that may act now: several while loading or looking, else one."""
    phase = state.phase
    if phase == LOAD:
        if state.effect == DIFFICULT:
            # The difficult donkey: loads one by one, clockwise from the first player.
            return frozenset((state.order[state.turn],))
        need = loads_each(state.effect)
        return frozenset(s for s, load in enumerate(state.loads) if len(load) < need)
    if phase == LOOKS:
        return frozenset(s for s, left in enumerate(state.looks_left) if left)
    if phase in (FAVOURS, CONTRACT, LATE_FAVOURS, REWARD):
        return frozenset((state.order[state.turn],))
    return frozenset()


def standings(state: CanyonState) -> tuple[list[int], list[int], list[int]]:
    """Totals of won values, won card counts, and places: the highest total first, then the
    most won cards; still tied seats share the place (competition ranking, 1, 1, 3)."""
    totals = [sum(v for _, v in won) for won in state.won]
    counts = [len(won) for won in state.won]
    keys = list(zip(totals, counts, strict=True))
    return totals, counts, places(keys, lower_is_better=False)


def look_targets(state: CanyonState, seat: int) -> list[tuple[int, int]]:
    """Other players' face-down load cards this seat has not looked at yet."""
    seen = {(t, s) for t, s, _ in state.looks[seat]}
    return [(t, s) for t in range(state.players) if t != seat
            for s, card in enumerate(state.loads[t])
            if card not in state.shown and (t, s) not in seen]


def pile(state: CanyonState) -> list[Card]:
    """The overloaded donkey's pile: every load card still on the table that counts."""
    return [c for load in state.loads for c in load if c not in state.removed]


def swaps(state: CanyonState, seat: int) -> list[tuple[Card, Card]]:
    """Favour 8 for an accepter: (own counted card, another player's counted card)."""
    mine = [c for c in state.loads[seat] if c not in state.removed]
    theirs = [c for s, load in enumerate(state.loads) if s != seat
              for c in load if c not in state.removed]
    return [(g, t) for g in mine for t in theirs]



def as_card(raw: Sequence[int]) -> Card:
    """A card from the wire (`[owner, value]`)."""
    return (int(raw[0]), int(raw[1]))


def as_cards(raw: Iterable[Sequence[int]]) -> list[Card]:
    return [as_card(c) for c in raw]
