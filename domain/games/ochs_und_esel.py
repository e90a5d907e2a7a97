"""Ochs & Esel (Wolfgang Kramer, Pegasus 2008): the trick engine with four jokers, the
donkey held by the first player, jokers worth 1 in a donkey trick, and the ox variant.

Rules: `rules/ochs-und-esel.md`. The play itself lives in `domain.games.trick_engine`.
"""

from __future__ import annotations

from domain.game import OptionSpec
from domain.games import common
from domain.games.trick_engine import FORCED_MOVES, TAKE_BACK, TrickConfig, TrickGame

HAND_SIZES = {3: 13, 4: 13, 5: 13, 6: 13, 7: 13, 8: 13, 9: 12, 10: 10, 11: 9, 12: 9}

OPTIONS = (
    OptionSpec(name="rounds", type="int", default=5, minimum=1, maximum=20,
               description="number of rounds (deals)"),
    OptionSpec(name="ox_variant", type="bool", default=False,
               description="play the ox variant (Variante du Boeuf)"),
    OptionSpec(name="first_player", type="seat_or_random", default="random",
               description="who leads round 1 and holds the donkey: a seat, or drawn at "
                           "random (\"the player with the longest ears\")"),
)

RULES = (
    "Decision: a leader whose hand holds only locked special cards may lead one of them "
    "anyway (the lock is waived rather than the game stalling).",
    "Decision: in later rounds of the ox variant the player who held the donkey at the end "
    "of the previous round leads, as in the base game (the donkey still goes back to the "
    "centre). If the donkey was never taken, the winner of the last trick leads.",
    f"Decision: after the last round the fewest penalty points wins; {common.TIES_SHARE}.",
    "Decision (resigning): a seat that resigns takes the worst result: it is placed last, "
    "behind every seat still in play, whatever its penalty points; "
    f"{common.CONCEDED_LAST}.",
    f"Decision: until the first round is scored, {common.ABORT_BY_AGREEMENT}.",
    FORCED_MOVES,
    TAKE_BACK,
    "Assumption: a randomly chosen first player is drawn when the game starts and recorded "
    "in the log (event first_player_chosen).",
    "Assumption: cards played face up (tricks, the ox trick) are public knowledge: views "
    "list the cards everyone saw go into each hand (known_cards) and out of play "
    "(out_of_play); an ox pile's content is shown only when everything is revealed.",
)

GAME = TrickGame(TrickConfig(
    id="ochs-und-esel",
    title="Ochs & Esel",
    jokers=4,
    hand_sizes=HAND_SIZES,
    rounds_option="rounds",
    options=OPTIONS,
    rules=RULES,
    donkey_shuffled_in=False,
    joker_values=(1,),
    has_ox=True,
))
