"""What every game needs and no game writes again.

- `HIDDEN`: the key of the private part no seat receives (a face-down deal, a deck's order);
  redaction shows it to nobody until everything is revealed at the end.
- `check_player_count`: one error for a wrong number of players, with the code
  (`bad_player_count`) that `POST /games` answers.
- `check_turn`: the guards before any rule — the game is over, it has not started, the seat
  is not one to act. The service checks the same of the table before it calls `decide`;
  a game checks again because bots, the arena and tests call `decide` directly, and an
  action out of turn must never be applied as if it were in turn.
- `Play`: the events one decision causes, each folded into the state as it is emitted, so
  every rule reads the state the previous step left.
- `replaced`: a tuple with one item replaced (states are tuples all the way down).
- `places` and `outcome`: the one ranking every game uses. Competition ranking: tied
  players share their place and the places after them are skipped (1, 1, 3).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from domain.errors import BadOptions, GameNotStarted, GameOver, NotYourTurn
from domain.events import Event
from domain.game import Game, Outcome

S = TypeVar("S")
T = TypeVar("T")

HIDDEN = -1  # the private key no seat receives; shown to everyone once the game is over

# The Decision line each game's `rules` states about ties, in its own words for what is
# compared; this is the part they share.
TIES_SHARE = ("tied players share the place and the places after them are skipped "
              "(competition ranking: 1, 1, 3), as in every game of this server")
# The Decision lines on resigning and aborting: each game says what a result and a round
# are in its own words; this is the part they share (the table applies it: `domain.table`).
CONCEDED_LAST = ("the basic bot plays the seat to the end so that the others can finish; "
                 "a seat whose player left (handing it to a bot of their choice) is placed "
                 "the same way, and such seats share the last place; when fewer than two "
                 "seats are left in play, or none of them is a person's, the game ends at "
                 "once with the places as they stand, those seats still last")
ABORT_BY_AGREEMENT = ("the people still playing may abort the game when all of them agree "
                      "(no result, no rating)")


# --- The start ---------------------------------------------------------------------------
def check_player_count(game: Game[Any, Any], players: Any) -> None:
    """`BadOptions` (`bad_player_count`) unless `players` is a count this game is for."""
    if isinstance(players, bool) or not isinstance(players, int) \
            or not game.min_players <= players <= game.max_players:
        raise BadOptions(f"{game.title} is played by {game.min_players} to "
                         f"{game.max_players} players, not {players}", code="bad_player_count")


# --- Guards before the rules -------------------------------------------------------------
def check_turn(game: Game[S, Any], state: S, seat: int) -> None:
    """The game is on and `seat` is one to act, or the matching `GameRuleError`.

    Read from the game's own `to_act` and `outcome`: a finished game has nobody to act, and
    one that is not over always has someone once it has started (the automatic steps run
    inside `decide`), so nobody to act and no outcome means the cards are not dealt yet."""
    acting = game.to_act(state)
    if seat in acting:
        return
    if game.outcome(state) is not None:
        raise GameOver("the game is over")
    if not acting:
        raise GameNotStarted("the game has not started")
    raise NotYourTurn(f"seat {seat} may not act now"
                      + (f": it is seat {min(acting)}'s turn" if len(acting) == 1 else ""))


# --- Emit and fold -----------------------------------------------------------------------
class Play(Generic[S]):
    """The events a decision causes, in order, and the state they lead to."""

    def __init__(self, state: S, evolve: Callable[[S, Event], S]) -> None:
        self.state = state
        self.events: list[Event] = []
        self._evolve = evolve

    def emit(self, *events: Event) -> S:
        """Record `events` and apply them; the state they lead to."""
        for ev in events:
            self.events.append(ev)
            self.state = self._evolve(self.state, ev)
        return self.state


# --- Tuples ------------------------------------------------------------------------------
def replaced(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """`items` with `items[index]` replaced by `value`."""
    return (*items[:index], value, *items[index + 1:])


# --- Ranking -----------------------------------------------------------------------------
def places(keys: Sequence[Any], *, lower_is_better: bool) -> list[int]:
    """Competition ranking of `keys` (one per seat, compared with `<`; a tuple breaks ties
    by its later items): 1 + the number of seats strictly ahead, so tied seats share the
    place and the places after them are skipped (1, 1, 3)."""
    if lower_is_better:
        return [1 + sum(other < mine for other in keys) for mine in keys]
    return [1 + sum(other > mine for other in keys) for mine in keys]


def outcome(scores: Sequence[float], *, score_name: str, lower_is_better: bool,
            ranked_by: Sequence[Any] | None = None) -> Outcome:
    """The result of a finished game: places by `ranked_by` (default: the scores)."""
    return Outcome(places=places(scores if ranked_by is None else ranked_by,
                                 lower_is_better=lower_is_better),
                   scores=[float(s) for s in scores], score_name=score_name,
                   lower_is_better=lower_is_better)
