"""What a seat sees of a Trash table, and the reverse: a full state sampled from a view.

Nothing in Trash is private to one seat: a face-down card is hidden from everyone, its
owner included, and the stock's order from everyone. So every seat, and a spectator,
sees the same table; `reveal_all` (after the end) shows the face-down cards and the stock.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from domain.games.trash.cards import CARD, CODES, DECK_SIZE, NO_CARD, RANK, codes
from domain.games.trash.state import (
    START_SLOTS,
    TrashState,
    face_down_slots,
    phase,
    placeable,
)


def table_view(state: TrashState, viewer: int | None,
               reveal_all: bool = False) -> dict[str, Any]:
    now = phase(state)
    return {
        "game": "trash",
        "viewer": viewer,
        "options": {"decks": state.decks, "wild": state.wild,
                    "target_slots": state.target_slots, "max_rounds": state.max_rounds},
        "players": state.players,
        "round": state.round,
        "leader": state.leader if state.round else None,
        "turn": state.turn if now not in ("deal", "over") else None,
        "phase": now,
        "pending": _pending(state, now),
        "hand": CODES[state.hand] if state.hand != NO_CARD else None,
        "layouts": [
            [{"slot": i + 1, "face_up": up, "card": CODES[card] if up or reveal_all else None}
             for i, (card, up) in enumerate(zip(row, ups, strict=True))]
            for row, ups in zip(state.layout, state.face_up, strict=True)
        ],
        "slots": list(state.slots),
        "rounds_won": [START_SLOTS - n for n in state.slots],
        "discard": codes(state.discard),
        "stock": {
            "size": len(state.stock),
            # After a reshuffle the stock is the old discard pile: its contents are public.
            "cards": codes(sorted(state.stock)) if state.stock_known else None,
            "order": codes(state.stock) if reveal_all else None,  # top card last
        },
        "ended": state.ended or None,
    }


def _pending(state: TrashState, now: str) -> dict[str, Any] | None:
    seat = state.turn
    if now == "draw":
        return {"choice": "draw", "stock": bool(state.stock),
                "discard": bool(state.discard) and placeable(state, seat, state.discard[-1])}
    if now == "place_wild":
        return {"choice": "place_wild", "card": CODES[state.hand],
                "slots": face_down_slots(state, seat)}
    if now == "displace":
        return {"choice": "displace", "card": CODES[state.hand], "slot": RANK[state.hand]}
    return None


def determinize(table: Mapping[str, Any], seat: int, rng: random.Random) -> TrashState:
    """A full state consistent with `table` (a view without `reveal_all`; every seat sees
    the same table, so `seat` changes nothing): the unseen cards go uniformly at random to
    the face-down slots and, unless it is a known reshuffle, to the stock."""
    opts, layouts, stock_view = table["options"], table["layouts"], table["stock"]
    known_stock = [CARD[code] for code in stock_view["cards"] or ()]
    seen = Counter(CARD[s["card"]] for row in layouts for s in row if s["face_up"])
    seen.update(CARD[code] for code in table["discard"])
    seen.update(known_stock)
    if table["hand"] is not None:
        seen[CARD[table["hand"]]] += 1
    unseen = [card for card in range(DECK_SIZE) for _ in range(opts["decks"] - seen[card])]
    rng.shuffle(unseen)
    layout = tuple(tuple(CARD[s["card"]] if s["face_up"] else unseen.pop() for s in row)
                   for row in layouts)
    if stock_view["cards"] is None:
        stock, unseen = unseen, []
    else:
        stock = known_stock
        rng.shuffle(stock)
    if unseen or len(stock) != stock_view["size"]:
        raise ValueError("the view's cards do not add up to its decks")
    return TrashState(
        players=table["players"], decks=opts["decks"], wild=opts["wild"],
        target_slots=opts["target_slots"], max_rounds=opts["max_rounds"],
        round=table["round"], leader=-1 if table["leader"] is None else table["leader"],
        turn=-1 if table["turn"] is None else table["turn"], slots=tuple(table["slots"]),
        layout=layout, face_up=tuple(tuple(s["face_up"] for s in row) for row in layouts),
        hand=NO_CARD if table["hand"] is None else CARD[table["hand"]],
        stock=tuple(stock), stock_known=stock_view["cards"] is not None,
        discard=tuple(CARD[code] for code in table["discard"]), ended=table["ended"] or "")
