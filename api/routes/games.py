"""Games: create, list, join, view, act, and read the log (plain, long-polled, replayed)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
from flask import Response, request
from flask.views import MethodView
from flask_smorest import Blueprint

from api.auth import bearer_token, check_token, optional_player, require_seat
from api.encoding import encode_game_view, with_view
from api.errors import ApiError, ErrorSchema, from_domain
from api.event_hub import EventHub
from api.paging import PagedBlueprint
from api.request_guard import header_seq
from api.schemas import (
    ActedSchema,
    CreatedGameSchema,
    CreateGameSchema,
    EventsArgsSchema,
    EventsPageSchema,
    GameViewSchema,
    JoinedSchema,
    JoinSchema,
    ListArgsSchema,
    RematchSchema,
)
from domain import registry
from domain.errors import DomainError, UnknownGame
from domain.redaction import redact
from domain.service import GameService, table_view


def _etag(version: int) -> str:
    return f'"{version}"'


def _if_match() -> int | None:
    header = request.headers.get("If-Match")
    if header is None:
        return None
    value = header.strip()
    if value.startswith("W/"):
        value = value[2:]
    version = header_seq(value.strip('"'))
    if version is None:
        raise ApiError(412, "version_mismatch", "If-Match must be a game version, e.g. \"12\"")
    return version


def _if_match_hint() -> int | None:
    """The If-Match version if it is a valid one, else None (checked later, in order)."""
    try:
        return _if_match()
    except ApiError:
        return None


def make_blueprint(service: GameService, hub: EventHub) -> Blueprint:
    blp = PagedBlueprint("games", __name__, url_prefix="/games",
                         description="Create, join and play games; read their logs")

    def load_for_caller(game_id: str) -> tuple[Any, int | None]:
        token = bearer_token()
        table, seat = service.load(game_id, token)
        check_token(seat, token)
        return table, seat

    @blp.route("")
    class Games(MethodView):
        @blp.arguments(CreateGameSchema)
        @blp.response(201, CreatedGameSchema)
        @blp.alt_response(401, schema=ErrorSchema, description="a bad player key, or `me` "
                                                              "without one")
        @blp.alt_response(422, schema=ErrorSchema, description="bad options or seats "
                                                              "(`unknown_player`: no player "
                                                              "of an invited name)")
        @blp.doc(security=[{}, {"playerKey": []}])
        def post(self, body: dict[str, Any]) -> dict[str, Any]:
            """Create a game

            Seats are `human` (taken later with POST /games/{id}/players) or `bot`. With a
            player key, a human seat may say `"me": true` (you sit there) or
            `"invite": "<player name>"` (kept for that player: only they may take it);
            other human seats are open to anyone. The game starts when every seat is
            taken. The answer's `creator_token` (shown once) is the creator's credential,
            e.g. for a game-wide webhook or to cancel the game before it starts."""
            if body["type"] not in registry.games():
                raise ApiError(422, "unknown_game_type", f"no game type {body['type']!r}",
                               errors={"type": [f"one of {sorted(registry.games())}"]})
            by = optional_player(service)
            table = service.create(body["type"], body["options"], body["seats"],
                                   deadline_s=body["deadline_s"], on_timeout=body["on_timeout"],
                                   bot_delay_s=body["bot_delay_s"], by=by)
            return {**service.view(table, table.seat_of(by.id) if by else None),
                    "creator_token": service.issue_creator_token(table.id)}

        @blp.arguments(ListArgsSchema, location="query")
        @blp.response(200, GameViewSchema(many=True))
        @blp.paginate()
        def get(self, args: dict[str, Any], pagination_parameters: Any) -> list[dict[str, Any]]:
            """List games, newest first (filter by status and type)

            `has_free_seat=true` is the lobby: open games with a seat anyone may take."""
            tables, total = service.list_games(
                args.get("status"), args.get("type"),
                offset=pagination_parameters.first_item,
                limit=pagination_parameters.page_size,
                free_seat=args.get("has_free_seat", False))
            pagination_parameters.item_count = total
            return [table_view(t, registry.get_game(t.type), None, 0.0) for t in tables]

    @blp.route("/<string:game_id>")
    class GameResource(MethodView):
        @blp.response(200, GameViewSchema)
        @blp.alt_response(304, description="not modified since the version in If-None-Match")
        @blp.alt_response(401, schema=ErrorSchema, description="bad token")
        @blp.alt_response(404, schema=ErrorSchema, description="unknown game")
        def get(self, game_id: str) -> Any:
            """The game as the caller may see it (a seat with its token, else a spectator)

            `legal_actions` lists complete action bodies the caller may post unchanged.
            The `ETag` is the game's version; `If-None-Match` answers 304 when unchanged."""
            table, seat = load_for_caller(game_id)
            etag = _etag(table.version)
            if etag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
                return Response(status=304, headers={"ETag": etag, "Vary": "Authorization"})
            return Response(encode_game_view(service.view(table, seat)), status=200,
                            mimetype="application/json",
                            headers={"ETag": etag, "Vary": "Authorization"})

    @blp.route("/<string:game_id>/players")
    class Players(MethodView):
        @blp.arguments(JoinSchema)
        @blp.response(201, JoinedSchema)
        @blp.alt_response(401, schema=ErrorSchema, description="a bad player key")
        @blp.alt_response(404, schema=ErrorSchema, description="unknown game")
        @blp.alt_response(409, schema=ErrorSchema, description="no free seat (the ones left "
                                                              "may be kept for invited "
                                                              "players), already seated, "
                                                              "cancelled, or busy "
                                                              "(`contention`: retry after "
                                                              "`Retry-After` seconds)")
        @blp.alt_response(422, schema=ErrorSchema, description="no name (without a key)")
        @blp.doc(security=[{}, {"playerKey": []}])
        def post(self, body: dict[str, Any], game_id: str) -> dict[str, Any]:
            """Take a seat: the token is shown this once

            Without a credential: the next seat open to anyone, under `name`, with a new
            seat token. With a player key: the seat you are invited to, else the next open
            one, as that player (no token: your key is your credential here)."""
            player = optional_player(service)
            if player is None and not body.get("name"):
                raise ApiError(422, "validation_error", "a name is needed without a player "
                                                       "key", errors={"name": ["required"]})
            seat, token, table = service.join(game_id, body.get("name"), player)
            return {"seat": seat, "token": token, "game": service.view(table, seat)}

    @blp.route("/<string:game_id>/cancel")
    class Cancel(MethodView):
        @blp.response(200, GameViewSchema)
        @blp.alt_response(401, schema=ErrorSchema, description="missing or bad credential")
        @blp.alt_response(403, schema=ErrorSchema, description="not the creator")
        @blp.alt_response(404, schema=ErrorSchema, description="unknown game")
        @blp.alt_response(409, schema=ErrorSchema, description="the game has started")
        @blp.doc(security=[{"creatorToken": []}, {"playerKey": []}])
        def post(self, game_id: str) -> Any:
            """Cancel a game that has not started (its creator only)

            With the `creator_token` of POST /games, or the key of the player who created
            it. The game's status becomes `cancelled`; cancelling twice is fine."""
            token = bearer_token()
            if token is None:
                raise ApiError(401, "missing_token", "this needs the creator's token or key")
            table = service.cancel(game_id, token)
            return Response(encode_game_view(service.view(table, None)), status=200,
                            mimetype="application/json",
                            headers={"ETag": _etag(table.version)})

    @blp.route("/<string:game_id>/rematch")
    class RematchResource(MethodView):
        @blp.response(201, RematchSchema, description="the rematch, created now")
        @blp.alt_response(200, schema=RematchSchema, description="the rematch, created "
                                                                 "by an earlier request")
        @blp.alt_response(401, schema=ErrorSchema, description="missing or bad credential")
        @blp.alt_response(403, schema=ErrorSchema, description="no seat in this game")
        @blp.alt_response(404, schema=ErrorSchema, description="unknown game")
        @blp.alt_response(409, schema=ErrorSchema, description="the game is not finished, "
                                                              "or busy (`contention`)")
        @blp.doc(security=[{"seatToken": []}, {"playerKey": []}])
        def post(self, game_id: str) -> Any:
            """Ask for the rematch of a finished game (any of its seats)

            One new game with the same type, options, deadlines and seats, rotated by one
            (the second seat sits first): players are seated again, bots keep their level,
            and a seat an anonymous person held is kept for them — they take it by asking
            here too, with their old seat's token, and get a new token (once). The games
            link both ways (`rematch_of`, `rematch`). Asking again, or at the same moment
            as someone else, gives the same game."""
            token = bearer_token()
            _table, seat = service.load(game_id, token)
            found = service.rematch(game_id, require_seat(seat, token))
            body = {"seat": found.seat, "token": found.token,
                    "game": service.view(found.table, found.seat)}
            return body, 201 if found.created else 200

    @blp.route("/<string:game_id>/back")
    class Back(MethodView):
        @blp.response(200, GameViewSchema)
        @blp.alt_response(401, schema=ErrorSchema, description="missing or bad token")
        @blp.alt_response(404, schema=ErrorSchema, description="unknown game")
        @blp.alt_response(409, schema=ErrorSchema, description="the seat is not away, the "
                                                              "game is not active, or busy "
                                                              "(`contention`: retry after "
                                                              "`Retry-After` seconds)")
        def post(self, game_id: str) -> Any:
            """Come back to an away seat

            After two missed deadlines in a row a seat is marked away and played by the
            server at once. This says its owner is back: from now on the seat waits for
            them again, with its deadline. Playing a move also brings a seat back."""
            token = bearer_token()
            _table, seat = service.load(game_id, token)
            table = service.come_back(game_id, require_seat(seat, token))
            return Response(encode_game_view(service.view(table, seat)), status=200,
                            mimetype="application/json",
                            headers={"ETag": _etag(table.version)})

    @blp.route("/<string:game_id>/actions")
    class Actions(MethodView):
        @blp.doc(requestBody={"required": True, "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/Action"}}}}, parameters=[
            {"in": "header", "name": "If-Match", "required": False,
             "schema": {"type": "string"}, "description": "act only at this version (\"12\")"},
            {"in": "header", "name": "Idempotency-Key", "required": False,
             "schema": {"type": "string", "maxLength": 200},
             "description": "a retried request with the same key gets the first answer; "
                            "the same key with another body: 422 idempotency_key_reused"},
        ])
        @blp.response(200, ActedSchema)
        @blp.alt_response(401, schema=ErrorSchema, description="missing or bad token")
        @blp.alt_response(404, schema=ErrorSchema, description="unknown game")
        @blp.alt_response(409, schema=ErrorSchema, description="not your turn, game over, or "
                                                              "busy (`contention`: retry "
                                                              "after `Retry-After` seconds)")
        @blp.alt_response(412, schema=ErrorSchema, description="If-Match is not the version")
        @blp.alt_response(422, schema=ErrorSchema, description="illegal or malformed action, "
                                                              "or an Idempotency-Key reused "
                                                              "with another body")
        def post(self, game_id: str) -> Any:
            """Play one action

            The events it caused come back as the caller may see them, with the caller's
            new `view` of the game (its `legal_actions` when it is still to act): no GET
            is needed after a move. A retried request (the same `Idempotency-Key`) gets
            the first answer, view included."""
            token = bearer_token()
            loaded = service.load_to_act(game_id, token, version=_if_match_hint())
            seat = require_seat(loaded.seat, token)
            action = request.get_json(silent=True)
            if not isinstance(action, dict):
                now, _ = service.load(game_id)
                raise ApiError(422, "bad_action", "the body must be a JSON object (an action)",
                               version=now.version, legal_actions=_legal(now, seat))
            key = request.headers.get("Idempotency-Key")
            if key is not None and not 0 < len(key) <= 200:
                raise ApiError(400, "bad_idempotency_key", "Idempotency-Key: 1-200 characters")
            try:
                result = service.act(game_id, seat, action, if_match=_if_match(),
                                     idempotency_key=key, loaded=loaded)
            except DomainError as err:
                if isinstance(err, UnknownGame):
                    raise
                now, _ = service.load(game_id)
                raise from_domain(err, version=now.version,
                                  legal_actions=_legal(now, seat)) from None
            table = result.table
            if result.replayed:  # the first answer's view: of the game at its version
                table = service.table_at(game_id, msgspec.json.decode(result.body)["version"])
            view = encode_game_view(service.view(table, seat))
            return Response(with_view(result.body, view), status=200,
                            mimetype="application/json",
                            headers={"ETag": _etag(table.version)})

    def _legal(table: Any, seat: int) -> list[Any]:
        return service.view(table, seat)["legal_actions"]

    @blp.route("/<string:game_id>/events")
    class Events(MethodView):
        @blp.arguments(EventsArgsSchema, location="query")
        @blp.response(200, EventsPageSchema)
        @blp.alt_response(404, schema=ErrorSchema, description="unknown game")
        def get(self, args: dict[str, Any], game_id: str) -> dict[str, Any]:
            """The log after `after`, as the caller may see it; `wait` long-polls

            With `wait`, the answer comes as soon as there is an event after `after`, or
            after `wait` seconds with none. Waiting holds no connection to the store."""
            _table, seat = load_for_caller(game_id)
            after, limit = args["after"], args["limit"]
            events, table = service.events_for(game_id, seat, after=after, limit=limit)
            if not events and args["wait"] > 0 and table.status != "finished":
                feed, group = hub.watch(game_id)  # (woken by the process's one listener)
                try:
                    feed.wait_beyond(after, args["wait"], group)
                finally:
                    hub.leave(feed, group)
                events, table = service.events_for(game_id, seat, after=after, limit=limit)
            return {"version": table.version, "status": table.status, "events": events}

    @blp.route("/<string:game_id>/states/<int:seq>")
    class States(MethodView):
        @blp.response(200, GameViewSchema)
        @blp.alt_response(404, schema=ErrorSchema, description="unknown game or event")
        def get(self, game_id: str, seq: int) -> Response:
            """The caller's view as it was right after event `seq` (replay)"""
            _table, seat = load_for_caller(game_id)
            return Response(encode_game_view(service.state_at(game_id, seq, seat)),
                            status=200, mimetype="application/json")

    @blp.route("/<string:game_id>/log")
    class Log(MethodView):
        @blp.response(200, description="one event per line (NDJSON)",
                      content_type="application/x-ndjson")
        @blp.alt_response(404, schema=ErrorSchema, description="unknown game")
        def get(self, game_id: str) -> Response:
            """Export the log as NDJSON: redacted for the caller, complete after the end"""
            table, seat = load_for_caller(game_id)
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

    return blp
