"""Donkey loads up the Grand Canyon (Stefaan Henderickx, Jolly Dutch 2022): `canyon-donkeys`.

Eight donkeys come up one by one. Each round every player loads a card face down, may
call a favour, then accepts or refuses the contract: if the donkey is not overloaded the
accepters win their own cards, if it is, each refuser wins one card at random from the
loads. The highest total of won card values wins.

A round as phases (players act in the first kind, the engine resolves the second at once):

    next_donkey → load → (lost: set_aside → round_end) → favours → looks → contract
    → late_favours → reveal → reward → score → round_end → next_donkey … → over

`decide` validates one action and returns its event followed by every automatic event it
leads to (the reveal, the random draws, the next donkey), so a stored state always waits
for a player or is over. `evolve` applies one event, moving to the next phase by itself
when a phase has nobody left to act; it never draws at random and never checks rules.

The modules, in the order every game of this server keeps: `donkeys` and `favours` (the
cards), `actions`, `state` (and the questions the rules ask of it), `rules` (legal actions
and decide, phase by phase), `automatic` (the steps nobody chooses), `evolve`, `view` (and
`determinize`), and this one, the game object that wires them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from domain.errors import BadAction, BadOptions
from domain.events import Event, event
from domain.game import OptionSpec, Outcome
from domain.games import common
from domain.games.canyon_donkeys import automatic, texts
from domain.games.canyon_donkeys import donkeys as dk
from domain.games.canyon_donkeys import rules as play_rules
from domain.games.canyon_donkeys import view as views
from domain.games.canyon_donkeys.actions import (
    ACTION_CLASSES,
    CanyonAction,
    CanyonLook,
    CanyonNoFavour,
)
from domain.games.canyon_donkeys.evolve import evolve
from domain.games.canyon_donkeys.shapes import CANYON_SHAPES
from domain.games.canyon_donkeys.state import OVER, CanyonState, seats_to_act, standings
from domain.games.common import HIDDEN, Play
from domain.texts import ActionText, Layout, Text

GAME_ID = "canyon-donkeys"
TITLE = "Donkey loads up the Grand Canyon"
MIN_PLAYERS, MAX_PLAYERS = 3, 7

RULES = (
    # From the spec, as written there.
    "Assumption: the 10 load cards of a colour are valued 1–10 (70 cards / 7 colours; "
    "favours sit on 2, 4, 6, 8, 10; capacity is 5 × players).",
    "Assumption (the real split was not found; make it an option): normal ×4, giant ×2, "
    "puny ×2, precision ×2, holed ×2, attacked ×2, and one each of hurried, lost, double, "
    "stubborn, difficult, picky.",
    "Decision: at most one favour per player per round.",
    "Decision (attacked): the highest load cards are removed before the total is computed "
    "and are not in the refusers' pile.",
    # The project's further rulings.
    "Decision: the first player is chosen at random and recorded in the log, unless the "
    "first_player option names a seat.",
    "Decision: a player who may not call a favour for a public reason (hurried donkey, two "
    "favours used) is not asked; a player whose hand holds no favour card is still asked, "
    "so the table does not learn it.",
    "Decision: favour 10 looks and the holed donkey's look happen after the favour calls "
    "and before the contract, all players at once; each look is chosen one card at a time "
    "(a look may depend on the previous one), among other players' face-down load cards "
    "not seen yet; with fewer such cards, fewer looks.",
    "Decision: a look is optional (\"may look\"): a player with looks left may stop "
    "looking (action stop_looking); the legal actions list it after the looks.",
    "Decision: favour 2 callers decide last, clockwise from the first player among them.",
    "Decision: favours 4 and 6 resolve after all decisions, clockwise from the first "
    "player. Favour 4 exchanges one load card (either one on the double donkey) or keeps "
    "it; the new card lies face down, and a returned face-up card is known to all.",
    "Decision (favour 6): the caller must raise or lower by 2; a capacity has no bounds, "
    "the precision gap is clamped to 1–9.",
    "Decision (favour 8): right means accepted and not overloaded, or refused and "
    "overloaded. An accepter may swap one of their counted load cards for another "
    "player's counted load card, or keep; each card then counts as its new holder's load. "
    "A refuser chooses a card from the pile before the random draws; several callers act "
    "clockwise from the first player. A player scoring nothing this round (attacked) "
    "cannot use it.",
    "Decision: refusers draw clockwise from the first player; when the pile runs out the "
    "remaining refusers win nothing.",
    "Decision (picky): values are compared over all load cards of the round, any colour.",
    "Decision (stubborn): more than half means refusers × 2 > players; the removed loads "
    "stay face down (hidden until the end).",
    "Decision (lost): the first-player card passes when the lost donkey's loads are set "
    "aside; the resumed round (capacity 5 × players, favours allowed) is led by whoever "
    "holds the card then. Several lost donkeys (custom decks) resume in the order they "
    "were set aside.",
    "Decision (double): the donkey removed is the last one of the remaining deck, unseen "
    "until the end; the double donkey is the last donkey when the deck is empty after it "
    "(a set-aside lost round does not count).",
    "Decision (difficult): each player plays one card in turn, clockwise from the first "
    "player; the first and the last card lie face up.",
    "Decision: the highest total wins, then the most won cards; still "
    f"{common.TIES_SHARE}.",
    "Decision (resigning): a seat that resigns takes the worst result: it is placed last, "
    "behind every seat still in play, whatever its total; "
    f"{common.CONCEDED_LAST}.",
    "Decision: until the first donkey's round is over (scored, or set aside when lost), "
    f"{common.ABORT_BY_AGREEMENT}.",
    "Decision (forced moves): a seat's only legal action is forced (played at once for a "
    "seat that asked for it) when everybody can see it is the only one: a load from a "
    "hand of exactly the cards to load, stopping to look with nothing left to look at, "
    "keeping a load with an empty hand, the last card of a pile, keeping when no swap is "
    "possible. A lone \"no favour\" is never forced: played at once it would tell the "
    "table that the hand holds no favour card.",
    "Decision (take-back): a load, a favour call or its refusal, a contract choice and a "
    "late favour's choice may be taken back, before any other seat acts, while nothing "
    "followed it (the phase goes on: no load revealed, no card drawn at random). A look "
    "is never taken back: it showed the seat a hidden card.",
)

OPTIONS = (
    OptionSpec(
        name="donkey_deck", type="composition_or_list", default=dict(dk.DEFAULT_COMPOSITION),
        minimum=dk.DECK_SIZE, maximum=dk.MAX_COMPOSITION,
        description="the donkey cards shuffled at setup, 8 of which are drawn, as a mapping "
                    f"type → count (at least 8 cards, at most {dk.MAX_COMPOSITION}; the "
                    "default is the spec's 20); or an "
                    f"explicit ordered list of {dk.DECK_SIZE} donkey types, top of the deck "
                    "first (tests, tournaments). Types: " + ", ".join(dk.TYPES) + "."),
    OptionSpec(
        name="first_player", type="seat_or_random", default="random",
        description="who holds the first-player card in round 1"),
)


class CanyonDonkeys:
    """The game object: pure functions over `CanyonState`."""

    id = GAME_ID
    title = TITLE
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options = OPTIONS
    rules = RULES
    action_type: Any = CanyonAction
    state_type = CanyonState
    shapes = CANYON_SHAPES
    heuristics = "domain.bots.canyon_basic"  # the basic bot and the search's kit

    # -- the start -------------------------------------------------------------------------

    def new_state(self, options: Mapping[str, Any], players: int) -> CanyonState:
        common.check_player_count(self, players)
        raw = options.get("donkey_deck")
        deck = _checked_deck(raw) if isinstance(raw, list | tuple) else None
        composition = _checked_composition(raw) if deck is None else dk.DEFAULT_COMPOSITION
        return CanyonState(players=players, deck_option=deck, composition=composition,
                           first_option=_checked_first(options.get("first_player"), players))

    def setup(self, state: CanyonState, rng: random.Random) -> list[Event]:
        # Shuffle the 20 donkeys and draw 8 as a face-down deck (or take the given deck).
        if state.deck_option is not None:
            deck = list(state.deck_option)
        else:
            cards = dk.composition_deck(state.composition)
            rng.shuffle(cards)
            deck = cards[:dk.DECK_SIZE]
        # A random first player holds the first-player card.
        first = state.first_option if state.first_option is not None \
            else rng.randrange(state.players)
        # The deck is face down: its order is a private part no seat receives (HIDDEN).
        play = Play(state, self.evolve)
        play.emit(event("donkeys_drawn", players=state.players, first_player=first,
                        donkeys=len(deck), private={HIDDEN: {"deck": deck}}))
        automatic.run(play, rng)
        return play.events

    # -- legal actions, decide, evolve -----------------------------------------------------

    def to_act(self, state: CanyonState) -> frozenset[int]:
        return seats_to_act(state)

    def legal_actions(self, state: CanyonState, seat: int) -> list[Any]:
        if seat not in seats_to_act(state):
            return []
        return play_rules.legal_actions(state, seat)

    def decide(self, state: CanyonState, seat: int, action: Any,
               rng: random.Random) -> list[Event]:
        common.check_turn(self, state, seat)
        if not isinstance(action, ACTION_CLASSES):
            raise BadAction(f"not a {GAME_ID} action: {action!r}")
        play = Play(state, self.evolve)
        play.emit(*play_rules.decide(state, seat, action))
        automatic.run(play, rng)
        return play.events

    def evolve(self, state: CanyonState, ev: Event) -> CanyonState:
        return evolve(state, ev)

    # -- the clock's rulings (domain.rulings) ----------------------------------------------

    def is_forced(self, state: CanyonState, seat: int, action: Any) -> bool:
        """A lone legal action follows from what everybody sees (the hand's size, the
        loads and looks left, the revealed pile), except a lone "no favour", which would
        tell the table that the hand holds no favour card."""
        return not isinstance(action, CanyonNoFavour)

    def takes_back(self, state: CanyonState, seat: int, action: Any,
                   events: Sequence[Event]) -> bool:
        """A load, a favour call, a contract or a late choice may be taken back while
        nothing followed it (the phase goes on); a look showed the seat a hidden card."""
        return len(events) == 1 and not isinstance(action, CanyonLook)

    # -- terminal, returns -----------------------------------------------------------------

    def outcome(self, state: CanyonState) -> Outcome | None:
        return self.standing(state) if state.phase == OVER else None

    def standing(self, state: CanyonState) -> Outcome:
        totals, counts, _ = standings(state)
        return common.outcome(totals, score_name="points", lower_is_better=False,
                           ranked_by=list(zip(totals, counts, strict=True)))

    def round_scored(self, state: CanyonState) -> bool:
        return state.round > 1 or state.phase == OVER

    # -- what a seat may see ---------------------------------------------------------------

    def view(self, state: CanyonState, viewer: int | None,
             reveal_all: bool = False) -> dict[str, Any]:
        return views.view(state, viewer, reveal_all)

    def determinize(self, view: Mapping[str, Any], seat: int,
                    rng: random.Random) -> CanyonState:
        """A full state consistent with what `seat` sees in `view` (for search bots)."""
        return views.determinize(view, seat, rng)

    # -- what a person reads (texts.py) ------------------------------------------------------

    def action_label(self, view: Mapping[str, Any], action: CanyonAction) -> ActionText:
        return texts.action_label(view, action)

    def event_sentence(self, event: Mapping[str, Any]) -> Text | None:
        return texts.event_sentence(event)

    def layout(self, view: Mapping[str, Any], viewer: int | None) -> Layout:
        return texts.layout(view, viewer)


# -- options that the option specs cannot check ------------------------------------------

def _checked_deck(raw: Sequence[Any]) -> tuple[str, ...]:
    if len(raw) != dk.DECK_SIZE:
        raise BadOptions(f"an explicit donkey_deck lists {dk.DECK_SIZE} donkey types",
                         code="bad_donkey_deck")
    unknown = [d for d in raw if d not in dk.TYPES]
    if unknown:
        raise BadOptions(f"unknown donkey type(s) in donkey_deck: {unknown}; known: "
                         f"{', '.join(dk.TYPES)}", code="bad_donkey_deck")
    return tuple(raw)


def _checked_composition(raw: Any) -> tuple[tuple[str, int], ...]:
    if raw is None:
        return dk.DEFAULT_COMPOSITION
    if not isinstance(raw, Mapping):
        raise BadOptions("donkey_deck is a mapping type → count or a list of donkey types",
                         code="bad_donkey_deck")
    unknown = [d for d in raw if d not in dk.TYPES]
    counts = list(raw.values())
    if unknown or any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in counts):
        raise BadOptions(f"donkey_deck maps donkey types ({', '.join(dk.TYPES)}) to "
                         "counts ≥ 0", code="bad_donkey_deck")
    if sum(counts) < dk.DECK_SIZE:
        raise BadOptions(f"donkey_deck needs at least {dk.DECK_SIZE} donkeys",
                         code="bad_donkey_deck")
    if sum(counts) > dk.MAX_COMPOSITION:
        raise BadOptions(f"donkey_deck holds at most {dk.MAX_COMPOSITION} donkeys",
                         code="bad_donkey_deck")
    return tuple((d, raw[d]) for d in dk.TYPES if raw.get(d))


def _checked_first(raw: Any, players: int) -> int | None:
    if raw is None or raw == "random":
        return None
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw < players:
        raise BadOptions(f"first_player must be a seat 0–{players - 1} or \"random\"",
                         code="bad_option")
    return raw


GAME = CanyonDonkeys()
