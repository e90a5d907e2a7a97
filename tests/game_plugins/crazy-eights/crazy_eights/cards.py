"""The deck: 52 cards, no jokers. A card is an int 0..51, `rank * 4 + suit`; on the wire
its code, rank then suit: `AS`, `8H`, `10D`, `QC`. Eights are wild."""

from __future__ import annotations

from collections.abc import Iterable

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
CODES = tuple(rank + suit for rank in RANKS for suit in SUITS)
CARD = {code: card for card, code in enumerate(CODES)}
DECK_SIZE = len(CODES)
EIGHT = RANKS.index("8")


def rank(card: int) -> int:
    return card // 4


def suit(card: int) -> int:
    return card % 4


def is_eight(card: int) -> bool:
    return rank(card) == EIGHT


def penalty(card: int) -> int:
    """What a card left in hand costs at the end: an eight 50, a picture 10, an ace 1,
    the others their number."""
    if is_eight(card):
        return 50
    return min(rank(card) + 1, 10)


def codes(cards: Iterable[int]) -> list[str]:
    return [CODES[c] for c in cards]


def cards(found: Iterable[str]) -> tuple[int, ...]:
    return tuple(CARD[code] for code in found)
