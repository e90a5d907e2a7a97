"""Trash's cards: standard 52-card decks without jokers; ranks matter, suits do not.

A card is an int 0..51 (fast to compare and store); its rank, A = 1 … K = 13, is
`card // 4 + 1`. On the wire a card is its code, rank then suit: `AS`, `7H`, `10D`, `QS`.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
CODES = tuple(rank + suit for rank in RANKS for suit in SUITS)
CARD = {code: card for card, code in enumerate(CODES)}
RANK = tuple(card // 4 + 1 for card in range(len(CODES)))
DECK_SIZE = len(CODES)

TEN = 10  # number cards are A (1) to 10
JACK = 11
NO_CARD = -1


def codes(cards: Iterable[int]) -> list[str]:
    return [CODES[card] for card in cards]


def cards(codes: Iterable[str]) -> tuple[int, ...]:
    return tuple(CARD[code] for code in codes)
