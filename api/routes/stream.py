"""The game's log as Server-Sent Events: `GET /games/{id}/events/stream`.

Each event is one SSE message: `id:` its seq, `event:` its type, `data:` the event as JSON,
redacted for the caller by `domain.redaction.redact` exactly as `GET /games/{id}/events`
shows it (in full once the game had finished when the event was read). A client resumes
after the last seq it saw with `Last-Event-ID` (browsers send it on reconnecting; it wins
over `?after=`). A browser's `EventSource` cannot send an `Authorization` header: it
streams a seat's events with a single-use ticket instead (`POST
/games/{id}/events/stream/tickets`, `api.stream_tickets`), a new one for each
connection. A comment line keeps idle connections open every `SSE_KEEPALIVE_S` seconds
(15 by default). The stream ends after the game's `game_finished` event, and a
request with nothing left to send about a finished game gets 204, which tells a browser's
EventSource to stop reconnecting. A stream also ends after `SSE_MAX_S` seconds (an hour
by default) so that long-lived connections spread over restarted and added workers; the
client resumes where it was.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import msgspec
from flask import Response, request
from flask.views import MethodView
from flask_smorest import Blueprint

from api.auth import bearer_token, check_token, require_seat
from api.contract.jsonschema import ref
from api.contract.operations import (
    BAD_QUERY,
    BAD_TOKEN,
    NO_SEAT,
    NOT_SEATED,
    SEAT,
    SEAT_OR_SPECTATOR,
    UNKNOWN_GAME,
    ContractBlueprint,
    Failure,
)
from api.errors import ApiError
from api.event_hub import EventHub, GameFeed
from api.request_guard import header_seq
from api.schemas import StreamArgsSchema, StreamTicketSchema
from api.stream_tickets import StreamTickets
from domain.events import Event
from domain.redaction import redact
from domain.service import GameService

RETRY_MS = 3000  # how long a browser waits before reconnecting
CATCH_UP_CHUNK = 500

STREAM_DESCRIPTION = """`text/event-stream`. Each event is a message

    id: <seq>
    event: <event type>
    data: <the event as JSON, as in GET /games/{id}/events>

