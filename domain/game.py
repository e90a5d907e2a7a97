"""The contract every game implements: decide / evolve, and what a seat may see.

A game is an object with pure functions over an immutable state (a frozen msgspec Struct):

- `new_state(options, players)` — the state before the first event (no randomness).
- `setup(state, rng)` — the facts that start the game (the first deal); randomness is
  drawn from `rng` and its outcome recorded in the events.
- `decide(state, seat, action, rng)` — validates `action` and returns the events it causes,
  automatic follow-ups included (trick won, round scored, next deal). Illegal actions raise
  a `GameRuleError` with a stable code.
- `evolve(state, event)` — applies one fact; no validation, no randomness.
- `legal_actions(state, seat)`, `to_act(state)`, `view(state, viewer, reveal_all)`,
  `outcome(state)`.
- `standing(state)` — the result as it stands now, from the scores so far (what `outcome`
  says once the game is over): the table ends a game with it when resignations leave
  nothing to play for. `round_scored(state)` — whether the first round (deal) has been
  scored: until then the seats may abort the game by agreement.

What a person reads about the game comes from it too (`domain.texts`), computed from what
the viewer already sees, never from the state:
- `action_label(view, action)` — a legal action's short label, and the ids of the cards and
  zones of the layout it involves (`ActionText`), given the viewer's `view`;
- `event_sentence(event)` — a sentence for one of its events as the viewer received it
  (redacted: `domain.redaction.redact`), or None for an event that is not the game's;
- `layout(view, viewer)` — how the viewer's view is laid out (`Layout`: zones of counters,
  cards and notes), so that a client knowing nothing of the game can draw it.

A game may name, in a `heuristics` attribute, the module of its `basic` bot and its
search's kit (`domain.bots.levels`); without one, its bots play and search generically.

A game that search bots can play also offers `determinize(view, seat, rng)` — a full state
that agrees with everything `view` shows `seat` and nothing more — and so is a
`SearchableGame` (`isinstance(game, SearchableGame)` tells).

Replay is `functools.reduce(game.evolve, events, game.new_state(options, players))`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

import msgspec

from domain.errors import BadOptions
from domain.events import Event
from domain.texts import ActionText, Layout, Text

S = TypeVar("S")
A = TypeVar("A")


class OptionSpec(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One game option as the rules endpoint documents it."""

    name: str
    type: str  # "int", "bool", "str", "seat_or_random", "list"
    default: Any = None
    minimum: int | None = None  # of an int; of the items of a collection
    maximum: int | None = None
    choices: list[Any] | None = None
    nullable: bool = False
    description: str = ""


class SeatRule(msgspec.Struct, frozen=True, kw_only=True):
    """A rule across fields of a new game that its options' bounds cannot say: while
    `option` is one of `values`, at most `max_players` seats (else `new_state` refuses with
    `code`). A game lists its own in a `seat_rules` attribute (none: no such rule); the
    API's document states each (`if`/`then` in the game's `CreateGame`, and `x-rules`)."""

    option: str
    values: list[Any]
    max_players: int
    code: str
    rule: str


@dataclass(frozen=True)
class EventShape:
    """An event type's public `data`, and the private part one seat may see (if any)."""

    data: Any  # a TypedDict
    private: Any = None  # a TypedDict, or None when the event has no private part


@dataclass(frozen=True)
class GameShapes:
    """What a game declares about its JSON: `view` is the TypedDict of `Game.view(...)`,
    `events` maps each event type the game emits to its shape, and `option_types` gives
    the type of an option whose `OptionSpec.type` is not one of the plain ones (`int`,
    `bool`, `str`, `seat_or_random`)."""

    view: Any
    events: Mapping[str, EventShape]
    option_types: Mapping[str, Any] = field(default_factory=dict)


