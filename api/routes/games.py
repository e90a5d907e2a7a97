"""Games: create, list, join, view, act, and read the log (plain, long-polled, replayed)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import msgspec
from flask import Response, request
from flask.views import MethodView
from flask_smorest import Blueprint

from api.auth import bearer_token, check_token, optional_player, require_seat
from api.contract.jsonschema import ref
from api.contract.operations import (
    ANYONE_OR_PLAYER,
    BAD_IDEMPOTENCY_KEY,
    BAD_PLAYER_KEY,
    BAD_QUERY,
    BAD_TOKEN,
    BUSY,
    CREATOR_OR_PLAYER,
    NO_SEAT,
    NOT_SEATED,
    SEAT,
    SEAT_OR_PLAYER,
    SEAT_OR_SPECTATOR,
    UNKNOWN_GAME,
    ContractBlueprint,
    Failure,
    game_link,
    link,
)
from api.encoding import encode_game_view, with_view
from api.errors import ApiError, from_domain
from api.event_hub import EventHub
from api.locale import game_words
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
    WordsArgsSchema,
)
from domain.errors import DomainError, UnknownGame
from domain.redaction import redact
from domain.service import GameService, table_view

REFUSED_GAME = Failure(422, ("unknown_game_type", "bad_player_count", "bad_players",
                             "bad_bot_level", "bad_option", "unknown_option", "bad_options",
                             "bad_donkey_deck", "not_enough_cards", "bad_name",
                             "bad_time_control"),
                      "the game does not take these options or seats")
GAME_STATE = ("not_your_turn", "game_over", "game_not_started", "game_cancelled",
              "game_aborted", "seat_resigned", "seat_left", "out_of_time")
NOT_MODIFIED = "not modified since the `ETag` in If-None-Match"
IF_MATCH = '(?:W/)?"?([0-9]{1,15})"?'  # as the IfMatch parameter documents it


def _etag(version: int) -> str:
    return f'"{version}"'


def _if_match() -> int | None:
    header = request.headers.get("If-Match")
    if header is None:
        return None
    match = re.fullmatch(IF_MATCH, header.strip())
    version = header_seq(match[1]) if match else None
    if version is None:
        raise ApiError(412, "version_mismatch", "If-Match must be a game version, e.g. \"12\"")
    return version


def _idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 0 < len(key) <= 200:
        raise ApiError(400, "bad_idempotency_key", "Idempotency-Key: 1-200 characters")
    return key


def _if_match_hint() -> int | None:
    """The If-Match version if it is a valid one, else None (checked later, in order)."""
    try:
        return _if_match()
    except ApiError:
        return None


NAME_OR_KEY = "name_or_key_required"


def _vary(words: bool) -> str:
    """What an answer's content depends on besides its URL: the caller (a seat sees its own
    cards), and its language when it carries the game's words."""
    return "Authorization, Accept-Language" if words else "Authorization"