Lines starting with `:` are keep-alive comments. The stream ends after `game_finished`."""


def sse_message(ev: dict[str, Any]) -> bytes:
    data = msgspec.json.encode(ev)  # one line: JSON escapes every newline
    return b"id: %d\nevent: %s\ndata: %s\n\n" % (ev["seq"], ev["type"].encode(), data)


BAD_TICKET = Failure(401, ("invalid_ticket",),
                     "the stream ticket is unknown, used already or expired: take a new one")


def make_blueprint(service: GameService, hub: EventHub, tickets: StreamTickets,
                   keepalive_s: float, max_s: float) -> Blueprint:
    blp = ContractBlueprint("stream", __name__, url_prefix="/games",
                    description="Push: the log as Server-Sent Events")

    @blp.route("/<string:game_id>/events/stream")
    class EventStream(MethodView):
        @blp.arguments(StreamArgsSchema, location="query")
        @blp.doc(responses={200: {"content": {"text/event-stream": {"schema": {
            "type": "object", "required": ["data"], "description": "one message of the stream",
            "properties": {
                "id": {"type": "string", "description": "the event's seq"},
                "event": {"type": "string", "description": "the event's type"},
                "data": {"type": "string", "contentMediaType": "application/json",
                         "contentSchema": ref("Event"), "description": "the event"},
                "retry": {"type": "integer"}}}}}}})
        @blp.response(200, description=STREAM_DESCRIPTION, content_type="text/event-stream")
        @blp.alt_response(204, description="the game is finished and everything was sent")
        @blp.operation("streamEvents", security=SEAT_OR_SPECTATOR, parameters=["LastEventId"],
                       failures=[BAD_TOKEN, BAD_TICKET, UNKNOWN_GAME, BAD_QUERY, Failure(
                           400, ("bad_last_event_id", "after_past_the_end"),
                           "Last-Event-ID is not a seq, or the seq is past the log's end")])
        def get(self, args: dict[str, Any], game_id: str) -> Response:
            """The log as Server-Sent Events, resumable with Last-Event-ID

            Events are redacted for the caller (a seat with its token, else a spectator)
            exactly as `GET /games/{id}/events` shows them; many streams per token are
            fine. A browser's EventSource cannot send an Authorization header: it passes
            `?ticket=` (from `POST /games/{id}/events/stream/tickets`) instead, which
            streams that ticket's seat once; a dropped connection takes a new ticket and
            resumes with `?after=` the last seq it received."""
            if args.get("ticket") is not None:
                table, _ = service.load(game_id)
                seat = tickets.redeem(game_id, args["ticket"])
                if seat is None:
                    raise ApiError(401, "invalid_ticket", "this stream ticket is unknown, "
                                   "used already or expired: take a new one")
            else:
                token = bearer_token()
                table, seat = service.load(game_id, token)
                check_token(seat, token)
            after = _last_event_id(args["after"])
            finished = table.status == "finished"
            if finished and after >= table.version:
                return Response(status=204)
            if after > table.version:
                # Seqs only grow: a client past the end holds a seq of another log (or made
                # one up). Said now, not after an hour of keep-alives on an empty stream.
                raise ApiError(400, "after_past_the_end",
                               f"the log ends at {table.version}: resume from a seq you "
                               "received")
            frames = _frames(service, hub, game_id, seat, after, finished, keepalive_s, max_s)
            return Response(frames, mimetype="text/event-stream", headers={
                "Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    @blp.route("/<string:game_id>/events/stream/tickets")
    class StreamTicket(MethodView):
        @blp.response(201, StreamTicketSchema)
        @blp.operation("createStreamTicket", security=SEAT,
                       failures=[NO_SEAT, NOT_SEATED, UNKNOWN_GAME])
        def post(self, game_id: str) -> dict[str, Any]:
            """A single-use ticket to stream your seat's events from a browser

            `EventSource` cannot send an Authorization header, and a token in a URL
            would be kept in logs and histories: take a ticket with your token (or key)
            and open `GET /games/{id}/events/stream?ticket=<ticket>` within
            `expires_in_s` seconds. It opens one stream; take a new one to reconnect."""
            token = bearer_token()
            _table, seat = service.load(game_id, token)
            seat = require_seat(seat, token)
            return {"ticket": tickets.issue(game_id, seat), "expires_in_s": tickets.ttl_s,
                    "seat": seat}

    return blp


def _last_event_id(after: int) -> int:
    header = request.headers.get("Last-Event-ID")
    if header is None or header.strip() == "":
        return after
    # The documented pattern allows 15 digits: every such seq is one header_seq reads.
    seq = header_seq(header) if len(header.strip()) <= 15 else None
    if seq is None:
        raise ApiError(400, "bad_last_event_id", "Last-Event-ID must be an event's seq")
    return seq


def _frames(service: GameService, hub: EventHub, game_id: str, viewer: int | None,
            after: int, finished: bool, keepalive_s: float, max_s: float) -> Iterator[bytes]:
    yield b"retry: %d\n\n" % RETRY_MS
    feed, group = (None, 0) if finished else hub.watch(game_id)
    ends_at = time.monotonic() + max_s
    try:
        while True:
            batch = _next_batch(service, feed, game_id, after)
            if batch:
                # Revealed in full if the game had finished when they were read, as the log.
                reveal = finished or (feed is not None and feed.finished) or any(
                    e.type == "game_finished" for e in batch)
                # One write per batch: on a busy process the send, not the JSON, costs most.
                yield b"".join(sse_message(redact(ev, viewer, reveal)) for ev in batch)
                after = batch[-1].seq
                if batch[-1].type == "game_finished":
                    return
                continue
            if feed is None or feed.broken or time.monotonic() >= ends_at:
                return
            if not feed.wait_beyond(after, min(keepalive_s, ends_at - time.monotonic()), group):
                yield b": keep-alive\n\n"
    finally:
        if feed is not None:
            hub.leave(feed, group)


def _next_batch(service: GameService, feed: GameFeed | None, game_id: str,
                after: int) -> list[Event]:
    buffered = feed.events_after(after) if feed is not None else None
    if buffered is not None:
        return buffered
    return service.store.read(game_id, after=after, count=CATCH_UP_CHUNK)
