"""The game's log as Server-Sent Events: `GET /games/{id}/events/stream`.

Each event is one SSE message: `id:` its seq, `event:` its type, `data:` the event as JSON,
redacted for the caller by `domain.redaction.redact` exactly as `GET /games/{id}/events`
shows it (in full once the game had finished when the event was read). A client resumes
after the last seq it saw with `Last-Event-ID` (browsers send it on reconnecting; it wins
over `?after=`). A browser's `EventSource` cannot send an `Authorization` header: it
streams a seat's events with a single-use ticket instead (`POST
/games/{id}/events/stream/tickets`, `api.stream_tickets`), a new one for each
connection. A comment line keeps idle connections open every `SSE_KEEPALIVE_S` seconds
(15 by default). The stream ends after the event that ends the game (`game_finished`,
`game_aborted`, `game_cancelled`), and a request with nothing left to send about a game
that is over gets 204, which tells a browser's EventSource to stop reconnecting. A
stream also ends after `SSE_MAX_S` seconds (an hour by default) so that long-lived
connections spread over restarted and added workers; the client resumes where it was.

With `?views=true` the stream also carries the caller's view of the game, as `GET
/games/{id}` gives it (`legal_actions` included), in a `view` message (no `id:`): one when
the stream opens, then one after each batch of events, of the game right after them. A
frontend then never needs a GET after an event. The views are built from the events the
process's feed already read, on the table this process remembers: no read of the store
in the usual case.

The table's chat comes on the same stream, each entry as a message of type `message` (a
seat's text) or `message_hidden` (the creator hid message `message`: drop its text), with
`data:` the entry as `GET /games/{id}/messages` shows it; events and chat entries go in
the order they happened. Once a game's chat has entries, `id:` is `<seq>:<n>`: the last
event's seq and the last chat entry's number sent so far, and `Last-Event-ID` takes either
form (a plain seq resumes the chat from its start; `?messages_after=` says where the chat
starts).
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Iterator
from typing import Any

import msgspec
from flask import Response, request
from flask.views import MethodView
from flask_smorest import Blueprint

from api.auth import caller_seat, caller_table
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
from api.encoding import encode_game_view
from api.errors import ApiError
from api.event_hub import EventHub, GameFeed
from api.locale import game_words
from api.request_guard import header_seq
from api.schemas import StreamArgsSchema, StreamTicketSchema
from api.stream_tickets import StreamTickets
from domain.chat import ChatEntry, shown
from domain.events import Event
from domain.redaction import redact
from domain.service import GameService
from domain.table import OVER, OVER_EVENTS, Table
from domain.texts import Translate

RETRY_MS = 3000  # how long a browser waits before reconnecting
CATCH_UP_CHUNK = 500

STREAM_DESCRIPTION = """`text/event-stream`. Each event is a message

    id: <seq>
    event: <event type>
    data: <the event as JSON, as in GET /games/{id}/events>

and each entry of the table's chat one too, of type `message` or `message_hidden`, with
`data:` the entry as in GET /games/{id}/messages; once the chat has entries, `id:` is
`<seq>:<n>` (the last event and chat entry sent).

With `views=true`, the caller's view of the game (as GET /games/{id} gives it) comes when
the stream opens and after each batch of events, as a message without an id:

    event: view
    data: <the view as JSON>

