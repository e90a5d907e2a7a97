"""The contract every registered game keeps, checked by random playouts (as OpenSpiel does
for all its games): a game gets these tests by being in the registry.

Each game plays several seeds with its default options at its smallest, a middle and its
largest player count, and one seed with each option set apart (a bool flipped, each other
choice, an int at its bounds) at the smallest and largest counts; at every step:
- the seats to act have legal actions, the others none; every legal action is accepted;
  a few actions that are not legal for the seat that sends them are refused with a
  `GameRuleError` (never another exception, never accepted);
- every new event and the state survive a JSON round trip;
- blindness: for the seats to act and one other seat drawn at random (every seat, over a
  playout), the state `determinize` draws from the seat's view shows the seat that same
  view, and shows a spectator what the true state shows one;
and replaying the log (JSON round-tripped) from the start rebuilds the state.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from domain import texts
from domain.errors import BadOptions, GameRuleError
from domain.events import Event, decode, encode
from domain.game import Game, GameShapes, OptionSpec, SearchableGame, resolve_options
from domain.games import common
from domain.redaction import redact
from domain.texts import Layout, render, render_layout
from tests.support.games import installed_games

DEFAULT_SEEDS = (1, 2, 3)  # the default options; each other option plays one more seed
DESCRIBE_EVERY = 5  # steps between two checks of every viewer's layout and labels
MAX_STEPS = 300  # a playout stops here if the game has not ended (long options)
REPLAY_EVERY = 60  # steps between two replays of the whole log
WRONG_ACTIONS = 3  # actions that are not legal, sent at every step


def option_values(spec: OptionSpec) -> list[Any]:
    """The values of one option, other than its default, that a playout should meet."""
    if spec.type == "bool":
        return [not spec.default]
    if spec.choices is not None:
        return [c for c in spec.choices if c != spec.default]
    if spec.type == "int":
        return [v for v in (spec.minimum, spec.maximum) if v is not None and v != spec.default]
    if spec.type == "seat_or_random":
        return [0] if spec.default == "random" else ["random"]
    return []  # structured options (a deck's composition): their default only


def cases() -> Iterator[Any]:
    for game_id, game in sorted(installed_games().items()):
        variants: list[dict[str, Any]] = [{}]
        variants += [{spec.name: value} for spec in game.options for value in option_values(spec)]
        middle = (game.min_players + game.max_players) // 2
        for players in sorted({game.min_players, middle, game.max_players}):
            default = initial_state(game, players, {})
            for n, options in enumerate(variants):
                if options and players == middle:
                    continue  # the options at the bounds only
                if options and initial_state(game, players, options) == default:
                    continue  # the same game as with the default options (decks=1 for 2)
                label = ",".join(f"{k}={v}" for k, v in options.items()) or "defaults"
                seeds = (DEFAULT_SEEDS[-1] + n,) if options else DEFAULT_SEEDS
                yield pytest.param(game, players, options, seeds,
                                   id=f"{game_id}-{players}p-{label}")


def initial_state(game: Game[Any, Any], players: int, options: dict[str, Any]) -> Any:
    try:
        return game.new_state(resolve_options(game.options, options, players), players)
    except BadOptions as refused:
        return refused


def json_round_trip(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


class Checker:
    """The checks of one step, with what the playout has seen so far."""

    def __init__(self, game: Game[Any, Any], players: int, rng: random.Random) -> None:
        self.game = game
        self.players = players
        self.rng = rng
        self.seen_actions: list[Any] = []  # every action legal somewhere in this game
        self.steps = 0

    def step(self, state: Any) -> None:
        game = self.game
        raw = msgspec.json.encode(state)
        assert msgspec.json.decode(raw, type=game.state_type) == state, "state JSON round trip"
        acting = game.to_act(state)
        legal = {seat: game.legal_actions(state, seat) for seat in range(self.players)}
        for seat in range(self.players):
            assert bool(legal[seat]) == (seat in acting), f"seat {seat}: legal vs to_act"
        for seat in sorted(acting):
            for action in legal[seat]:
                assert msgspec.convert(json_round_trip(action), game.action_type) == action
                self.accepted(state, seat, action)
            self.seen_actions += legal[seat]
        self.refuses_wrong_actions(state, legal)
        self.blind(state)
        if self.steps % DESCRIBE_EVERY == 0:
            self.described(state, legal)
        self.steps += 1

    def described(self, state: Any, legal: dict[int, list[Any]]) -> None:
        """Every viewer's view is laid out, every legal action labelled with ids of that
        layout, every text with all its parameters (`domain.texts`)."""
        game = self.game
        for viewer in (None, *range(self.players)):
            view = json_round_trip(game.view(state, viewer))
            layout = game.layout(view, viewer)
            assert isinstance(layout, Layout)
            json_round_trip(render_layout(layout, NAMES))
            known = texts.ids(layout)
            for action in legal[viewer] if viewer is not None else ():
                said = game.action_label(view, action)
                assert render(said.label, NAMES)["text"], f"{action!r}: no label"
                assert set(said.uses) <= known, f"{action!r} uses {said.uses}: not laid out"

    def sentences(self, events: list[Event]) -> None:
        """Every event of the game has a sentence for every viewer (its own words)."""
        for ev in events:
            for viewer in (None, *range(self.players)):
                said = self.game.event_sentence(json_round_trip(redact(ev, viewer)))
                assert said is not None, f"{ev.type}: no sentence"
                assert render(said, NAMES)["text"]

    def accepted(self, state: Any, seat: int, action: Any) -> None:
        events = self.game.decide(state, seat, action, random.Random(0))
        assert events, f"{action!r} caused no event"
        for ev in events:
            assert decode(encode(ev)) == ev, f"event JSON round trip: {ev.type}"

    def refuses_wrong_actions(self, state: Any, legal: dict[int, list[Any]]) -> None:
        if not self.seen_actions:
            return
        for _ in range(WRONG_ACTIONS):
            seat = self.rng.randrange(self.players)
            action = self.rng.choice(self.seen_actions)
            if action in legal[seat]:
                continue
            with pytest.raises(GameRuleError):
                self.game.decide(state, seat, action, random.Random(0))

    def blind(self, state: Any) -> None:
        """What `determinize` draws from a seat's view shows that seat nothing else, and
        shows a spectator what the true state shows (a seat knows all a spectator does);
        for the seats to act and one more (each a determinization costs as much as the
        rest of a step's checks together)."""
        game = self.game
        if not isinstance(game, SearchableGame):
            return
        spectator = game.view(state, None)
        for seat in sorted({*game.to_act(state), self.rng.randrange(self.players)}):
            seen = game.view(state, seat)
            sample = game.determinize(json_round_trip(seen), seat, self.rng)
            assert game.view(sample, seat) == seen, f"seat {seat}: determinize is not blind"
            assert game.view(sample, None) == spectator, f"seat {seat}: spectator view differs"


def NAMES(seat: int) -> str:
    return f"Player {seat + 1}"


def replayed(game: Game[Any, Any], options: dict[str, Any], players: int,
             log: list[Event]) -> Any:
    state = game.new_state(options, players)
    for ev in log:
        state = game.evolve(state, decode(encode(ev)))
    return state


@pytest.mark.parametrize(("game", "players", "options", "seeds"), list(cases()))
def test_random_playouts_keep_the_contract(game: Game[Any, Any], players: int,
                                           options: dict[str, Any],
                                           seeds: tuple[int, ...]) -> None:
    opts = resolve_options(game.options, options, players)
    try:
        initial = game.new_state(opts, players)
    except BadOptions as refused:
        # A combination the game refuses (too few cards for the players) is refused with
        # an option error, as POST /games answers it; no playout.
        assert refused.code != BadOptions.code
        return
    for seed in seeds:
        rng = random.Random(seed)
        checker = Checker(game, players, rng)
        log = game.setup(initial, rng)
        checker.sentences(log)
        state = initial
        for ev in log:
            assert decode(encode(ev)) == ev
            checker.described(state, {s: [] for s in range(players)})  # (replays show these)
            state = game.evolve(state, ev)
        scored = False
        for step in range(MAX_STEPS):
            checker.step(state)
            # The standing ranks the seats at every step; once a round is scored it stays
            # scored (abort by agreement closes for good).
            assert_competition_ranking(game.standing(state).places)
            assert game.round_scored(state) or not scored
            scored = game.round_scored(state)
            if game.outcome(state) is not None:
                break
            seat = rng.choice(sorted(game.to_act(state)))
            new = game.decide(state, seat, rng.choice(game.legal_actions(state, seat)), rng)
            checker.sentences(new)
            log += new
            for n, ev in enumerate(new):
                if n and step % DESCRIBE_EVERY == 1:  # a state a replay may stop at
                    checker.described(state, {s: [] for s in range(players)})
                state = game.evolve(state, ev)
            if step % REPLAY_EVERY == 0:
                assert replayed(game, opts, players, log) == state, "replay differs"
        assert replayed(game, opts, players, log) == state, "replay differs"
        outcome = game.outcome(state)
        if outcome is not None:
            assert_competition_ranking(outcome.places)
            assert len(outcome.scores) == players and game.to_act(state) == frozenset()
            assert game.standing(state) == outcome and game.round_scored(state)


def assert_competition_ranking(places: list[int]) -> None:
    """Tied seats share a place and the places after them are skipped: a place p is held
    by k seats exactly when p - 1 seats are ahead of them (1, 1, 3 — never 1, 1, 2)."""
    assert min(places) == 1
    for place in places:
        assert sum(p < place for p in places) == place - 1, places


# --- What every game says of itself --------------------------------------------------------
@pytest.mark.parametrize("game", [pytest.param(g, id=gid) for gid, g in
                                  sorted(installed_games().items())])
def test_the_shared_rulings_and_codes(game: Game[Any, Any]) -> None:
    # One tie rule for every game, stated in its Decision lines.
    assert any(r.startswith("Decision") and common.TIES_SHARE in r for r in game.rules)
    # A ruling on resigning (in the game's terms) and the point until which a game may be
    # aborted by agreement.
    assert any(r.startswith("Decision (resigning)") and common.CONCEDED_LAST in r
               for r in game.rules)
    assert any(r.startswith("Decision") and common.ABORT_BY_AGREEMENT in r for r in game.rules)
    # One code for a wrong number of players.
    for players in (game.min_players - 1, game.max_players + 1, True, "3"):
        with pytest.raises(BadOptions) as refused:
            game.new_state(resolve_options(game.options, {}, game.min_players), players)
        assert refused.value.code == "bad_player_count"
    # Every game of this server can be searched by the strong bot.
    assert isinstance(game, SearchableGame)


def test_a_game_without_determinize_is_not_searchable() -> None:
    class Plain:
        id, title, min_players, max_players, options, rules = "plain", "Plain", 2, 2, (), ()
        action_type, state_type = int, int
        shapes = GameShapes(view=dict, events={})

        def new_state(self, options: Any, players: int) -> int: return 0
        def setup(self, state: int, rng: random.Random) -> list[Event]: return []
        def decide(self, state: int, seat: int, action: Any, rng: Any) -> list[Event]: return []
        def evolve(self, state: int, ev: Event) -> int: return state
        def legal_actions(self, state: int, seat: int) -> list[Any]: return []
        def to_act(self, state: int) -> frozenset[int]: return frozenset()
        def view(self, state: int, viewer: Any, reveal_all: bool = False) -> dict[str, Any]:
            return {}
        def outcome(self, state: int) -> None: return None
        def standing(self, state: int) -> Any: return None
        def round_scored(self, state: int) -> bool: return False
        def action_label(self, view: Any, action: Any) -> Any: return None
        def event_sentence(self, event: Any) -> None: return None
        def layout(self, view: Any, viewer: Any) -> Any: return None

    class Searchable(Plain):
        def determinize(self, view: Any, seat: int, rng: random.Random) -> int: return 0

    assert not isinstance(Plain(), SearchableGame)
    assert isinstance(Searchable(), SearchableGame)
