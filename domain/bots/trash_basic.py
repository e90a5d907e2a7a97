"""The `basic` heuristic for Trash, and the search kit the `strong` bot uses on it.

A Trash player chooses only three things, and the heuristic answers each:
- the draw: the discard's top card whenever it may be taken (it is placeable, so it turns
  a slot up for sure, where the stock's card may be unplayable and end the turn);
- a number facing a face-up wild: displace the wild (the number fills its slot for good
  and the wild must go on to a face-down slot: one more slot turned up, the chain goes on;
  keeping the wild discards the number and ends the turn);
- where a wild goes: on the face-down slot whose number is least likely to come, the one
  with the fewest copies still live (not face up in a layout, not in the discard pile).
  This choice weighs little: a number arriving on a wild's slot still turns a slot up, by
  displacing the wild onto another face-down slot, so every slot not yet showing its own
  number stays as useful whichever slot the wild covers.

The same decision runs on a seat's view (the `basic` bot) and on a determinized state (the
search's rollout policy); on a state it reads only what every seat may see: face-up slots,
the discard pile and the card in hand, never a face-down card nor the stock.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from domain.bots.observation import Observation
from domain.bots.search_terms import Kit
from domain.games.trash.cards import CARD, RANK
from domain.games.trash.state import (
    TrashDisplace,
    TrashDraw,
    TrashPlaceWild,
    TrashState,
)

TAKE_DISCARD = TrashDraw(source="discard")
DISPLACE = TrashDisplace()
SUITS_PER_DECK = 4


def decide(legal: Sequence[Any], live_copies: Any) -> Any:
    """The heuristic's choice among `legal`; `live_copies(ranks)` counts, for each rank
    asked, the copies that may still come (called only when a wild is to be placed)."""
    first = legal[0]
    if isinstance(first, TrashDraw):
        return TAKE_DISCARD if TAKE_DISCARD in legal else first
    if isinstance(first, TrashPlaceWild):
        slots = [a.slot for a in legal]
        live = live_copies(slots)
        # Fewest live copies first; among equals the higher slot (any fixed order would do).
        best = min(range(len(slots)), key=lambda i: (live[i], -slots[i]))
        return legal[best]
    return DISPLACE if DISPLACE in legal else first


def _live(decks: int, ranks: Sequence[int], dead: Iterable[int]) -> list[int]:
    """Copies of each rank in `ranks` not among the `dead` cards."""
    gone = dict.fromkeys(ranks, 0)
    for card in dead:
        rank = RANK[card]
        if rank in gone:
            gone[rank] += 1
    return [decks * SUITS_PER_DECK - gone[r] for r in ranks]


# ---------------------------------------------------------------------------------------
# On a view: the `basic` bot
# ---------------------------------------------------------------------------------------

def _dead_in_view(view: dict[str, Any]) -> list[int]:
    dead = [CARD[s["card"]] for row in view["layouts"] for s in row if s["face_up"]]
    dead += [CARD[code] for code in view["discard"]]
    return dead


def basic(game: Any, obs: Observation, rng: random.Random) -> Any:
    """The `basic` bot: the heuristic on the seat's view."""
    view = obs.view
    return decide(obs.legal_actions,
                  lambda ranks: _live(view["options"]["decks"], ranks, _dead_in_view(view)))


# ---------------------------------------------------------------------------------------
# On a state: the search's rollout policy, evaluation and horizon
# ---------------------------------------------------------------------------------------

def _dead_in_state(state: TrashState) -> list[int]:
    # Public cards only: a face-down card is read through its face-up flag, never its value.
    dead = [card for row, ups in zip(state.layout, state.face_up, strict=True)
            for card, up in zip(row, ups, strict=True) if up]
    dead += state.discard
    return dead


def policy(game: Any, state: TrashState, seat: int, legal: Sequence[Any],
           rng: random.Random) -> Any:
    """The rollout policy: the same heuristic on a (determinized) state."""
    return decide(legal, lambda ranks: _live(state.decks, ranks, _dead_in_state(state)))


def face_down(state: TrashState, seat: int) -> int:
    return state.face_up[seat].count(False)


def evaluate(game: Any, root: TrashState, state: TrashState, seat: int) -> float:
    """1 for the round won, 0 for a round another seat won; cut short, the share of the
    seat's face-down slots turned up since the root (each a step to the round)."""
    if state.round != root.round or state.ended:
        return 1.0 if state.slots[seat] < root.slots[seat] else 0.0
    before = face_down(root, seat)
    return 0.5 * (before - face_down(state, seat)) / before if before else 0.5


def horizon(root: TrashState, state: TrashState) -> bool:
    """A rollout stops when the searching seat's turn is over (the root's `turn` is that
    seat): its choices change its own layout only, so the turn's progress is their
    whole effect, and short rollouts let the search see it clearly."""
    return state.turn != root.turn or state.round != root.round


def round_won(game: Any, root: TrashState, state: TrashState, seat: int) -> float:
    """The analysis's points: 1 when the seat won the round (its layout shrank)."""
    return 1.0 if state.slots[seat] < root.slots[seat] else 0.0


def round_over(root: TrashState, state: TrashState) -> bool:
    return state.round != root.round or bool(state.ended)


# The searching levels play the heuristic itself: each of its choices is the best there is.
# Taking the discard (it is placeable, so it turns a slot up for sure) dominates drawing a
# card that may not be; displacing a wild dominates keeping it (the number fills its slot
# for good and the wild turns another slot up; kept, the number is discarded for the next
# player); and where a wild goes changes nothing that follows: a number arriving on a
# wild's slot displaces it onto another face-down slot, so each slot still showing no
# number takes the same cards either way, and the card taken from under the wild is any
# unseen card. Measured (`python -m bench.arena.trash_choices`, docs/bots.md): changing the
# first two choices loses most games, the third is a coin toss. The search kit serves the
# post-game analysis (which names a draw from the stock, or a kept wild, as the loss it is).
KIT = Kit(policy=policy, evaluate=evaluate, horizon=horizon, exploration=0.5, max_depth=8,
          method="policy", points=round_won, points_unit="rounds won",
          points_horizon=round_over)

__all__ = ["KIT", "basic", "decide", "evaluate", "horizon", "policy"]
