"""Games: create, list, join, view, act, and read the log (plain, long-polled, replayed)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
from flask import Response, request
from flask.views import MethodView
from flask_smorest import Blueprint

from api.auth import bearer_token, check_token, require_seat
from api.encoding import encode_game_view
from api.errors import ApiError, ErrorSchema, from_domain
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
)
from domain import registry
from domain.errors import DomainError, UnknownGame
from domain.redaction import redact
from domain.service import GameService, table_view


class GamesBlueprint(Blueprint):  # type: ignore[misc]
    def _document_pagination_metadata(self, spec: Any, resp_doc: dict[str, Any]) -> None:
        # The header's value is a JSON object: OpenAPI 3 describes that with `content`.
        resp_doc.setdefault("headers", {})[self.PAGINATION_HEADER_NAME] = {
            "description": "pagination metadata (a JSON object)",
            "content": {"application/json": {"schema": {
                "$ref": "#/components/schemas/PaginationMetadata"}}},
        }


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


def make_blueprint(service: GameService) -> Blueprint:
    blp = GamesBlueprint("games", __name__, url_prefix="/games",
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
        @blp.alt_response(422, schema=ErrorSchema, description="bad options or seats")
        def post(self, body: dict[str, Any]) -> dict[str, Any]:
            """Create a game

            Seats are `human` (taken later with POST /games/{id}/players) or `bot`. The game
            starts when every seat is taken. The answer's `creator_token` (shown once) is
            the creator's credential, e.g. for a game-wide webhook."""
            if body["type"] not in registry.games():
                raise ApiError(422, "unknown_game_type", f"no game type {body['type']!r}",
                               errors={"type": [f"one of {sorted(registry.games())}"]})
            table = service.create(body["type"], body["options"], body["seats"],
                                   deadline_s=body["deadline_s"], on_timeout=body["on_timeout"],
                                   bot_delay_s=body["bot_delay_s"])
            return {**service.view(table, None),
                    "creator_token": service.issue_creator_token(table.id)}

        @blp.arguments(ListArgsSchema, location="query")
        @blp.response(200, GameViewSchema(many=True))
        @blp.paginate()
        def get(self, args: dict[str, Any], pagination_parameters: Any) -> list[dict[str, Any]]:
            """List games, newest first (filter by status and type)"""
            tables, total = service.list_games(
                args.get("status"), args.get("type"),
                offset=pagination_parameters.first_item,
                limit=pagination_parameters.page_size)
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
        @blp.alt_response(404, schema=ErrorSchema, description="unknown game")
        @blp.alt_response(409, schema=ErrorSchema, description="no free seat, or busy "
                                                              "(`contention`: retry after "
                                                              "`Retry-After` seconds)")
        def post(self, body: dict[str, Any], game_id: str) -> dict[str, Any]:
            """Take the next free human seat; the token is shown this once"""
            seat, token, table = service.join(game_id, body["name"])
            return {"seat": seat, "token": token, "game": service.view(table, seat)}

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

            The events it caused come back as the caller may see them."""
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
            return Response(result.body, status=200, mimetype="application/json",
                            headers={"ETag": _etag(result.table.version)})

    def _legal(table: Any, seat: int) -> list[Any]:
        return service.view(table, seat)["legal_actions"]

    @blp.route("/<string:game_id>/events")
    class Events(MethodView):
        @blp.arguments(EventsArgsSchema, location="query")
        @blp.response(200, EventsPageSchema)
        @blp.alt_response(404, schema=ErrorSchema, description="unknown game")
        def get(self, args: dict[str, Any], game_id: str) -> dict[str, Any]:
            """The log after `after`, as the caller may see it; `wait` long-polls"""
            _table, seat = load_for_caller(game_id)
            events, table = service.events_for(game_id, seat, after=args["after"],
                                               wait_s=args["wait"], limit=args["limit"])
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
