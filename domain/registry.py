"""The game registry: game id → game object. Adding a game is one line here."""

from __future__ import annotations

from typing import Any

from domain.errors import UnknownGame
from domain.game import Game


def _load() -> dict[str, Game[Any, Any]]:
    games: list[Game[Any, Any]] = []
    # Each game module exposes one object named GAME; the list grows as games are added.
    from domain.games import ochs_und_esel
    games.append(ochs_und_esel.GAME)
    from domain.games import crazy_donkey
    games.append(crazy_donkey.GAME)
    from domain.games import canyon_donkeys
    games.append(canyon_donkeys.GAME)
    from domain.games import trash
    games.append(trash.GAME)
    return {g.id: g for g in games}


_GAMES: dict[str, Game[Any, Any]] | None = None


def games() -> dict[str, Game[Any, Any]]:
    global _GAMES
    if _GAMES is None:
        _GAMES = _load()
    return _GAMES


def get_game(game_id: str) -> Game[Any, Any]:
    try:
        return games()[game_id]
    except KeyError:
        raise UnknownGame(f"no game type {game_id!r}", code="unknown_game_type") from None
