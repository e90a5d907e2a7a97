"""Trash (also Garbage or Ten): be the first to show your layout, Ace upwards, face up.

The spec is `rules/trash.md` (source: the French rulebook `seeds/003_…`); comments cite
its rules and its Decision lines. A turn is a chain of choices made by actions, with every
forced step an automatic event (see `automatic.py`):

    draw: stock, or the discard's top when placeable     action `draw`        card_drawn
    with the card in hand, repeatedly:
      a number on its face-down slot                     automatic            card_placed
      a number facing a face-up wild                     action `displace`    card_placed
                                                      or action `discard`     card_discarded
      a wild, several face-down slots                    action `place_wild`  card_placed
      a wild, a single face-down slot                    automatic            card_placed
      anything else (unplayable)                         automatic            card_discarded
    end of the turn                                      automatic            turn_ended
    layout all face up                                   automatic            card_discarded,
                                                                              round_won
    next round or the end                                automatic            round_dealt /
                                                                              game_ended
    stock empty before a draw                            automatic            stock_reshuffled
                                                                              or turn_passed
    no card outside the layouts placeable by anyone      automatic            round_void

Hidden information: nobody sees a face-down card, its owner included, nor the stock's
order. The deal and each reshuffle record those facts in the private part keyed `HIDDEN`
(-1), which no seat receives before the end; a card turns public when it is drawn or
taken into hand.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from domain.errors import BadOptions
from domain.events import Event
from domain.game import OptionSpec, Outcome, SeatRule, resolve_options
from domain.games import common
from domain.games.trash import automatic, texts
from domain.games.trash import rules as play_rules
from domain.games.trash.actions import TrashAction, TrashDiscard, TrashDisplace
from domain.games.trash.evolve import evolve
from domain.games.trash.shapes import TRASH_SHAPES
from domain.games.trash.state import START_SLOTS, TrashState
from domain.games.trash.view import determinize, table_view
from domain.texts import ActionText, Layout, Text

DEFAULT_DECKS = {2: 1, 3: 2, 4: 2, 5: 3, 6: 3}  # the rulebook's material
PLAYERS_PER_DECK = 4  # at most: with fewer cards, rounds end void without end (Decision)
SEAT_RULES = (
    SeatRule(option="decks", values=[1], max_players=PLAYERS_PER_DECK,
             code="not_enough_cards",
             rule=f"one deck (`decks`: 1) seats at most {PLAYERS_PER_DECK} players; 5 or 6 "
                  "players need 2 decks or more (or `decks`: null, by players)"),
)

OPTIONS = (
    OptionSpec(name="decks", type="int", default=None, minimum=1, maximum=3, nullable=True,
               description="52-card decks shuffled together; null = by players "
                           "(1 for 2, 2 for 3-4, 3 for 5-6); 5-6 players need at least 2"),
    OptionSpec(name="wild", type="str", default="J", choices=["J", "JQK"],
               description="the wild ranks: jacks, or jacks, queens and kings (variant 3)"),
    OptionSpec(name="target_slots", type="int", default=0, minimum=0, maximum=9,
               description="the first player whose layout shrinks to this many slots wins "
                           "(variant 1); 0 = standard: win a round holding a single slot"),
    OptionSpec(name="max_rounds", type="int", default=None, minimum=1, maximum=50,
               nullable=True,
               description="after this many rounds the fewest slots wins, ties share "
                           "(variant 2); null = no limit"),
)

RULES = (
    "Decision: the discard may be taken only when it is placeable. The first player of a "
    "round has no choice (the discard pile is empty).",
    "Decision: wilds go on face-down slots only; placing is mandatory while a face-down slot "
    "exists; with none left the wild is discarded.",
    "Decision: no one gets a last turn.",
    "Decision: if the reshuffle leaves the stock empty and the discard is not placeable, the "
    "player's turn passes.",
    "Decision: the first round's first player is chosen at random (recorded in the log).",
    "Assumption: when a layout is complete, the card left in hand is discarded and the round "
    "is won at once.",
    "Assumption: a wild with a single face-down slot to go to is placed there automatically.",
    "Assumption: when no card outside the layouts can be placed by anyone, the round can "
    "never be won: it is void (nobody's layout shrinks, it counts as a round played) and "
    "the cards are dealt again, led by the same player.",
    "Decision: at least one deck per four players, so 5 or 6 players need 2 decks or more "
    "(the rulebook's material is 3). With one deck for five players the layouts take 50 of "
    "its 52 cards and rounds end void again and again, about 140 times a game with no "
    "bound; the rulebook sizes the decks by the number of players, so the ruling is a "
    "minimum number of decks, not a cap on void rounds, which the rulebook never mentions.",
    f"Decision: places follow the slots left, fewest first; {common.TIES_SHARE}.",
    "Decision (resigning): a seat that resigns takes the worst result: it is placed last, "
    "behind every seat still in play, however few slots it has left; "
    f"{common.CONCEDED_LAST}.",
    "Decision: until the first round is over (won, or void), "
    f"{common.ABORT_BY_AGREEMENT}.",
    "Decision (forced moves): a draw that is the only legal action (an empty discard pile, "
    "a discard that cannot be placed, an empty stock) is forced: a seat that asked for it "
    "has it played at once. Nothing else is ever the only choice.",
    "Decision (take-back): only the choice over a face-up wild may be taken back, before "
    "anyone else acts: displacing it (unless a face-down card was turned over after it) "
    "or keeping it (unless the stock was reshuffled or the round ended after it). A draw "
    "shows a card and a wild placed turns a face-down card over: neither is taken back.",
)

class Trash:
    id = "trash"
    title = "Trash"
    min_players = 2
    max_players = 6
    options = OPTIONS
    rules = RULES
    seat_rules = SEAT_RULES
    action_type = TrashAction
    state_type = TrashState
    shapes = TRASH_SHAPES
    heuristics = "domain.bots.trash_basic"  # the basic bot and the search's kit

    def new_state(self, options: Mapping[str, Any], players: int) -> TrashState:
        common.check_player_count(self, players)
        opts = resolve_options(self.options, options, players)
        decks = opts["decks"] or DEFAULT_DECKS[players]
        # Decision: at least one deck per four players (more than one deck holds, too).
        least = -(-players // PLAYERS_PER_DECK)
        if decks < least:
            raise BadOptions(f"{players} players need at least {least} decks (one per "
                             f"{PLAYERS_PER_DECK} players), not {decks}",
                             code="not_enough_cards")
        return TrashState(players=players, decks=decks, wild=opts["wild"],
                          target_slots=opts["target_slots"], max_rounds=opts["max_rounds"],
                          slots=(START_SLOTS,) * players)

    def setup(self, state: TrashState, rng: random.Random) -> list[Event]:
        play = automatic.begin(state)
        # Decision: the first round's first player is chosen at random (recorded in the log).
        automatic.deal(play, rng.randrange(state.players), "random", rng)
        return play.events

    # --- legal actions / apply / terminal / returns --------------------------------------
    def to_act(self, state: TrashState) -> frozenset[int]:
        if state.round == 0 or state.ended:
            return frozenset()
        return frozenset((state.turn,))

    def legal_actions(self, state: TrashState, seat: int) -> list[TrashAction]:
        return play_rules.legal_actions(state, seat)

    def decide(self, state: TrashState, seat: int, action: TrashAction,
               rng: random.Random) -> list[Event]:
        common.check_turn(self, state, seat)
        return play_rules.decide(state, seat, action, rng)

    def evolve(self, state: TrashState, ev: Event) -> TrashState:
        return evolve(state, ev)

    # --- the clock's rulings (domain.rulings) ----------------------------------------------
    def is_forced(self, state: TrashState, seat: int, action: TrashAction) -> bool:
        """A lone draw follows from what everybody sees (the layouts, the discard's top,
        an empty stock): it plays itself. (A wild with one face-down slot to go to is
        placed by the rules already; the other choices always come in pairs.)"""
        return True

    def takes_back(self, state: TrashState, seat: int, action: TrashAction,
                   events: Sequence[Event]) -> bool:
        """Only the choice over a face-up wild may be taken back: displacing it, while
        nothing followed (no face-down card turned over), or keeping it, which discards the
        card in hand and ends the turn (unless more followed: a reshuffle, a void round).
        A draw shows a card; a wild placed turns a face-down card over."""
        if isinstance(action, TrashDisplace):
            return len(events) == 1
        return isinstance(action, TrashDiscard) and \
            {e.type for e in events} <= {"card_discarded", "turn_ended"}

    def outcome(self, state: TrashState) -> Outcome | None:
        return self.standing(state) if state.ended else None

    def standing(self, state: TrashState) -> Outcome:
        return common.outcome(state.slots, score_name="slots", lower_is_better=True)

    def round_scored(self, state: TrashState) -> bool:
        return state.round > 1 or bool(state.ended)

    # --- what a seat may see ---------------------------------------------------------------
    def view(self, state: TrashState, viewer: int | None,
             reveal_all: bool = False) -> dict[str, Any]:
        return table_view(state, viewer, reveal_all)

    def determinize(self, view: Mapping[str, Any], seat: int,
                    rng: random.Random) -> TrashState:
        """A full state consistent with the view `seat` was shown (for search bots)."""
        return determinize(view, seat, rng)

    # --- what a person reads (texts.py) ----------------------------------------------------
    def action_label(self, view: Mapping[str, Any], action: TrashAction) -> ActionText:
        return texts.action_label(view, action)

    def event_sentence(self, event: Mapping[str, Any]) -> Text | None:
        return texts.event_sentence(event)

    def layout(self, view: Mapping[str, Any], viewer: int | None) -> Layout:
        return texts.layout(view, viewer)


GAME = Trash()
