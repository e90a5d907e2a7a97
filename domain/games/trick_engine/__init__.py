"""The trick engine shared by the Ochs & Esel family: Ochs & Esel and Crazy Donkey.

Rules: `rules/ochs-und-esel.md` (the base) and `rules/crazy-donkey.md` (its differences).
One engine, configured per game by a `TrickConfig`: the number of jokers, the deal table,
how the donkey is dealt, the values a joker may take in a donkey trick, whether the ox
variant is offered, and the name of the option that counts rounds (deals).

The modules, in the order every game of this server keeps:
- `cards`: the cards and how they are written on the wire;
- `actions`: what a seat may send;
- `state`: the state and the questions the rules ask of it;
- `config`: what differs between the games of the family;
- `rules`: the legal actions, and the event each action causes (its error codes);
- `automatic`: what follows by itself (the deal, the end of a trick, a round, the game);
- `evolve`: one event applied to the state;
- `view`: what a seat sees, and `determinize` back;
- `game`: the game object that wires them (`TrickGame`).

Events: `first_player_chosen`, `round_dealt` (hands in private parts), `set_played`,
`passed`, `donkey_led`, `ox_led`, `card_played`, `trick_won`, `donkey_trick_taken`,
`ox_trick_taken`, `ox_taken`, `donkey_taken`, `round_scored`, `game_ended`.
"""

from domain.games.trick_engine.actions import (
    TrickAction,
    TrickPass,
    TrickPlayCard,
    TrickPlayDonkey,
    TrickPlayOx,
    TrickPlaySet,
)
from domain.games.trick_engine.cards import (
    CARD_IDS,
    CARD_NAMES,
    DECK_NUMBERS,
    DONKEY,
    JOKER,
    JOKERS_ALONE,
    OX,
    SPECIALS,
)
from domain.games.trick_engine.config import TrickConfig
from domain.games.trick_engine.game import FORCED_MOVES, TAKE_BACK, TrickGame
from domain.games.trick_engine.state import (
    NOBODY,
    NORMAL,
    TRICK_KINDS,
    TrickEnginePlay,
    TrickEngineState,
)

__all__ = [
    "CARD_IDS", "CARD_NAMES", "DECK_NUMBERS", "DONKEY", "FORCED_MOVES", "JOKER",
    "JOKERS_ALONE", "NOBODY", "NORMAL", "OX", "SPECIALS", "TAKE_BACK", "TRICK_KINDS",
    "TrickAction", "TrickConfig", "TrickEnginePlay",
    "TrickEngineState", "TrickGame", "TrickPass", "TrickPlayCard", "TrickPlayDonkey",
    "TrickPlayOx", "TrickPlaySet",
]
