"""The actions of the Grand Canyon game: imperative, tagged by `type`, one per choice.

Cards in a hand are named by value (a hand holds only its owner's colour); cards on the
table are `[owner, value]`; a face-down card of another player is `(seat, slot)`.
"""

from __future__ import annotations

import msgspec

from domain.games.canyon_donkeys.donkeys import Card


class CanyonLoad(msgspec.Struct, frozen=True, tag_field="type", tag="load"):
    """Play load card(s) face down: one, or two on the double donkey."""

    cards: tuple[int, ...]


class CanyonFavour(msgspec.Struct, frozen=True, tag_field="type", tag="favour"):
    """Call a favour by discarding this card (2, 4, 6, 8 or 10) face up."""

    card: int


class CanyonNoFavour(msgspec.Struct, frozen=True, tag_field="type", tag="no_favour"):
    """Call no favour this round."""


class CanyonLook(msgspec.Struct, frozen=True, tag_field="type", tag="look"):
    """Look at another player's face-down load card (favour 10, holed donkey)."""

    seat: int
    slot: int = 0


class CanyonStopLooking(msgspec.Struct, frozen=True, tag_field="type", tag="stop_looking"):
    """Look at no more cards this round: a look is a right (\"may look\"), not a duty."""


class CanyonContract(msgspec.Struct, frozen=True, tag_field="type", tag="contract"):
    """Accept (the total will fit) or refuse the contract."""

    accept: bool


class CanyonExchange(msgspec.Struct, frozen=True, tag_field="type", tag="exchange"):
    """Favour 4: take back the load card `load` and put `card` from the hand instead."""

    load: int
    card: int


class CanyonAdjust(msgspec.Struct, frozen=True, tag_field="type", tag="adjust"):
    """Favour 6: raise (+2) or lower (−2) the capacity, or the precision donkey's gap."""

    delta: int


class CanyonSwap(msgspec.Struct, frozen=True, tag_field="type", tag="swap"):
    """Favour 8, accepted and right: swap your load card `give` for another's `take`."""

    give: Card
    take: Card


class CanyonTake(msgspec.Struct, frozen=True, tag_field="type", tag="take"):
    """Favour 8, refused and right: choose the card you win from the pile."""

    card: Card


class CanyonKeep(msgspec.Struct, frozen=True, tag_field="type", tag="keep"):
    """Decline an optional favour step: favour 4's exchange or favour 8's swap."""


CanyonAction = (CanyonLoad | CanyonFavour | CanyonNoFavour | CanyonLook | CanyonStopLooking
                | CanyonContract | CanyonExchange | CanyonAdjust | CanyonSwap | CanyonTake
                | CanyonKeep)

ACTION_CLASSES = (CanyonLoad, CanyonFavour, CanyonNoFavour, CanyonLook, CanyonStopLooking,
                  CanyonContract,
                  CanyonExchange, CanyonAdjust, CanyonSwap, CanyonTake, CanyonKeep)
