"""The five favours: a load card worth 2, 4, 6, 8 or 10 discarded face up for a service.

When each favour acts:
- 10 (look) and the holed donkey's look: after the favour calls, before the contract;
- 2 (last word): during the contract, its caller decides after everyone else;
- 4 (exchange) and 6 (adjust): after all decisions, clockwise from the first player;
- 8 (reward): after the reveal, for a caller who was right.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.games.canyon_donkeys.donkeys import GAP_MAX, GAP_MIN, HURRIED, PRECISION

LAST_WORD = 2  # decide accept/refuse after everyone else has decided
EXCHANGE = 4  # after all decisions, exchange your face-down load for a card from your hand
ADJUST = 6  # after all decisions, raise or lower the capacity (or precision gap) by 2
REWARD = 8  # right: swap your load card (accepted) or choose your card (refused)
LOOK = 10  # before deciding, look at ⌊P/2⌋ load cards of other players

FAVOUR_CARDS = (LAST_WORD, EXCHANGE, ADJUST, REWARD, LOOK)
LATE_FAVOURS = (EXCHANGE, ADJUST)
MAX_PER_GAME = 2  # "deux faveurs maximum"
ADJUST_STEP = 2
NO_FAVOUR = 0


def may_call(effect: str, used: int) -> bool:
    """Whether a player may be asked for a favour at all: not on the hurried donkey, and
    not after two favours this game (both facts are public)."""
    return effect != HURRIED and used < MAX_PER_GAME


def looks_granted(cards_played: int) -> int:
    """Favour 10: ⌊P/2⌋ cards, P = load cards played this round, the caller's included."""
    return cards_played // 2


def contract_order(clockwise: Sequence[int], favour: Sequence[int]) -> tuple[int, ...]:
    """Clockwise from the first player; favour 2 callers decide last, clockwise too."""
    early = tuple(seat for seat in clockwise if favour[seat] != LAST_WORD)
    return early + tuple(seat for seat in clockwise if favour[seat] == LAST_WORD)


def late_order(clockwise: Sequence[int], favour: Sequence[int]) -> tuple[int, ...]:
    """Favours 4 and 6 resolve after all decisions, clockwise from the first player."""
    return tuple(seat for seat in clockwise if favour[seat] in LATE_FAVOURS)


def adjusted(effect: str, limit: int, delta: int) -> int:
    """Favour 6: capacity ± 2; on the precision donkey the gap ± 2, kept within 1–9."""
    if effect == PRECISION:
        return max(GAP_MIN, min(GAP_MAX, limit + delta))
    return limit + delta


def was_right(accepted: bool, overloaded: bool) -> bool:
    """Favour 8 needs the caller to have been right: accepted and not overloaded, or
    refused and overloaded."""
    return accepted != overloaded