Lines starting with `:` are keep-alive comments. The stream ends after `game_finished`."""


def sse_message(ev: dict[str, Any], chat_after: int = 0) -> bytes:
    """One event as a message; `chat_after`: the last chat entry sent before it."""
    return _frame(_stream_id(ev["seq"], chat_after), ev["type"], ev)


def chat_message(entry: dict[str, Any], after: int) -> bytes:
    """One chat entry as a message; `after`: the last event sent before it."""
    return _frame(_stream_id(after, entry["n"]), entry["type"], entry)


def _frame(stream_id: bytes, kind: str, data: dict[str, Any]) -> bytes:
    # One line: JSON escapes every newline.
    return b"id: %s\nevent: %s\ndata: %s\n\n" % (stream_id, kind.encode(),
                                                  msgspec.json.encode(data))


def _stream_id(seq: int, chat_n: int) -> bytes:
    return b"%d:%d" % (seq, chat_n) if chat_n else b"%d" % seq


def view_message(view: bytes) -> bytes:
    return b"event: view\ndata: %s\n\n" % view


BAD_TICKET = Failure(401, ("invalid_ticket",),
                     "the stream ticket is unknown, used already or expired: take a new one")


def make_blueprint(service: GameService, hub: EventHub, tickets: StreamTickets,
                   keepalive_s: float, max_s: float) -> Blueprint:
    blp = ContractBlueprint("stream", __name__, url_prefix="/games",
                    description="Push: the log as Server-Sent Events")

    @blp.route("/<string:game_id>/events/stream")
    class EventStream(MethodView):
        @blp.arguments(StreamArgsSchema(), location="query")
        @blp.doc(responses={200: {"content": {"text/event-stream": {"schema": {
            "type": "object", "required": ["data"], "description": "one message of the stream",
            "properties": {
                "id": {"type": "string", "description": "the event's seq, or `<seq>:<n>` "
                                                        "once the chat has entries (none on "
                                                        "a `view` message)"},
                "event": {"type": "string", "description": "the event's type, or `message` "
                                                           "/ `message_hidden`, or `view`"},
                "data": {"type": "string", "contentMediaType": "application/json",
                         "contentSchema": {"anyOf": [ref("Event"), ref("ChatEntry"),
                                                     ref("GameView")]},
                         "description": "the event, or the chat entry, or (`view`, with "
                                        "`views=true`) the caller's view of the game"},
                "retry": {"type": "integer"}}}}}}})
        @blp.response(200, description=STREAM_DESCRIPTION, content_type="text/event-stream")
        @blp.alt_response(204, description="the game is over and everything was sent")
        @blp.operation("streamEvents", security=SEAT_OR_SPECTATOR, parameters=["LastEventId"],
                       failures=[BAD_TOKEN, BAD_TICKET, UNKNOWN_GAME, BAD_QUERY, Failure(
                           400, ("bad_last_event_id",), "Last-Event-ID is not a seq"),
                                 Failure(409, ("after_past_the_end",), "the seq (or chat "
                                         "entry) to resume after is past the log's end: "
                                         "one of another log")])
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
                table, seat = caller_table(service, game_id)
            after, chat_after = _last_event_id(args["after"], args["messages_after"])
            finished = table.status == "finished"
            if table.status in OVER and after >= table.version:
                return Response(status=204)
            if after > table.version:
                # Seqs only grow: a client past the end holds a seq of another log (or made
                # one up). Said now, not after an hour of keep-alives on an empty stream.
                raise ApiError(409, "after_past_the_end",
                               f"the log ends at {table.version}: resume from a seq you "
                               "received")
            if chat_after > service.store.chat_version(game_id):
                raise ApiError(409, "after_past_the_end", "the chat has no entry that far: "
                               "resume from an entry you received")
            words = game_words(args["words"], table.type)
            views = _Views(service, game_id, seat, words) if args["views"] else None
            frames = _frames(service, hub, game_id, seat, (after, chat_after), finished,
                             keepalive_s, max_s, views, table, words,
                             over=table.status in OVER)
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
            _table, seat = caller_seat(service, game_id)
            return {"ticket": tickets.issue(game_id, seat), "expires_in_s": tickets.ttl_s,
                    "seat": seat}

    return blp


def _last_event_id(after: int, chat_after: int) -> tuple[int, int]:
    """Where the stream starts: (after this seq, after this chat entry)."""
    header = request.headers.get("Last-Event-ID")
    if header is None or header.strip() == "":
        return after, chat_after
    seq_text, colon, chat_text = header.strip().partition(":")
    # The documented pattern allows 15 digits on each side: every such number is one
    # header_seq reads.
    seq = header_seq(seq_text) if len(seq_text) <= 15 else None
    chat_n = (header_seq(chat_text) if len(chat_text) <= 15 else None) if colon else 0
    if seq is None or chat_n is None:
        raise ApiError(400, "bad_last_event_id",
                       "Last-Event-ID must be an event's seq, or <seq>:<chat entry>")
    return seq, chat_n


class _Views:
    """The `view` messages of one stream: the viewer's view of the table after a batch."""

    def __init__(self, service: GameService, game_id: str, viewer: int | None,
                 words: Translate | None = None) -> None:
        self.service = service
        self.game_id = game_id
        self.viewer = viewer
        self.words = words

    def of(self, table: Table) -> bytes:
        return view_message(encode_game_view(self.service.view(table, self.viewer,
                                                               self.words)))


