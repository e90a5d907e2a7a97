"""How each operation is documented: its id, who may call it, its headers, and every status
it can answer, each error status with the machine codes it can carry.

A route module builds a `ContractBlueprint` and decorates each method with
`blp.operation(...)`. The blueprint also holds two request rules that belong to the
contract: a body that is not JSON is refused with 415, and malformed JSON is 422 on every
route (code `malformed_json`; `bad_action` on `POST /games/{id}/actions`, whose body must be
an action).
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import flask
from flask import request
from flask_smorest import Api
from flask_smorest.exceptions import NotModified
from webargs.flaskparser import FlaskParser

from api import clock_schemas, player_schemas, schemas
from api.contract import examples
from api.contract.jsonschema import ref, without_default
from api.errors import ApiError
from api.paging import PagedBlueprint
from domain.game import Game

# --- who may call ------------------------------------------------------------------------
SEAT_TOKEN = "seatToken"
CREATOR_TOKEN = "creatorToken"
PLAYER_KEY = "playerKey"
PUBLIC: list[dict[str, list[str]]] = []
SEAT_OR_SPECTATOR = [{}, {SEAT_TOKEN: []}, {PLAYER_KEY: []}]  # no token: a spectator
SEAT = [{SEAT_TOKEN: []}, {PLAYER_KEY: []}]  # a seat's token, or the key of its player
SEAT_OR_PLAYER = SEAT
SEAT_OR_CREATOR = [{SEAT_TOKEN: []}, {CREATOR_TOKEN: []}, {PLAYER_KEY: []}]
ANYONE_OR_PLAYER = [{}, {PLAYER_KEY: []}]  # as a player with a key, else anonymous
CREATOR_OR_PLAYER = [{CREATOR_TOKEN: []}, {PLAYER_KEY: []}]
PLAYER = [{PLAYER_KEY: []}]

SECURITY_SCHEMES = {
    SEAT_TOKEN: {"type": "http", "scheme": "bearer", "description": (
        "A seat's token, returned once by POST /games/{id}/players. Without one, reads "
        "are a spectator's.")},
    CREATOR_TOKEN: {"type": "http", "scheme": "bearer", "description": (
        "The creator's token, returned once by POST /games (`creator_token`).")},
    PLAYER_KEY: {"type": "http", "scheme": "bearer", "description": (
        "A player's key (`pk.…`, from POST /players): a player, and the seat they hold in "
        "any game.")},
}


# --- what can go wrong -------------------------------------------------------------------
@dataclass(frozen=True)
class Failure:
    """An error status an operation can answer, the codes it carries, and when."""

    status: int
    codes: tuple[str, ...]
    why: str


BAD_TOKEN = Failure(401, ("invalid_authorization", "invalid_token", "invalid_player_key"),
                    "the Authorization header is not `Bearer <token>` of a seat of this game")
NO_SEAT = Failure(401, ("missing_token", "invalid_authorization", "invalid_token",
                        "invalid_player_key"),
                  "no token, or not one of a seat of this game")
NOT_SEATED = Failure(403, ("not_seated",), "a player key of no seat of this game")
BAD_PLAYER_KEY = Failure(401, ("invalid_authorization", "invalid_player_key",
                               "needs_player_key"),
                         "a player key that is not one (or `me` without a key)")
SUSPENDED_PLAYER = Failure(403, ("player_suspended",), "the player is suspended by the "
                           "service's operator")
NO_PLAYER_KEY = Failure(401, ("missing_player_key", "invalid_authorization",
                              "invalid_player_key"), "no player key, or not a player's")
NO_OWNER = Failure(401, ("missing_token", "invalid_authorization", "invalid_token"),
                   "no token, or neither a seat's of this game nor its creator's")
UNKNOWN_GAME = Failure(404, ("unknown_game", "not_found"), "no such game")
BAD_QUERY = Failure(422, ("validation_error",), "a query parameter is not as documented "
                                                "(`errors` says which)")
BUSY = Failure(409, ("contention", "version_conflict"),
               "the game changed too often meanwhile: try again (see `Retry-After`)")
STORE_UNAVAILABLE = Failure(503, ("store_unavailable",),
                            "the game store is unavailable for a moment: try again after "
                            "`Retry-After` seconds")
# The request line and headers every web server reads (api.observe's limits, gunicorn's):
# any operation answers beyond them, in the error shape.
SERVER_LIMITS = (
    Failure(414, ("uri_too_long",), "the path and query are longer than the server reads "
                                    "(about 8 KB)"),
    Failure(431, ("header_fields_too_large",), "a header longer than 8 KB, or more than "
                                               "100 headers"),
)
RATE_LIMITED = Failure(429, ("too_many_requests",),
                       "too many requests from this address or with this token")
BAD_IDEMPOTENCY_KEY = Failure(400, ("bad_idempotency_key",),
                              "Idempotency-Key is not 1-200 characters")
BODY_FAILURES = (
    Failure(408, ("request_timeout",), "the body did not arrive in time (api.body_deadline)"),
    Failure(413, ("payload_too_large",), "the body is larger than 64 KB"),
    Failure(415, ("unsupported_media_type",), "the body is not `application/json`"),
    Failure(422, ("validation_error", "malformed_json"),
            "the body is not valid JSON, or not as documented (`errors` says which field)"),
)


# --- headers ------------------------------------------------------------------------------
# Components are named by id; `ETAG` is flask-smorest's own.
HEADER_NAMES = {"ETAG": "ETag", "Vary": "Vary", "RetryAfter": "Retry-After",
                "ContentDisposition": "Content-Disposition"}
HEADERS: dict[str, dict[str, Any]] = {
    "Vary": {"description": "`Authorization`: what you see depends on your token",
             "schema": {"type": "string"}},
    "RetryAfter": {"description": "seconds to wait before trying again",
                    "schema": {"type": "integer", "minimum": 0}},
    "ContentDisposition": {"description": "`attachment; filename=\"<id>.ndjson\"`",
                            "schema": {"type": "string"}},
}

PARAMETERS: dict[str, dict[str, Any]] = {
    "Words": {
        "in": "query", "name": "words", "required": False,
        "schema": {"type": "boolean", "default": False}, "description": schemas.WORDS},
    "IfNoneMatch": {
        "in": "header", "name": "If-None-Match", "required": False,
        "schema": {"type": "string"},
        "description": "an `ETag` you hold: 304 (no body) while the answer would be "
                       "the same"},
    "IfMatch": {
        "in": "header", "name": "If-Match", "required": False,
        "schema": {"type": "string", "pattern": '^(W/)?"?[0-9]{1,15}"?$'},  # games.IF_MATCH
        "description": "act only if the game is at this version (`\"12\"`, its `ETag`); "
                       "412 otherwise"},
    "IdempotencyKey": {
        "in": "header", "name": "Idempotency-Key", "required": False,
        "schema": {"type": "string", "minLength": 1, "maxLength": 200},
        "description": "a retried request with the same key gets the first answer and "
                       "changes nothing again"},
    "LastEventId": {
        "in": "header", "name": "Last-Event-ID", "required": False,
        "schema": {"type": "string", "pattern": "^([0-9]{0,15}|[0-9]{1,15}:[0-9]{1,15})$"},
        "description": "resume after this seq, or `<seq>:<n>`: after this seq and this "
                       "entry of the table's chat (wins over `after` and `messages_after`; "
                       "browsers send the last `id:` they saw when they reconnect)"},
}

OWN_PARAMETERS = {"IF_NONE_MATCH": "IfNoneMatch"}  # flask-smorest's -> ours


REQUEST_BODIES = {"Join": schemas.JoinSchema, "WebhookArgs": schemas.WebhookArgsSchema,
                  "NewPlayer": player_schemas.NewPlayerSchema, "Leave": schemas.LeaveSchema,
                  "NewMessage": schemas.NewMessageSchema,
                  "SetNotifications": player_schemas.NotificationsSchema,
                  "NewPushSubscription": player_schemas.NewPushSubscriptionSchema,
                  "NewPlayerWebhook": player_schemas.NewPlayerWebhookSchema,
                  "ForcedMoves": clock_schemas.ForcedMovesSchema,
                  "ClockSettingsChange": clock_schemas.ClockSettingsChangeSchema,
                  "NewVacation": clock_schemas.NewVacationSchema}
REQUEST_EXAMPLES = {"Join": {"name": "ann"}, "WebhookArgs": {"url": "https://203.0.113.7/hook"},
                    "NewPlayer": {"name": "Ann"}, "Leave": {"level": "basic"},
                    "NewMessage": {"text": "good game!"},
                    "SetNotifications": {"channels": ["email"], "digest_hours": 12,
                                      "quiet_hours": {"start": "22:00", "end": "08:00"},
                                      "time_zone": "Europe/Berlin",
                                      "email": "ann@example.org"},
                    "NewPushSubscription": {
                        "endpoint": "https://push.example.net/send/abc123",
                        # P-256's base point: a key of the curve, as a browser gives one
                        "keys": {"p256dh": "BGsX0fLhLEJH-Lzm5WOkQPJ3A32BLeszoPShOUXYmMKWT-"
                                           "NC4v4af5uO5-tKfA-eFivOM1drMV7Oy7ZAaDe_UfU",
                                 "auth": "BTBZMqHH6r4Tts7J_aSIgg"}},
                    "NewPlayerWebhook": {"url": "https://203.0.113.7/donkeypost",
                                         "kinds": ["my_turn", "invited"]},
                    "ForcedMoves": {"auto": True}, "ClockSettingsChange": {"auto_forced": True},
                    "NewVacation": {"days": 7}}


def register_components(api: Api, example_game: Game[Any, Any]) -> None:
    """The shared parts the operations refer to: the error body (its example: a move of
    `example_game` its rules refuse), request bodies, headers, parameters and security
    schemes."""
    spec = api.spec
    for name, body in REQUEST_BODIES.items():
        schema = api.ma_plugin.converter.schema2jsonschema(body)
        schema["properties"] = {key: without_default(prop)
                                for key, prop in schema["properties"].items()}
        spec.components.schema(name, {**schema, "additionalProperties": False,
                                      "examples": [REQUEST_EXAMPLES[name]]})
    # flask-smorest registered the error body (ErrorSchema) already: type its lists.
    spec.components.schemas["Error"]["examples"] = [examples.refused(example_game)]
    error = spec.components.schemas["Error"]["properties"]
    error["legal_actions"]["items"] = ref("Action")
    error["errors"] = {**ref("FieldErrors"), "description": error["errors"]["description"]}
    spec.components.schema("FieldErrors", {
        "type": "object", "description": "what is wrong, by location (`json`, `query`) and "
                                         "field, nested as the input is",
        "additionalProperties": {"anyOf": [{"type": "array", "items": {"type": "string"}},
                                           ref("FieldErrors")]}})
    for name, header in HEADERS.items():
        spec.components.header(name, header)
    for name, parameter in PARAMETERS.items():
        spec.components.parameter(name, parameter["in"], parameter)
    for name, scheme in SECURITY_SCHEMES.items():
        spec.components.security_scheme(name, scheme)


# --- links: from an answer to the next operations ------------------------------------------
def link(operation_id: str, description: str, body: str | None = None,
         headers: dict[str, str] | None = None, **parameters: str) -> dict[str, Any]:
    """An OpenAPI link to `operation_id`, its path parameters, headers and body taken from
    this answer or request by runtime expressions (`$response.body#/id`)."""
    out: dict[str, Any] = {"operationId": operation_id, "description": description,
                           "parameters": {f"path.{name}": expression
                                          for name, expression in parameters.items()}}
    out["parameters"].update({f"header.{name}": expression
                              for name, expression in (headers or {}).items()})
    if body is not None:
        out["requestBody"] = body
    return out


def game_link(operation_id: str, game_id: str, version: str | None = None
              ) -> dict[str, dict[str, Any]]:
    """A link to one of the operations on a game whose id (and version) an answer holds,
    named as OpenAPI links are (`ListEvents` for `listEvents`)."""
    what = {"getGame": "read the game", "listEvents": "read its log",
            "streamEvents": "follow its log", "exportLog": "export its log",
            "listWebhooks": "its webhooks", "registerWebhook": "register a webhook",
            "joinGame": "take a seat", "comeBack": "an away seat comes back",
            "cancelGame": "cancel it before it starts (its creator)",
            "getState": "the game as it was at this version",
            "listMessages": "read its chat", "postMessage": "say something at the table",
            "resignGame": "resign (concede)", "leaveGame": "hand your seat to a bot",
            "voteAbort": "agree to abort it", "withdrawAbort": "take back a vote to abort",
            "takeBack": "take your last move back, while the view offers it"
            }[operation_id]
    extra = {"seq": version} if operation_id == "getState" and version is not None else {}
    return {operation_id[0].upper() + operation_id[1:]: link(operation_id, what,
                                                             game_id=game_id, **extra)}


# --- the blueprint ------------------------------------------------------------------------
@dataclass(frozen=True)
class Operation:
    id: str
    security: list[dict[str, list[str]]]
    failures: tuple[Failure, ...]
    parameters: tuple[str, ...]
    headers: Mapping[int, tuple[str, ...]]
    body: str | None
    responses: Mapping[int, str | dict[str, Any]]
    links: Mapping[int, Mapping[str, dict[str, Any]]]
    rules: tuple[dict[str, Any], ...] = ()


class JsonParser(FlaskParser):
    """Malformed JSON is a 422 like every other bad body (webargs answers 400)."""

    def _handle_invalid_json_error(self, error: Exception, req: flask.Request,
                                   *args: Any, **kwargs: Any) -> typing.NoReturn:
        raise ApiError(422, "malformed_json", f"the body is not valid JSON: {error}")


def _json_bodies_only() -> None:
    if request.content_length and not request.is_json:
        raise ApiError(415, "unsupported_media_type", "send the body as application/json")


class ContractBlueprint(PagedBlueprint):
    ARGUMENTS_PARSER = JsonParser()

    def _check_not_modified(self, etag: str) -> None:
        """`@blp.etag`'s 304, with the `ETag` it confirms (flask-smorest's has none)."""
        if request.method in self.METHODS_CHECKING_NOT_MODIFIED and \
                etag in request.if_none_match:
            confirmed = flask.Response(status=304)
            confirmed.set_etag(etag)
            raise NotModified(response=confirmed)

    def __init__(self, *args: Any, json_bodies_only: bool = True, **kwargs: Any) -> None:
        """`json_bodies_only=False`: the blueprint's routes take other bodies too (a
        form posted from an e-mail's link)."""
        super().__init__(*args, **kwargs)
        self._prepare_doc_cbks.append(self._prepare_contract_doc)
        if json_bodies_only:
            self.before_request(_json_bodies_only)

    def operation(self, operation_id: str, *, security: list[dict[str, list[str]]] = PUBLIC,
                  failures: Sequence[Failure] = (), parameters: Sequence[str] = (),
                  headers: Mapping[int, Sequence[str]] | None = None, body: str | None = None,
                  responses: Mapping[int, str | dict[str, Any]] | None = None,
                  links: Mapping[int, Mapping[str, dict[str, Any]]] | None = None,
                  rules: Sequence[dict[str, Any]] = ()) -> Callable[[Any], Any]:
        """Document an operation: `body` names the request body's schema component;
        `responses` gives the schema (a component's name, or a schema) of answers the
        marshmallow schema does not describe; `parameters` and `headers` name header
        components; `failures` lists every error status; `links` say which operations
        an answer leads to (OpenAPI links: what a client, or a stateful test, does next);
        `rules` are the rules across fields that a schema cannot say (`x-rules`: each with
        the `code` that refuses it, its `status` and a `rule` in words)."""
        failures = tuple(failures) + (BODY_FAILURES if body is not None else ()) + \
            SERVER_LIMITS
        # Rate limits (api.rate_limits) cover every request with a token (refused tokens
        # are counted) and the operations that take a body.
        if security != PUBLIC or body is not None:
            failures += (RATE_LIMITED,)
        # A suspended player's key is refused wherever a player key is taken.
        if any(PLAYER_KEY in scheme for scheme in security):
            failures += (SUSPENDED_PLAYER,)
        # Every operation that reads or writes the store may meet an outage of it.
        if operation_id not in ("getHealth", "getLiveness", "listGameTypes", "getGameType"):
            failures += (STORE_UNAVAILABLE,)
        op = Operation(operation_id, security, failures, tuple(parameters),
                       {s: tuple(h) for s, h in (headers or {}).items()}, body,
                       dict(responses or {}), dict(links or {}), tuple(rules))

        def decorator(func: Any) -> Any:
            func._apidoc = {**getattr(func, "_apidoc", {}), "contract": op}
            return func

        return decorator

    @staticmethod
    def _prepare_contract_doc(doc: dict[str, Any], doc_info: dict[str, Any],
                              **kwargs: Any) -> dict[str, Any]:
        op: Operation | None = doc_info.get("contract")
        if op is None:
            raise ValueError("every operation is documented with blp.operation(...)")
        doc["operationId"] = op.id
        doc["security"] = op.security
        # Components named by id: apispec turns the names into references. The
        # If-None-Match that `@blp.etag` adds is flask-smorest's ("Tag to check against"):
        # ours says what it does.
        doc["parameters"] = [OWN_PARAMETERS.get(p, p) if isinstance(p, str) else p
                             for p in doc.get("parameters", [])] + list(op.parameters)
        if op.body is not None:
            doc["requestBody"] = {"required": True, "content": {
                "application/json": {"schema": ref(op.body)}}}
        responses = doc.setdefault("responses", {})
        if responses.get(304) == "NOT_MODIFIED":  # `@blp.etag`'s: say what it carries
            responses[304] = {"description": "not modified since the `ETag` in "
                                             "If-None-Match", "headers": {"ETag": "ETAG"}}
        for status, name in op.responses.items():
            answer = responses.setdefault(status, {"description": ""})
            schema = ref(name) if isinstance(name, str) else name
            answer["content"] = {"application/json": {"schema": schema}}
        for status, named in op.links.items():
            responses.setdefault(status, {"description": ""})["links"] = dict(named)
        if op.rules:
            doc["x-rules"] = list(op.rules)
        for status, names in op.headers.items():
            responses.setdefault(status, {"description": ""}).setdefault("headers", {}).update(
                {HEADER_NAMES[name]: name for name in names})
        by_status: dict[int, list[Failure]] = {}
        for failure in op.failures:
            by_status.setdefault(failure.status, []).append(failure)
        for status, failures in sorted(by_status.items()):
            codes = list(dict.fromkeys(c for f in failures for c in f.codes))
            answer = {"description": "; ".join(f.why for f in failures) + ". Codes: " +
                      ", ".join(f"`{c}`" for c in codes) + ".",
                      "content": {"application/json": {"schema": ref("Error")}},
                      "x-codes": codes}
            if status in (429, 503) or (status == 409 and "contention" in codes):
                answer["headers"] = {"Retry-After": "RetryAfter"}
            responses[status] = answer
        return doc
