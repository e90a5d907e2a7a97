"""Credentials: `Authorization: Bearer <token>` carries a seat token (a seat of one game)
or a player key (`pk.…`: a player, and through the table the seat they hold in a game).

Only sha256 hashes of either are stored; a request without one is a spectator's. A valid
player key with no seat in a game reads that game as a spectator.
"""

from __future__ import annotations

from flask import request

from api.errors import ApiError
from domain.players.credentials import is_player_key
from domain.players.records import Player
from domain.service import GameService
from domain.table import Table


def bearer_token() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "invalid_authorization",
                       "use the header 'Authorization: Bearer <token>'")
    return token.strip()


def require_seat(seat: int | None, token: str | None) -> int:
    if token is None:
        raise ApiError(401, "missing_token", "this needs your seat's token or your player key")
    if seat is None:
        if is_player_key(token):
            raise ApiError(403, "not_seated", "you hold no seat in this game")
        raise ApiError(401, "invalid_token", "this token belongs to no seat of this game")
    return seat


def check_token(seat: int | None, token: str | None) -> None:
    """A seat token that names no seat is refused rather than silently read as a
    spectator (a player key was checked already: without a seat here, it spectates)."""
    if token is not None and seat is None and not is_player_key(token):
        raise ApiError(401, "invalid_token", "this token belongs to no seat of this game")


def optional_player(service: GameService) -> Player | None:
    """The player whose key the request carries, if it carries one (other bearer tokens
    are not this question's business)."""
    token = bearer_token()
    if token is None or not is_player_key(token):
        return None
    return service.authenticate(token)


def player_key() -> str:
    """The player key the request carries (checked by what it is used for)."""
    token = bearer_token()
    if token is None or not is_player_key(token):
        raise ApiError(401, "missing_player_key",
                       "this needs your player key: Authorization: Bearer pk.…")
    return token


def require_player(service: GameService) -> Player:
    return service.authenticate(player_key())


def caller_table(service: GameService, game_id: str) -> tuple[Table, int | None]:
    """The game and the caller's seat in it (None: the caller reads as a spectator); a seat
    token that names no seat of this game is refused."""
    token = bearer_token()
    table, seat = service.load(game_id, token)
    check_token(seat, token)
    return table, seat


def caller_seat(service: GameService, game_id: str) -> tuple[Table, int]:
    """The game and the caller's seat in it, which the caller must hold."""
    token = bearer_token()
    table, seat = service.load(game_id, token)
    return table, require_seat(seat, token)


def creator_credential() -> str:
    """The token or player key that should be the game's creator's (checked by the
    service)."""
    token = bearer_token()
    if token is None:
        raise ApiError(401, "missing_token", "this needs the creator's token or key")
    return token
