"""What differs between the games of the family: one `TrickConfig` per game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from domain.game import OptionSpec


@dataclass(frozen=True, kw_only=True)
class TrickConfig:
    """What differs between the games of the family."""

    id: str
    title: str
    jokers: int
    hand_sizes: Mapping[int, int]  # players -> cards per player
    rounds_option: str  # the option counting rounds: "rounds" or "deals"
    options: tuple[OptionSpec, ...]
    rules: tuple[str, ...]
    # The donkey: False = the first player holds it on top of the deal (Ochs & Esel);
    # True = shuffled in among the first `donkey_within` cards, dealt one at a time.
    donkey_shuffled_in: bool = False
    donkey_within: int = 39
    joker_values: tuple[int, ...] = (1,)  # a joker's worth in a donkey trick; first = default
    has_ox: bool = False  # the ox variant may be chosen (option `ox_variant`)
    min_players: int = 3
    max_players: int = 12
