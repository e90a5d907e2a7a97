"""Stream tickets: how a browser's `EventSource`, which cannot send an `Authorization`
header, follows a seat's events without its token in a URL.

A seat (its token or its player's key, in the header as always) asks for a ticket with
`POST /games/{id}/events/stream/tickets` and opens `GET /games/{id}/events/stream?ticket=…`.
A ticket names one seat of one game, lives `TICKET_TTL_S` seconds and is good for one
stream: opening the stream uses it up, so a ticket that leaks from a log or a browser's
history afterwards opens nothing. A frontend takes a new ticket for each (re)connection.

A player's own event stream takes tickets the same way (`POST
/players/me/events/stream/tickets` with the player key): such a ticket names the player
(`st.<player id>.<secret>`) and is kept in the player's slot.

Only the sha256 of a ticket is kept (`game:{id}:ticket:<sha256>` → seat, `SET EX`), and
using it is one `GETDEL`: two streams cannot both take the same ticket.
"""

from __future__ import annotations

import hashlib
import secrets

import redis

from domain.players.credentials import is_player_id
from domain.store import keys

TICKET_TTL_S = 60
PREFIX = "st."  # tells a ticket from a seat token or a player key at a glance


class StreamTickets:
    def __init__(self, client: redis.Redis, ttl_s: int = TICKET_TTL_S) -> None:
        self.client = client
        self.ttl_s = ttl_s

    def issue(self, game_id: str, seat: int) -> str:
        ticket = PREFIX + secrets.token_urlsafe(24)
        self.client.set(keys.stream_ticket(game_id, _digest(ticket)), seat, ex=self.ttl_s)
        return ticket

    def issue_for_player(self, player_id: str) -> str:
        """A ticket for the player's own event stream (`GET /players/me/events/stream`): it
        names the player, whose slot keeps it."""
        ticket = f"{PREFIX}{player_id}.{secrets.token_urlsafe(24)}"
        self.client.set(keys.player_ticket(player_id, _digest(ticket)), 1, ex=self.ttl_s)
        return ticket

    def redeem_for_player(self, ticket: str) -> str | None:
        """The player a player stream ticket was issued to, once; None for a ticket
        unknown, used, expired or of another form."""
        player_id, dot, secret = ticket.removeprefix(PREFIX).partition(".")
        if not ticket.startswith(PREFIX) or not dot or not secret or \
                not is_player_id(player_id):
            return None
        found = self.client.getdel(keys.player_ticket(player_id, _digest(ticket)))
        return None if found is None else player_id

    def redeem(self, game_id: str, ticket: str) -> int | None:
        """The seat the ticket was issued for, once; None for a ticket unknown, used or
        expired."""
        seat = self.client.getdel(keys.stream_ticket(game_id, _digest(ticket)))
        return None if seat is None else int(seat)


def _digest(ticket: str) -> str:
    return hashlib.sha256(ticket.encode()).hexdigest()