def make_blueprint(service: GameService, hub: EventHub) -> Blueprint:
    blp = ContractBlueprint("games", __name__, url_prefix="/games",
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
        @blp.operation("createGame", body="CreateGame", responses={201: "CreatedGame"},
                       security=ANYONE_OR_PLAYER, failures=[REFUSED_GAME, BAD_PLAYER_KEY, Failure(
                           404, ("unknown_player",), "no player has the name invited")],
                       links={201: {
                           name: target for op in ("joinGame", "getGame", "registerWebhook",
                                                   "streamEvents", "exportLog", "cancelGame")
                           for name, target in game_link(op, "$response.body#/id").items()}})
        def post(self, body: dict[str, Any]) -> dict[str, Any]:
            """Create a game

            Seats are `human` (taken later with POST /games/{id}/players) or `bot`. With a
            player key, a human seat may say `"me": true` (you sit there) or
            `"invite": "<player name>"` (kept for that player: only they may take it);
            other human seats are open to anyone. The game starts when every seat is
            taken. The answer's `creator_token` (shown once) is the creator's credential,
            e.g. for a game-wide webhook or to cancel the game before it starts."""
            if body["type"] not in service.games:
                raise ApiError(422, "unknown_game_type", f"no game type {body['type']!r}",
                               errors={"type": [f"one of {sorted(service.games)}"]})
            by = optional_player(service)
            table = service.create(body["type"], body["options"], body["seats"],
                                   deadline_s=body["deadline_s"], on_timeout=body["on_timeout"],
                                   bot_delay_s=body["bot_delay_s"], by=by,
                                   time_control=body["time_control"])
            return {**service.view(table, table.seat_of(by.id) if by else None),
                    "creator_token": service.issue_creator_token(table.id)}

        @blp.etag
        @blp.arguments(ListArgsSchema, location="query")
        @blp.response(200, GameViewSchema(many=True))
        @blp.paginate()
        @blp.operation("listGames", failures=[BAD_QUERY],
                       responses={200: {"type": "array", "items": ref("GameView")}})
        def get(self, args: dict[str, Any], pagination_parameters: Any) -> list[dict[str, Any]]:
            """List games, newest first (filter by status and type)

            `has_free_seat=true` is the lobby: open games with a seat anyone may take."""
            tables, total = service.list_games(
                args.get("status"), args.get("type"),
                offset=pagination_parameters.first_item,
                limit=pagination_parameters.page_size,
                free_seat=args.get("has_free_seat", False))
            pagination_parameters.item_count = total
            return [table_view(t, service.games.game(t.type), None, 0.0) for t in tables]

    @blp.route("/<string:game_id>")
    class GameResource(MethodView):
        @blp.arguments(WordsArgsSchema, location="query")
        @blp.response(200, GameViewSchema)
        @blp.alt_response(304, description=NOT_MODIFIED)
        @blp.operation("getGame", security=SEAT_OR_SPECTATOR,
                       failures=[BAD_TOKEN, UNKNOWN_GAME, BAD_QUERY],
                       responses={200: "GameView"}, parameters=["IfNoneMatch"],
                       headers={200: ["ETAG", "Vary"], 304: ["ETAG", "Vary"]}, links={200: {
                           "PostAction": link("postAction", "play the first legal action",
                                              body="$response.body#/legal_actions/0",
                                              headers={"If-Match": "$response.body#/version"},
                                              game_id="$response.body#/id"),
                           **game_link("comeBack", "$response.body#/id"),
                           **game_link("getState", "$response.body#/id",
                                       "$response.body#/version")}})
        def get(self, args: dict[str, Any], game_id: str) -> Any:
            """The game as the caller may see it (a seat with its token, else a spectator)

            `legal_actions` lists complete action bodies the caller may post unchanged;
            with `words=true` each has its label (`action_labels`) and `layout` lays the
            game out for a client that knows nothing of it. The `ETag` is the game's
            version; `If-None-Match` answers 304 when unchanged."""
            table, seat = load_for_caller(game_id)
            etag = _etag(table.version)
            if etag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
                return Response(status=304, headers={"ETag": etag, "Vary": _vary(args["words"])})
            words = game_words(args["words"], table.type)
            return Response(encode_game_view(service.view(table, seat, words)),
                            status=200,
                            mimetype="application/json",
                            headers={"ETag": etag, "Vary": _vary(args["words"])})

    @blp.route("/<string:game_id>/players")
    class Players(MethodView):
        @blp.arguments(JoinSchema)
        @blp.response(201, JoinedSchema)
        @blp.operation("joinGame", body="Join", responses={201: "Joined"},
                       parameters=["IdempotencyKey"], security=ANYONE_OR_PLAYER, failures=[
                           UNKNOWN_GAME, BAD_PLAYER_KEY, BUSY, BAD_IDEMPOTENCY_KEY,
                           Failure(422, ("idempotency_key_reused", "bad_name"), "the same "
                                   "Idempotency-Key with another request, or a name a table "
                                   "does not take"),
                           Failure(409, ("no_free_seat", "already_seated", "game_cancelled"),
                                   "no free seat (those left may be kept for invited "
                                   "players), you sit here already, or it was cancelled"),
                           Failure(401, (NAME_OR_KEY,), "neither a player key nor a `name`: "
                                   "who is joining?")],
                       rules=[{"code": NAME_OR_KEY, "status": 401,
                               "rule": "a join without a player key needs a `name`"}],
                       links={201: {
                           **game_link("joinGame", "$response.body#/game/id"),
                           **game_link("listEvents", "$response.body#/game/id"),
                           **game_link("listWebhooks", "$response.body#/game/id"),
                           "PostAction": link("postAction", "play your first legal action "
                                              "(with your token)",
                                              body="$response.body#/game/legal_actions/0",
                                              headers={"If-Match":
                                                       "$response.body#/game/version"},
                                              game_id="$response.body#/game/id"),
                           "GetGame": link("getGame", "read the game",
                                           game_id="$response.body#/game/id")}})
        def post(self, body: dict[str, Any], game_id: str) -> dict[str, Any]:
            """Take a seat: the token is shown this once

            Without a credential: the next seat open to anyone, under `name`, with a new
            seat token. With a player key: the seat you are invited to, else the next open
            one, as that player (no token: your key is your credential here). One of the
            two is needed: a join with neither is refused (401 `name_or_key_required`)."""
            player = optional_player(service)
            if player is None and not body.get("name"):
                raise ApiError(401, NAME_OR_KEY, "who is joining? send a `name` for this "
                                                 "table, or your player key",
                               headers={"WWW-Authenticate": "Bearer"})
            seat, token, table = service.join(game_id, body.get("name"), player,
                                              _idempotency_key())
            return {"seat": seat, "token": token, "game": service.view(table, seat)}

    @blp.route("/<string:game_id>/cancel")
    class Cancel(MethodView):
        @blp.response(200, GameViewSchema)
        @blp.operation("cancelGame", security=CREATOR_OR_PLAYER, responses={200: "GameView"},
                       headers={200: ["ETAG"]}, failures=[
                           UNKNOWN_GAME, BUSY,
                           Failure(401, ("missing_token", "invalid_authorization",
                                         "invalid_player_key"), "no credential"),
                           Failure(403, ("not_allowed",), "not the creator's token or key"),
                           Failure(409, ("game_started",), "the game has started")])
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
        @blp.operation("rematchGame", security=SEAT_OR_PLAYER,
                       responses={201: "Joined", 200: "Joined"}, failures=[
                           NO_SEAT, NOT_SEATED, UNKNOWN_GAME, BUSY,
                           Failure(409, ("game_not_finished",), "the game is not finished")],
                       links={201: game_link("getGame", "$response.body#/game/id"),
                              200: game_link("getGame", "$response.body#/game/id")})
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
        @blp.operation("comeBack", security=SEAT, responses={200: "GameView"},
                       headers={200: ["ETAG"]}, failures=[
                           NO_SEAT, NOT_SEATED, UNKNOWN_GAME, BUSY,
                           Failure(409, ("not_away", "game_over", "game_not_started",
                                         "game_cancelled", "seat_resigned", "seat_left"),
                                   "the seat is not away, the game is not being played, "
                                   "or the seat was given up to a bot")],
                       links={200: game_link("getGame", "$response.body#/id")})
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
        @blp.arguments(WordsArgsSchema, location="query")
        @blp.response(200, ActedSchema)
        @blp.operation("postAction", security=SEAT, body="Action", responses={200: "Acted"},
                       parameters=["IfMatch", "IdempotencyKey"], headers={200: ["ETAG"]},
                       failures=[
                           NO_SEAT, NOT_SEATED, UNKNOWN_GAME, BUSY, BAD_QUERY,
                           Failure(409, GAME_STATE, "not your turn, the game is not being "
                                                    "played, or your seat was given up to a "
                                                    "bot (`legal_actions` says what you may "
                                                    "do)"),
                           Failure(412, ("version_mismatch",),
                                   "the game is not at the If-Match version"),
                           BAD_IDEMPOTENCY_KEY,
                           Failure(422, ("bad_action", "idempotency_key_reused"),
                                   "the same Idempotency-Key with another body, or not an "
                                   "action of this game, or "
                                   "one the rules forbid: then the rule's own code (e.g. "
                                   "`too_low`, `not_in_hand`, `donkey_locked`; each game's "
                                   "module lists them), with `legal_actions`")],
                       links={200: {
                           **game_link("getGame", "$request.path.game_id"),
                           **game_link("getState", "$request.path.game_id",
                                       "$response.body#/version"),
                           **game_link("listEvents", "$request.path.game_id"),
                           **game_link("takeBack", "$request.path.game_id")}})
        def post(self, args: dict[str, Any], game_id: str) -> Any:
            """Play one action

            The events it caused come back as the caller may see them, with the caller's
            new `view` of the game (its `legal_actions` when it is still to act; with
            `words=true` labelled and laid out): no GET is needed after a move. A retried
            request (the same `Idempotency-Key`) gets the first answer, view included."""
            token = bearer_token()
            loaded = service.load_to_act(game_id, token, version=_if_match_hint())
            seat = require_seat(loaded.seat, token)
            action = request.get_json(silent=True)
            if not isinstance(action, dict):
                now, _ = service.load(game_id)
                raise ApiError(422, "bad_action", "the body must be a JSON object (an action)",
                               version=now.version, legal_actions=_legal(now, seat))
            key = _idempotency_key()
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
            view = encode_game_view(service.view(table, seat,
                                                 game_words(args["words"], table.type)))
            return Response(with_view(result.body, view), status=200,
                            mimetype="application/json",
                            headers={"ETag": _etag(table.version)})

    def _legal(table: Any, seat: int) -> list[Any]:
        return service.view(table, seat)["legal_actions"]

    @blp.route("/<string:game_id>/events")
    class Events(MethodView):
        @blp.etag
        @blp.arguments(EventsArgsSchema, location="query")
        @blp.response(200, EventsPageSchema)
        @blp.operation("listEvents", security=SEAT_OR_SPECTATOR, responses={200: "EventsPage"},
                       headers={200: ["Vary"]},
                       failures=[BAD_TOKEN, UNKNOWN_GAME, BAD_QUERY])
        def get(self, args: dict[str, Any], game_id: str) -> Any:
            """The log after `after`, as the caller may see it; `wait` long-polls

            With `wait`, the answer comes as soon as there is an event after `after`, or
            after `wait` seconds with none. Waiting holds no connection to the store."""
            now, seat = load_for_caller(game_id)
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
                    200, {"Vary": _vary(args["words"])})

    @blp.route("/<string:game_id>/states/<int:seq>")
    class States(MethodView):
        @blp.arguments(WordsArgsSchema, location="query")
        @blp.response(200, GameViewSchema)
        @blp.operation("getState", security=SEAT_OR_SPECTATOR, responses={200: "GameView"},
                       failures=[BAD_TOKEN, UNKNOWN_GAME, BAD_QUERY,
                                 Failure(404, ("unknown_seq",), "no such event")])
        def get(self, args: dict[str, Any], game_id: str, seq: int) -> Response:
            """The caller's view as it was right after event `seq` (replay)"""
            now, seat = load_for_caller(game_id)
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
