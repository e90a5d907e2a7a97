"""A game's log: read after a seq (long-polled with `wait`), the view as it was after any
event (replay), and the whole log as NDJSON."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
from flask import Response
from flask.views import MethodView

from api.auth import caller_table
from api.contract.operations import (
    BAD_QUERY,
    BAD_TOKEN,
    SEAT_OR_SPECTATOR,
    UNKNOWN_GAME,
    ContractBlueprint,
    Failure,
)
from api.encoding import encode_game_view
from api.event_hub import EventHub
from api.locale import game_words
from api.routes.game_headers import vary
from api.schemas import EventsArgsSchema, EventsPageSchema, GameViewSchema, WordsArgsSchema
from domain.redaction import redact
from domain.service import GameService


def register(blp: ContractBlueprint, service: GameService, hub: EventHub) -> None:
    @blp.route("/<string:game_id>/events")
    class Events(MethodView):
        @blp.etag
        @blp.arguments(EventsArgsSchema(), location="query")
        @blp.response(200, EventsPageSchema)
        @blp.operation("listEvents", security=SEAT_OR_SPECTATOR, responses={200: "EventsPage"},
                       headers={200: ["Vary"]},
                       failures=[BAD_TOKEN, UNKNOWN_GAME, BAD_QUERY])
        def get(self, args: dict[str, Any], game_id: str) -> Any:
            """The log after `after`, as the caller may see it; `wait` long-polls

            With `wait`, the answer comes as soon as there is an event after `after`, or
            after `wait` seconds with none. Waiting holds no connection to the store."""
            now, seat = caller_table(service, game_id)
            after, limit = args["after"], args["limit"]
            words = game_words(args["words"], now.type)
            events, table = service.events_for(game_id, seat, after=after, limit=limit,
                                               words=words)
            if not events and args["wait"] > 0 and table.status != "finished":
                feed, group = hub.watch(game_id)  # (woken by the process's one listener)
                try:
                    moved = feed.wait_beyond(after, args["wait"], group)
                finally:
                    hub.leave(feed, group)
                # A wait that ends with nothing new answers from the first read: a crowd of
                # long-polls timing out together costs the store nothing.
                if moved:
                    events, table = service.events_for(game_id, seat, after=after,
                                                       limit=limit, words=words)
            return ({"version": table.version, "status": table.status, "events": events},
                    200, {"Vary": vary(args["words"])})

    @blp.route("/<string:game_id>/states/<int:seq>")
    class States(MethodView):
        @blp.arguments(WordsArgsSchema(), location="query")
        @blp.response(200, GameViewSchema)
        @blp.operation("getState", security=SEAT_OR_SPECTATOR, responses={200: "GameView"},
                       failures=[BAD_TOKEN, UNKNOWN_GAME, BAD_QUERY,
                                 Failure(404, ("unknown_seq",), "no such event")])
        def get(self, args: dict[str, Any], game_id: str, seq: int) -> Response:
            """The caller's view as it was right after event `seq` (replay)"""
            now, seat = caller_table(service, game_id)
            words = game_words(args["words"], now.type)
            return Response(encode_game_view(service.state_at(game_id, seq, seat, words)),
                            status=200, mimetype="application/json")

    @blp.route("/<string:game_id>/log")
    class Log(MethodView):
        @blp.doc(responses={200: {"content": {"application/x-ndjson": {"schema": {
            "type": "string", "description": "one `Event` (JSON, as in GET "
                                             "/games/{id}/events) per line"}}}}})
        @blp.response(200, description="one event per line (NDJSON): each line an `Event`",
                      content_type="application/x-ndjson")
        @blp.operation("exportLog", security=SEAT_OR_SPECTATOR,
                       headers={200: ["ContentDisposition"]},
                       failures=[BAD_TOKEN, UNKNOWN_GAME])
        def get(self, game_id: str) -> Response:
            """Export the log as NDJSON: redacted for the caller, complete after the end"""
            table, seat = caller_table(service, game_id)
            reveal = table.status == "finished"

            def lines() -> Iterator[bytes]:
                after = 0
                while True:
                    chunk = service.store.read(game_id, after=after, count=500)
                    if not chunk:
                        return
                    for ev in chunk:
                        yield msgspec.json.encode(redact(ev, seat, reveal)) + b"\n"
                    after = chunk[-1].seq

            return Response(lines(), mimetype="application/x-ndjson", headers={
                "Content-Disposition": f'attachment; filename="{game_id}.ndjson"'})
