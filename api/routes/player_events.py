"""A player's own events, for all their games: `GET /players/me/events` (a page) and
`GET /players/me/events/stream` (Server-Sent Events), with the stream's tickets.

Every change a player cares about in a game where they hold (or are invited to) a seat is
an entry of their stream (`domain.players.notes`: `my_turn`, `deadline_soon`, `invited`,
`game_started`, `game_finished`, `message`, `seat_taken_over`). The stream keeps about
the latest thousand entries; each has an id `<ms>-<n>` that orders it, and a client
resumes after the last id it holds (`?after=`, or `Last-Event-ID` on the stream). The
stream is served by the process's event hub (`api.event_hub.PlayerFeed`): however many of
a player's streams are open in a process, one read follows each new entry, and nothing
holds a Redis connection while it waits.

A client that starts follows this order, so that nothing falls between: read the page
(`GET /players/me/events`, whose `last` says where the stream is), look at the inbox
(`GET /players/me/games?my_turn=true`) for what is waiting already, then open the stream
with `?after=<last>`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import msgspec
from flask import Response, request
from flask.views import MethodView

from api.auth import bearer_token, require_player
from api.contract.operations import (
    BAD_QUERY,
    NO_PLAYER_KEY,
    PLAYER,
    ContractBlueprint,
    Failure,
)
from api.errors import ApiError
from api.event_hub import EventHub, PlayerFeed
from api.player_schemas import (
    PlayerEventsArgsSchema,
    PlayerEventsPageSchema,
    PlayerStreamArgsSchema,
    PlayerStreamTicketSchema,
)
from api.routes.stream import RETRY_MS
from api.stream_tickets import StreamTickets
from domain.players.notes import PlayerEntry
from domain.service import GameService

CATCH_UP_CHUNK = 500
_ID_PATTERN = PlayerEventsArgsSchema().fields["after"].validate.regex  # type: ignore[union-attr]

STREAM_DESCRIPTION = """`text/event-stream`. Each entry of your stream is a message

    id: <the entry's id>
    event: <its type: my_turn, deadline_soon, invited, game_started, game_finished,
            message, seat_taken_over>
    data: <the entry as JSON, as in GET /players/me/events>

