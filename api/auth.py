"""Seat tokens: `Authorization: Bearer <token>` names a seat of one game.

Only the token's sha256 is stored; a request without a token is a spectator's.
"""

from __future__ import annotations

from flask import request

from api.errors import ApiError


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
        raise ApiError(401, "missing_token", "this needs your seat's token")
    if seat is None:
        raise ApiError(401, "invalid_token", "this token belongs to no seat of this game")
    return seat


def check_token(seat: int | None, token: str | None) -> None:
    """A token that names no seat is refused rather than silently read as a spectator."""
    if token is not None and seat is None:
        raise ApiError(401, "invalid_token", "this token belongs to no seat of this game")
