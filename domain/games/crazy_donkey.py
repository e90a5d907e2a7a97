"""Crazy Donkey (Einer ist immer der Esel; Wolfgang Kramer, Carletto 2011): the trick engine
with five jokers, the donkey shuffled in among the first 39 cards, jokers worth 1 or 14 in
a donkey trick, and no ox.

Rules: `rules/crazy-donkey.md` (differences from `rules/ochs-und-esel.md`). The play itself
lives in `domain.games.trick_engine`.
"""

from __future__ import annotations

from domain.game import OptionSpec
from domain.games import common
from domain.games.trick_engine import FORCED_MOVES, TAKE_BACK, TrickConfig, TrickGame

# The donkey counts among a hand's cards.
HAND_SIZES = {3: 13, 4: 13, 5: 13, 6: 13, 7: 13, 8: 13, 9: 12, 10: 11, 11: 10, 12: 9}

OPTIONS = (
    OptionSpec(name="deals", type="int", default=5, minimum=1, maximum=20,
               description="number of deals agreed in advance"),
)

RULES = (
    "Decision: the donkey is led alone, as in Ochs & Esel (a donkey trick is one card each).",
    f"Decision: after the last deal the fewest penalty points wins; {common.TIES_SHARE}.",
    "Decision (resigning): a seat that resigns takes the worst result: it is placed last, "
    "behind every seat still in play, whatever its penalty points; "
    f"{common.CONCEDED_LAST}.",
    f"Decision: until the first deal is scored, {common.ABORT_BY_AGREEMENT}.",
    FORCED_MOVES,
    TAKE_BACK,
    "Decision (shared with Ochs & Esel): a leader whose hand holds only locked special "
    "cards may lead one of them anyway.",
    "Assumption: a joker played in a donkey trick is declared 1 or 14 by its player "
    "(the action's value; 1 when omitted).",
    "Assumption: the donkey's place among the first 39 cards is drawn uniformly; cards are "
    "dealt one at a time, starting one seat further every deal (deal d starts with seat "
    "d-1), and the donkey's place is recorded in the deal event.",
    "Assumption: cards played face up are public knowledge: views list the cards everyone "
    "saw go into each hand (known_cards) and out of play (out_of_play).",
)

GAME = TrickGame(TrickConfig(
    id="crazy-donkey",
    title="Crazy Donkey",
    jokers=5,
    hand_sizes=HAND_SIZES,
    rounds_option="deals",
    options=OPTIONS,
    rules=RULES,
    donkey_shuffled_in=True,
    donkey_within=39,
    joker_values=(1, 14),
    has_ox=False,
))