Lines starting with `:` are keep-alive comments. The stream ends after an hour at most
(`SSE_MAX_S`): resume with Last-Event-ID."""

BAD_TICKET = Failure(401, ("invalid_ticket", "missing_player_key", "invalid_authorization",
                           "invalid_player_key"),
                     "no player key, or a stream ticket unknown, used already or expired")


def make_blueprint(service: GameService, hub: EventHub, tickets: StreamTickets,
                   keepalive_s: float, max_s: float) -> ContractBlueprint:
    blp = ContractBlueprint("player_events", __name__, url_prefix="/players/me/events",
                            description="A player's own events, across all their games")

    @blp.route("")
    class Events(MethodView):
        @blp.arguments(PlayerEventsArgsSchema(), location="query")
        @blp.response(200, PlayerEventsPageSchema)
        @blp.operation("listMyEvents", security=PLAYER, failures=[NO_PLAYER_KEY, BAD_QUERY])
        def get(self, args: dict[str, Any]) -> dict[str, Any]:
            """Your events across your games, after an id you hold

            Oldest first, at most `limit`; `last` is where to ask next (and where `GET
            /players/me/events/stream?after=` continues). The stream keeps about the
            latest thousand entries."""
            player = require_player(service)
            found = service.players.player_events(player.id, args["after"], args["limit"])
            last = found[-1].id if found else (
                args["after"] if args["after"] != "0-0"
                else service.players.last_player_event(player.id))
            return {"events": [e.shown() for e in found], "last": last}

    @blp.route("/stream")
    class Stream(MethodView):
        @blp.arguments(PlayerStreamArgsSchema(), location="query")
        @blp.doc(responses={200: {"content": {"text/event-stream": {"schema": {
            "type": "object", "required": ["data"], "description": "one message",
            "properties": {
                "id": {"type": "string", "description": "the entry's id"},
                "event": {"type": "string", "description": "the entry's type"},
                "data": {"type": "string", "contentMediaType": "application/json",
                         "contentSchema": {"$ref": "#/components/schemas/PlayerEvent"}},
                "retry": {"type": "integer"}}}}}}})
        @blp.response(200, description=STREAM_DESCRIPTION, content_type="text/event-stream")
        @blp.operation("streamMyEvents", security=[{}, *PLAYER], parameters=[{
            "in": "header", "name": "Last-Event-ID", "required": False,
            "schema": {"type": "string", "pattern": _ID_PATTERN.pattern},
            "description": "resume after this entry (wins over `after`; `<ms>` alone "
                           "stands for `<ms>-0`)"}],
            failures=[BAD_TICKET, BAD_QUERY, Failure(400, ("bad_last_event_id",),
                                                     "Last-Event-ID is not an entry's id")])
        def get(self, args: dict[str, Any]) -> Response:
            """Your events as Server-Sent Events, resumable with Last-Event-ID

            With your player key in the Authorization header, or (a browser's
            EventSource, which cannot send one) `?ticket=` from `POST
            /players/me/events/stream/tickets`. Without `after` or Last-Event-ID it starts
            from now."""
            if args.get("ticket") is not None and bearer_token() is None:
                player_id = tickets.redeem_for_player(args["ticket"])
                if player_id is None:
                    raise ApiError(401, "invalid_ticket", "this stream ticket is unknown, "
                                   "used already or expired: take a new one")
            else:
                player_id = require_player(service).id
            after = _last_event_id(args.get("after"))
            if after is None:
                after = service.players.last_player_event(player_id)
            return Response(_frames(service, hub, player_id, after, keepalive_s, max_s),
                            mimetype="text/event-stream",
                            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    @blp.route("/stream/tickets")
    class Tickets(MethodView):
        @blp.response(201, PlayerStreamTicketSchema)
        @blp.operation("createMyStreamTicket", security=PLAYER, failures=[NO_PLAYER_KEY])
        def post(self) -> dict[str, Any]:
            """A single-use ticket to open your event stream from a browser"""
            player = require_player(service)
            return {"ticket": tickets.issue_for_player(player.id),
                    "expires_in_s": tickets.ttl_s}

    return blp


def _last_event_id(after: str | None) -> str | None:
    header = request.headers.get("Last-Event-ID")
    if header is None or not header.strip():
        return after
    if not _ID_PATTERN.match(header.strip()):
        raise ApiError(400, "bad_last_event_id", "Last-Event-ID must be an entry's id "
                       "(<ms>-<n>, or <ms>)")
    return header.strip()


def sse_entry(entry: PlayerEntry) -> bytes:
    body = msgspec.json.decode(entry.body)
    return b"id: %s\nevent: %s\ndata: %s\n\n" % (
        entry.id.encode(), body["type"].encode(), msgspec.json.encode(entry.shown()))


def _frames(service: GameService, hub: EventHub, player_id: str, after: str,
            keepalive_s: float, max_s: float) -> Iterator[bytes]:
    yield b"retry: %d\n\n" % RETRY_MS
    ends_at = time.monotonic() + max_s
    feed: PlayerFeed = hub.watch_player(player_id)
    hub.present(player_id, "*", keepalive_s * 2 + 5)
    try:
        while True:
            found = feed.entries_after(after)
            if found is None:
                found = service.players.player_events(feed.player_id, after, CATCH_UP_CHUNK)
            if found:
                after = found[-1].id
                yield b"".join(sse_entry(e) for e in found)
                continue
            if feed.broken or time.monotonic() >= ends_at:
                return
            if not feed.wait_beyond(after, min(keepalive_s, ends_at - time.monotonic())):
                hub.present(player_id, "*", keepalive_s * 2 + 5)
                yield b": keep-alive\n\n"
    finally:
        hub.leave(feed, 0)