class Outcome(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The result of a finished game: `places[seat]` is 1 for the winners. Competition
    ranking: tied seats share a place and the places after them are skipped (1, 1, 3).
    The table's rulings add to a game's own result (`domain.table.ruled_outcome`): the
    seats whose player resigned or left (`conceded`, placed last), and `early` when the
    game ended before its own end because nothing was left to play for."""

    places: list[int]
    scores: list[float]
    score_name: str  # e.g. "penalty", "slots", "points"
    lower_is_better: bool
    conceded: list[int] = msgspec.field(default_factory=list)
    early: bool = False


class Game(Protocol[S, A]):
    id: str
    title: str
    min_players: int
    max_players: int
    options: Sequence[OptionSpec]
    rules: Sequence[str]  # the project's Decision/Assumption lines, as written in the spec
    action_type: Any  # a Union of tagged msgspec Structs (tag field "type")
    state_type: type[S]
    shapes: GameShapes  # the JSON shapes of its view and events, for the API's document

    def new_state(self, options: Mapping[str, Any], players: int) -> S: ...

    def setup(self, state: S, rng: random.Random) -> list[Event]: ...

    def decide(self, state: S, seat: int, action: A, rng: random.Random) -> list[Event]: ...

    def evolve(self, state: S, event: Event) -> S: ...

    def legal_actions(self, state: S, seat: int) -> list[A]: ...

    def to_act(self, state: S) -> frozenset[int]: ...

    def view(self, state: S, viewer: int | None, reveal_all: bool = False) -> dict[str, Any]: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def standing(self, state: S) -> Outcome: ...

    def round_scored(self, state: S) -> bool: ...

    def action_label(self, view: Mapping[str, Any], action: A) -> ActionText: ...

    def event_sentence(self, event: Mapping[str, Any]) -> Text | None: ...

    def layout(self, view: Mapping[str, Any], viewer: int | None) -> Layout: ...


@runtime_checkable
class SearchableGame(Game[S, A], Protocol[S, A]):
    """A game search bots can play: it can sample the hidden part of a seat's view.

    `determinize(view, seat, rng)` returns a full state drawn from those that agree with
    `view` (what `view(state, seat)` showed `seat`), hidden cards drawn at random: so
    `view(determinize(view(s, seat), seat, rng), seat) == view(s, seat)` for every state
    and seat, and the sample says nothing the seat could not know."""

    def determinize(self, view: Mapping[str, Any], seat: int, rng: random.Random) -> S: ...


def resolve_options(specs: Sequence[OptionSpec], given: Mapping[str, Any] | None,
                    players: int) -> dict[str, Any]:
    """Fill defaults and check ranges; unknown options and bad values raise `BadOptions`."""
    given = dict(given or {})
    known = {spec.name for spec in specs}
    unknown = sorted(set(given) - known)
    if unknown:
        raise BadOptions(f"unknown option(s): {', '.join(unknown)}", code="unknown_option")
    out: dict[str, Any] = {}
    for spec in specs:
        value = given.get(spec.name, spec.default)
        out[spec.name] = _check_option(spec, value, players)
    return out


def _check_option(spec: OptionSpec, value: Any, players: int) -> Any:
    def bad(why: str) -> BadOptions:
        return BadOptions(f"option {spec.name!r} {why}", code="bad_option")

    if value is None:
        if spec.nullable or spec.default is None:
            return None
        raise bad("may not be null")
    if spec.type == "bool":
        if not isinstance(value, bool):
            raise bad("must be true or false")
        return value
    if isinstance(value, float) and value.is_integer() and spec.type in ("int", "seat_or_random"):
        value = int(value)  # JSON has one number type: 3.0 is the integer 3
    if spec.type in ("int", "seat_or_random"):
        if spec.type == "seat_or_random" and value == "random":
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            raise bad("must be an integer" + (" or \"random\"" if spec.type != "int" else ""))
        upper = players - 1 if spec.type == "seat_or_random" else spec.maximum
        lower = 0 if spec.type == "seat_or_random" else spec.minimum
        if lower is not None and value < lower:
            raise bad(f"must be at least {lower}")
        if upper is not None and value > upper:
            raise bad(f"must be at most {upper}")
        return value
    if spec.choices is not None and value not in spec.choices:
        raise bad(f"must be one of {spec.choices}")
    return value


def replay(game: Game[S, A], options: Mapping[str, Any], players: int,
           events: Sequence[Event]) -> S:
    """Fold a game's own events over its initial state."""
    state = game.new_state(options, players)
    for ev in events:
        state = game.evolve(state, ev)
    return state
