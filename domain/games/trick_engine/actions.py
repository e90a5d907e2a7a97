"""The actions of the Ochs & Esel family (tag field `type`).

- `{"type": "play_set", "value": 11, "numbers": 2, "jokers": 1}`: a set in a normal trick
  (jokers only: value 14, numbers 0);
- `{"type": "pass"}`;
- `{"type": "play_donkey"}`, `{"type": "play_ox"}`: lead the donkey / the ox alone;
- `{"type": "play_card", "card": 7}` or `{"type": "play_card", "card": "joker"}`: the one
  card of a donkey or ox trick (Crazy Donkey: `"value": 1` or `14` declares the joker).
"""

from __future__ import annotations

from typing import Literal

import msgspec


class TrickPlaySet(msgspec.Struct, frozen=True, tag_field="type", tag="play_set",
                   omit_defaults=True):
    """A set in a normal trick: `numbers` cards of `value` plus `jokers` jokers."""

    value: int
    numbers: int = 0
    jokers: int = 0


class TrickPass(msgspec.Struct, frozen=True, tag_field="type", tag="pass"):
    """Pass (normal trick), or the forced pass of a hand of only donkey/ox."""


class TrickPlayDonkey(msgspec.Struct, frozen=True, tag_field="type", tag="play_donkey"):
    """Lead the donkey alone: a donkey trick."""


class TrickPlayOx(msgspec.Struct, frozen=True, tag_field="type", tag="play_ox"):
    """Lead the ox alone: an ox trick (ox variant)."""


class TrickPlayCard(msgspec.Struct, frozen=True, tag_field="type", tag="play_card",
                    omit_defaults=True):
    """The one card of a donkey or ox trick; `value` declares a joker (1 or 14)."""

    card: int | Literal["joker"]
    value: int | None = None


TrickAction = TrickPlaySet | TrickPass | TrickPlayDonkey | TrickPlayOx | TrickPlayCard
