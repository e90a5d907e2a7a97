"""Trash's actions: each answers the choice the game waits for (see `rules.py`)."""

from __future__ import annotations

from typing import Literal

import msgspec


class TrashDraw(msgspec.Struct, frozen=True, tag_field="type", tag="draw"):
    """Draw the stock's top card, or the discard's top card when it is placeable."""

    source: Literal["stock", "discard"]


class TrashPlaceWild(msgspec.Struct, frozen=True, tag_field="type", tag="place_wild"):
    """Put the wild in hand face up on this face-down slot (1 = Ace) and take that card."""

    slot: int


class TrashDisplace(msgspec.Struct, frozen=True, tag_field="type", tag="displace"):
    """Put the number in hand on its slot in place of the face-up wild; take the wild."""


class TrashDiscard(msgspec.Struct, frozen=True, tag_field="type", tag="discard"):
    """Leave the face-up wild where it is: discard the number in hand, ending the turn."""


TrashAction = TrashDraw | TrashPlaceWild | TrashDisplace | TrashDiscard
