"""The games a process plays: found through the `donkeypost.games` entry-point group.

A game is any installed distribution that declares, in its `pyproject.toml`,

    [project.entry-points."donkeypost.games"]
    my-game = "my_package.game:GAME"

where the name is the game's id and the object implements `domain.game.Game`; the four
games of this project are declared the same way in its own `pyproject.toml`. The composition
root (`donkeypost.bootstrap`) builds a `GameRegistry` once, when a process starts, and hands
it to everything that needs the games (the service, the API and its OpenAPI document, the
workers, the bots, the benchmarks); no module keeps one. A game that cannot be loaded stops
the process with one line naming it (`GameLoadError`), and so do two games with one id.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from domain.errors import UnknownGame
from domain.game import Game

ENTRY_POINT_GROUP = "donkeypost.games"
# What a game object must have for the server to play it (`domain.game.Game`).
_REQUIRED = ("id", "title", "min_players", "max_players", "options", "rules", "action_type",
             "state_type", "shapes", "new_state", "setup", "decide", "evolve",
             "legal_actions", "to_act", "view", "outcome", "standing", "round_scored",
             "action_label", "event_sentence", "layout")


class GameLoadError(Exception):
    """A game could not be loaded, or two games claim one id: the process must not start.
    The message is one line that names the game and where it comes from."""


class GameRegistry(Mapping[str, Game[Any, Any]]):
    """Game id → game object: the games this process plays, in the order they were given."""

    def __init__(self, games: Iterable[Game[Any, Any]] = (),
                 origins: Mapping[int, str] | None = None) -> None:
        """`origins`: where each game comes from (by `id()` of the game object), for the
        message that refuses two games with one id."""
        self._games: dict[str, Game[Any, Any]] = {}
        self._origins = dict(origins or {})
        for game in games:
            if game.id in self._games:
                raise GameLoadError(f"two games have the id {game.id!r}: "
                                    f"{self._origin(self._games[game.id])} and "
                                    f"{self._origin(game)}")
            self._games[game.id] = game

    def __getitem__(self, game_id: str) -> Game[Any, Any]:
        return self._games[game_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._games)

    def __len__(self) -> int:
        return len(self._games)

    def __repr__(self) -> str:
        return f"GameRegistry({sorted(self._games)})"

    def _origin(self, game: Game[Any, Any]) -> str:
        return self._origins.get(id(game)) or f"game {game.id!r} ({type(game).__module__})"

    def game(self, game_id: str) -> Game[Any, Any]:
        """The game of this id, or `UnknownGame` (`unknown_game_type`)."""
        try:
            return self._games[game_id]
        except KeyError:
            raise UnknownGame(f"no game type {game_id!r}", code="unknown_game_type") from None

    def with_games(self, *games: Game[Any, Any]) -> GameRegistry:
        """These games and `games` (an id already here refuses, as at start-up)."""
        return GameRegistry([*self._games.values(), *games], self._origins)


def installed(distributions: Iterable[str] | None = None) -> GameRegistry:
    """The games of every installed distribution (or only of those named in
    `distributions`) that declares one in the `donkeypost.games` entry-point group."""
    wanted = None if distributions is None else {_normal(d) for d in distributions}
    points = [p for p in entry_points(group=ENTRY_POINT_GROUP)
              if wanted is None or _normal(_distribution(p)) in wanted]
    # In the order of their ids, whatever order the installers wrote them in.
    loaded = [(load(p), origin(p))
              for p in sorted(points, key=lambda p: (p.name, _distribution(p)))]
    return GameRegistry([game for game, _ in loaded],
                        {id(game): where for game, where in loaded})


def origin(point: EntryPoint) -> str:
    """How an error names the game of an entry point."""
    return f"game {point.name!r} ({point.value}, from {_distribution(point) or 'unknown'})"


def load(point: EntryPoint) -> Game[Any, Any]:
    """The game an entry point names, checked: it loads, it is a game, its id is the entry
    point's name. Anything else is a `GameLoadError` naming it."""
    where = origin(point)
    try:
        game = point.load()
    except Exception as err:  # any failure of a plugin's import is reported the same way
        raise GameLoadError(f"{where} failed to load: {type(err).__name__}: {err}") from err
    missing = [name for name in _REQUIRED if not hasattr(game, name)]
    if missing:
        raise GameLoadError(f"{where} is not a game: it has no {', '.join(missing)}")
    if game.id != point.name:
        raise GameLoadError(f"{where} has the id {game.id!r}: the entry point's name must be "
                            "the game's id")
    return game


def _distribution(point: EntryPoint) -> str:
    dist = point.dist
    return dist.name if dist is not None else ""


def _normal(name: str) -> str:
    return name.lower().replace("-", "_").replace(".", "_")

