"""The twelve donkey types of the Grand Canyon donkey-loading game.

Each donkey card changes one thing about its round: the capacity (giant, puny, double),
the overload test (precision), which steps happen (hurried, holed, lost, stubborn,
difficult) or which load cards count (attacked, picky). This module says what each donkey
does; the game module asks it and never the other way round.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

Card = tuple[int, int]  # (owner seat, value 1–10): each player has one colour of 10 cards

# The donkey types, in the rulebook's order.
NORMAL = "normal"  # capacity 5 × players
GIANT = "giant"  # capacity 6 × players
PUNY = "puny"  # capacity 4 × players
PRECISION = "precision"  # no capacity: overloaded when highest − lowest > 5
HURRIED = "hurried"  # no favours this round
HOLED = "holed"  # each player may look at one other player's load card
ATTACKED = "attacked"  # the highest load card(s) are removed; their players score nothing
LOST = "lost"  # loads set aside; the round resumes from step 2 after the last donkey
DOUBLE = "double"  # counts as two: 10 × players, two loads each, removes the last donkey
STUBBORN = "stubborn"  # more than half refused: no reveal, all loads removed
DIFFICULT = "difficult"  # loads one by one clockwise; first and last face up
PICKY = "picky"  # load values that appear more than once are removed

TYPES = (NORMAL, GIANT, PUNY, PRECISION, HURRIED, HOLED, ATTACKED, LOST, DOUBLE, STUBBORN,
         DIFFICULT, PICKY)

# Assumption: the real split of the 20 donkey cards was not found (it is an option).
DEFAULT_COMPOSITION: tuple[tuple[str, int], ...] = (
    (NORMAL, 4), (GIANT, 2), (PUNY, 2), (PRECISION, 2), (HOLED, 2), (ATTACKED, 2),
    (HURRIED, 1), (LOST, 1), (DOUBLE, 1), (STUBBORN, 1), (DIFFICULT, 1), (PICKY, 1),
)
DECK_SIZE = 8  # "piochez-en huit au hasard"
# The most donkeys a composition may hold: three times the spec's 20. The deck drawn from it
# is 8 either way; a bound keeps one request from shuffling millions of cards.
MAX_COMPOSITION = 3 * sum(count for _, count in DEFAULT_COMPOSITION)

CAPACITY_PER_PLAYER = {GIANT: 6, PUNY: 4, DOUBLE: 10}
NORMAL_CAPACITY_PER_PLAYER = 5
PRECISION_GAP = 5
GAP_MIN, GAP_MAX = 1, 9  # favour 6 keeps the precision gap within 1–9


def effect_of(donkey: str, donkeys_left: int) -> str:
    """The type a donkey acts as: the double donkey drawn last is a normal donkey."""
    if donkey == DOUBLE and donkeys_left == 0:
        return NORMAL
    return donkey


def limit_of(effect: str, players: int) -> int:
    """The donkey's capacity, or for the precision donkey the largest allowed gap."""
    if effect == PRECISION:
        return PRECISION_GAP
    return CAPACITY_PER_PLAYER.get(effect, NORMAL_CAPACITY_PER_PLAYER) * players


def loads_each(effect: str) -> int:
    """How many load cards each player plays: two on the double donkey."""
    return 2 if effect == DOUBLE else 1


def removed_at_reveal(effect: str, cards: Sequence[Card]) -> tuple[Card, ...]:
    """The load cards that count for nobody once revealed (attacked and picky donkeys)."""
    if not cards:
        return ()
    if effect == ATTACKED:
        # The highest load card(s), all tied, are removed.
        top = max(value for _, value in cards)
        return tuple(card for card in cards if card[1] == top)
    if effect == PICKY:
        # Every card whose value appears more than once is removed.
        counts = Counter(value for _, value in cards)
        return tuple(card for card in cards if counts[card[1]] > 1)
    return ()


def excluded_at_reveal(effect: str, loads: Sequence[Sequence[Card]],
                       removed: Iterable[Card]) -> tuple[int, ...]:
    """Seats that score nothing this round: on the attacked donkey, whoever played a
    removed card (the picky donkey's players may still win as refusers)."""
    if effect != ATTACKED:
        return ()
    gone = set(removed)
    return tuple(seat for seat, load in enumerate(loads) if any(c in gone for c in load))


def is_overloaded(effect: str, cards: Sequence[Card], limit: int) -> bool:
    """Step 4: total > capacity; the precision donkey compares highest − lowest to its gap."""
    if not cards:
        return False
    values = [value for _, value in cards]
    if effect == PRECISION:
        return max(values) - min(values) > limit
    return sum(values) > limit


def balks(effect: str, refusers: int, players: int) -> bool:
    """The stubborn donkey: if more than half of the players refused, there is no reveal."""
    return effect == STUBBORN and 2 * refusers > players


def composition_deck(composition: Iterable[tuple[str, int]]) -> list[str]:
    """The donkey cards of a composition, one entry per card, in type order."""
    return [donkey for donkey, count in composition for _ in range(count)]
