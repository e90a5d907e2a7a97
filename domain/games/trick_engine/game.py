"""The game object of the Ochs & Esel family: the Game protocol over `TrickEngineState`,
configured per game by a `TrickConfig`. It holds no rule itself; each method says which
module does the work."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Union

from domain.events import Event, event
from domain.game import Outcome
from domain.games import common
from domain.games.common import Play
from domain.games.trick_engine import automatic, texts
from domain.games.trick_engine import rules as play_rules
from domain.games.trick_engine import view as views
from domain.games.trick_engine.actions import (
    TrickAction,
    TrickPass,
    TrickPlayCard,
    TrickPlayDonkey,
    TrickPlayOx,
    TrickPlaySet,
)
from domain.games.trick_engine.cards import JOKERS_ALONE
from domain.games.trick_engine.config import TrickConfig
from domain.games.trick_engine.evolve import evolve
from domain.games.trick_engine.state import (
    NOBODY,
    NORMAL,
    TrickEngineState,
    next_in_trick,
    totals,
)
from domain.games.trick_shapes import TRICK_SHAPES
from domain.texts import ActionText, Layout, Text

# The Decision lines on the clock's rulings, the same for every game of the family.
FORCED_MOVES = (
    "Decision (forced moves): a seat's only legal action is forced (played at once for a "
    "seat that asked for it) when everybody could see it coming: the pass of a hand of "
    "only the donkey and/or the ox in a donkey or ox trick, the play of a hand of one "
    "card or of a hand everybody knows, a pass with fewer cards in hand than the set to "
    "follow or against jokers alone. A lone pass otherwise is not forced: played at "
    "once it would tell the table that the hand cannot follow.")
TAKE_BACK = (
    "Decision (take-back): any play may be taken back by its player, before the next "
    "seat acts, while its trick goes on; the play that completes a trick is final (the "
    "trick hands cards over, scores a round or deals the next).")


class TrickGame:
    """A game of the Ochs & Esel family."""

    state_type = TrickEngineState
    shapes = TRICK_SHAPES
    heuristics = "domain.bots.trick_basic"  # the basic bot and the search's kit

    def __init__(self, config: TrickConfig) -> None:
        self.config = config
        self.id = config.id
        self.title = config.title
        self.min_players = config.min_players
        self.max_players = config.max_players
        self.options = config.options
        self.rules = config.rules
        classes: tuple[type, ...] = (TrickPlaySet, TrickPass, TrickPlayDonkey, TrickPlayCard)
        if config.has_ox:
            classes = (TrickPlaySet, TrickPass, TrickPlayDonkey, TrickPlayOx, TrickPlayCard)
        self._classes = classes
        self.action_type: Any = Union[classes]  # noqa: UP007 - built from a tuple

    # -- the start --------------------------------------------------------------------
    def new_state(self, options: Mapping[str, Any], players: int) -> TrickEngineState:
        common.check_player_count(self, players)
        first = options.get("first_player", "random")
        return TrickEngineState(
            players=players,
            rounds=int(options.get(self.config.rounds_option, 5)),
            ox_variant=bool(self.config.has_ox and options.get("ox_variant", False)),
            first_player=NOBODY if first in ("random", None) else int(first),
        )

    def setup(self, state: TrickEngineState, rng: random.Random) -> list[Event]:
        if self.config.donkey_shuffled_in:
            # Crazy Donkey: whoever is dealt the donkey leads.
            return [automatic.deal(self.config, state, 1, None, rng)]
        # Round 1: the first player is chosen ("the longest ears"), or drawn at random.
        drawn = state.first_player == NOBODY
        first = rng.randrange(state.players) if drawn else state.first_player
        return [event("first_player_chosen", seat=first, random=drawn),
                automatic.deal(self.config, state, 1, first, rng)]

    def dealt(self, number: int, hands: Sequence[Sequence[int]], leader: int,
              centre: Sequence[int] = (), **public: Any) -> Event:
        """The `round_dealt` event: hands (ids, the donkey included) go in private parts."""
        return automatic.dealt(number, hands, leader, centre, **public)

    # -- legal actions, decide, evolve ------------------------------------------------
    def to_act(self, state: TrickEngineState) -> frozenset[int]:
        if state.over or state.turn < 0:
            return frozenset()
        return frozenset((state.turn,))

    def legal_actions(self, state: TrickEngineState, seat: int) -> list[TrickAction]:
        return play_rules.legal_actions(self.config, state, seat)

    def decide(self, state: TrickEngineState, seat: int, action: Any,
               rng: random.Random) -> list[Event]:
        common.check_turn(self, state, seat)
        play_rules.check_shape(self.config, self._classes, action)
        ev = play_rules.play_event(self.config, state, seat, action)
        if next_in_trick(state, seat, state.hands) >= 0:
            return [ev]  # the trick goes on: nothing follows, nothing to fold
        # Everyone acted once: the trick ends; automatic follow-ups.
        play = Play(state, evolve)
        play.emit(ev)
        automatic.end_trick(self.config, play, rng)
        return play.events

    def evolve(self, state: TrickEngineState, ev: Event) -> TrickEngineState:
        return evolve(state, ev)

    # -- the clock's rulings (domain.rulings) -----------------------------------------
    def is_forced(self, state: TrickEngineState, seat: int, action: Any) -> bool:
        """The seat's lone legal action plays itself only when everybody could see it
        coming: the pass of a hand of only the donkey/ox in a donkey or ox trick (the log
        says it was forced anyway), a hand of one card, a hand everybody knows, or a pass
        no hand of that size could avoid (fewer cards than the set to follow, or jokers
        alone to beat)."""
        hand = state.hands[seat]
        if len(hand) == 1 or sorted(hand) == sorted(state.known[seat] if state.known else ()):
            return True
        if isinstance(action, TrickPass):
            if state.kind != NORMAL:
                return True
            return len(hand) < state.count or state.high >= JOKERS_ALONE
        return False

    def takes_back(self, state: TrickEngineState, seat: int, action: Any,
                   events: Sequence[Event]) -> bool:
        """Any play may be taken back while its trick goes on (nothing followed it): a
        completed trick hands cards over, scores a round or deals the next."""
        return len(events) == 1

    # -- terminal and returns ---------------------------------------------------------
    def outcome(self, state: TrickEngineState) -> Outcome | None:
        return self.standing(state) if state.over else None

    def standing(self, state: TrickEngineState) -> Outcome:
        return common.outcome(totals(state), score_name="penalty", lower_is_better=True)

    def round_scored(self, state: TrickEngineState) -> bool:
        return bool(state.scores) or state.over

    # -- observation ------------------------------------------------------------------
    def view(self, state: TrickEngineState, viewer: int | None,
             reveal_all: bool = False) -> dict[str, Any]:
        """What `viewer` (a seat, or None for a spectator) may see (see `view.py`)."""
        return views.view(self.config, state, viewer, reveal_all)

    def determinize(self, view: Mapping[str, Any], seat: int,
                    rng: random.Random) -> TrickEngineState:
        """A full state consistent with `view` (seat `seat`'s), for search bots."""
        return views.determinize(self.config, view, seat, rng)

    # -- what a person reads (texts.py) -------------------------------------------------
    def action_label(self, view: Mapping[str, Any], action: TrickAction) -> ActionText:
        return texts.action_label(view, action)

    def event_sentence(self, event: Mapping[str, Any]) -> Text | None:
        return texts.event_sentence(event)

    def layout(self, view: Mapping[str, Any], viewer: int | None) -> Layout:
        return texts.layout(view, viewer)