def _frames(service: GameService, hub: EventHub, game_id: str, viewer: int | None,
            start: tuple[int, int], finished: bool, keepalive_s: float,
            max_s: float, views: _Views | None = None,
            opened_on: Table | None = None,
            words: Translate | None = None, over: bool = False) -> Iterator[bytes]:
    """`finished`: the game had a result when the stream opened (its events are shown in
    full); `over`: it was over, with a result or not (nothing more comes: no feed)."""
    after, chat_after = start
    yield b"retry: %d\n\n" % RETRY_MS
    if views is not None and opened_on is not None and after >= opened_on.version:
        yield views.of(opened_on)  # nothing to catch up: the view now, at once
    feed, group = (None, 0) if over else hub.watch(game_id)
    # A player watching their seat live is not notified of this game meanwhile.
    player = opened_on.seats[viewer].player if opened_on is not None and \
        viewer is not None and not over else None
    hub.present(player, game_id, keepalive_s * 2 + 5)
    ends_at = time.monotonic() + max_s
    ended = False  # the game's end was sent: what is left of the chat, then the end
    try:
        while True:
            batch = [] if ended else _next_batch(service, feed, game_id, after)
            chat = _next_chat(service, feed, game_id, chat_after)
            if batch or chat:
                # Revealed in full if the game had finished when they were read, as the log.
                reveal = finished or (feed is not None and feed.finished) or any(
                    e.type == "game_finished" for e in batch)
                # The table right after the batch, for its view and the seats' names in
                # the sentences: folded from the one this process remembers (no read).
                now = service.table_at(game_id, batch[-1].seq, batch) \
                    if batch and (views is not None or words is not None) else None
                frames: list[bytes] = []
                for item in heapq.merge(batch, chat, key=lambda item: item.at):
                    if isinstance(item, ChatEntry):
                        chat_after = item.n
                        frames.append(chat_message(shown(item), after))
                    else:
                        after = item.seq
                        event = redact(item, viewer, reveal)
                        if now is not None and words is not None:
                            service.with_sentences(now, [event], words)
                        frames.append(sse_message(event, chat_after))
                        ended = ended or item.type in OVER_EVENTS
                # One write per batch: on a busy process the send, not the JSON, costs most.
                if views is not None and now is not None:
                    frames.append(views.of(now))
                yield b"".join(frames)
                continue
            if ended or feed is None or feed.broken or time.monotonic() >= ends_at:
                return
            if not feed.wait_beyond(after, min(keepalive_s, ends_at - time.monotonic()), group,
                                    chat_after):
                hub.present(player, game_id, keepalive_s * 2 + 5)
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


def _next_chat(service: GameService, feed: GameFeed | None, game_id: str,
               after: int) -> list[ChatEntry]:
    buffered = feed.chat_after(after) if feed is not None else None
    if buffered is not None:
        return buffered
    return service.store.read_chat(game_id, after, CATCH_UP_CHUNK)
