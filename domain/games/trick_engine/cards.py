"""The cards of the Ochs & Esel family, and how they are written on the wire.

Cards are small ints: number cards 1-13, `JOKER` 14, `OX` 15, `DONKEY` 20, so a card's id is
also its penalty when it is left in a hand. Hands are sorted tuples of ids. On the wire
(actions, events, views) number cards are ints and the others are named: "joker", "ox",
"donkey".
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable

NUMBERS = range(1, 14)  # values 1-13
COPIES = 8  # eight copies of each value
DECK_NUMBERS = tuple(v for v in NUMBERS for _ in range(COPIES))  # the 104 number cards
JOKER = 14
OX = 15
DONKEY = 20
SPECIALS = (OX, DONKEY)
JOKERS_ALONE = 14  # a set of jokers only is worth 14 and cannot be beaten

CARD_NAMES: dict[int, str] = {JOKER: "joker", OX: "ox", DONKEY: "donkey"}
CARD_IDS: dict[str, int] = {name: card for card, name in CARD_NAMES.items()}


def pile_penalty(card: int) -> int:
    """In an ox pile: a number card its value, a joker 1, the ox 0."""
    return card if card <= 13 else 1 if card == JOKER else 0


def take(hand: tuple[int, ...], cards: Iterable[int]) -> tuple[int, ...]:
    """`hand` without `cards` (which it holds); stays sorted."""
    for card in cards:
        i = bisect_left(hand, card)
        hand = hand[:i] + hand[i + 1:]
    return hand


def forget(known: tuple[int, ...], cards: Iterable[int]) -> tuple[int, ...]:
    """Known cards once `cards` left the hand: each leaves at most one known copy."""
    for card in cards:
        if card in known:
            known = take(known, (card,))
    return known


def sorted_cards(cards: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(cards))


def card_id(card: int | str) -> int:
    return card if isinstance(card, int) else CARD_IDS[card]


def ids(cards: Iterable[int | str]) -> tuple[int, ...]:
    """Wire cards to a sorted tuple of ids."""
    return sorted_cards(card_id(c) for c in cards)


def names(cards: Iterable[int]) -> list[int | str]:
    """Ids to wire cards."""
    return [c if c <= 13 else CARD_NAMES[c] for c in cards]
