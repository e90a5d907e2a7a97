"""One error shape for every failure: `{code, status, message, ...}`.

`code` is a stable machine string (`not_your_turn`, `too_low`, `version_mismatch`...),
`status` the HTTP status, `message` a sentence for people. Errors about a game add the
game's current `version` and the caller's `legal_actions`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

import marshmallow as ma
from flask import Flask, Response, jsonify
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException

from api.locale import error_message
from api.observe import request_id
from api.outage import RETRY_AFTER_S, STORE_ERRORS, OutageWatch, describe, is_unavailable
from domain.errors import (
    AlreadySeated,
    BadCredentials,
    BadMessage,
    BadName,
    BadOptions,
    ChatFull,
    Contention,
    DomainError,
    GameRuleError,
    IdempotencyKeyReused,
    IllegalAction,
    NameTaken,
    NotAllowed,
    NotReplicated,
    PreconditionFailed,
    SeatTaken,
    UnknownGame,
    UnknownMessage,
    UnknownPlayer,
    VersionConflict,
)

log = logging.getLogger(__name__)


class ErrorSchema(ma.Schema):
    code = ma.fields.String(required=True, metadata={"description": "stable machine code"})
    status = ma.fields.Integer(required=True, metadata={"description": "HTTP status"})
    message = ma.fields.String(required=True, metadata={"description": "for people"})
    version = ma.fields.Integer(metadata={"description": "the game's current version"})
    legal_actions = ma.fields.List(ma.fields.Dict(), metadata={
        "description": "what the caller may post now"})
    errors = ma.fields.Dict(metadata={"description": "field-by-field validation errors"})
    request_id = ma.fields.String(metadata={
        "description": "this request's id, also in the `X-Request-ID` header: quote it when "
                       "you report a problem"})


class ApiError(Exception):
    """An error answered with the shared JSON shape."""

    def __init__(self, status: int, code: str, message: str,
                 headers: Mapping[str, str] | None = None, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = dict(headers or {})  # sent as HTTP headers, not in the body
        self.extra = extra

    def body(self) -> dict[str, Any]:
        body = {"code": self.code, "status": self.status, "message": self.message,
                **self.extra}
        rid = request_id()
        if rid is not None:
            body["request_id"] = rid
        return body


def status_for(err: DomainError) -> int:
    if isinstance(err, NotReplicated):
        return 503
    if isinstance(err, BadCredentials):
        return 401
    if isinstance(err, NotAllowed):
        return 403
    if isinstance(err, (UnknownGame, UnknownPlayer, UnknownMessage)):
        return 404
    if isinstance(err, PreconditionFailed):
        return 412
    if isinstance(err, (IllegalAction, BadOptions, BadName, BadMessage, IdempotencyKeyReused)):
        return 422
    if isinstance(err, (GameRuleError, SeatTaken, VersionConflict, Contention, NameTaken,
                        AlreadySeated, ChatFull)):
        return 409
    return 400


def from_domain(err: DomainError, **extra: Any) -> ApiError:
    if isinstance(err, PreconditionFailed):
        extra = {"version": err.version, **extra}
    headers = {}
    if isinstance(err, (Contention, NotReplicated)):
        # Busy, not refused: the same request may be sent again after this many seconds.
        headers["Retry-After"] = str(err.retry_after_s)
    return ApiError(status_for(err), err.code, err.message, headers=headers, **extra)


_HTTP_CODES = {
    400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
    405: "method_not_allowed", 406: "not_acceptable", 409: "conflict",
    412: "version_mismatch", 413: "payload_too_large", 415: "unsupported_media_type",
    416: "range_not_satisfiable",
    422: "validation_error", 428: "precondition_required", 429: "too_many_requests",
}


def _json(err: ApiError, headers: dict[str, str] | None = None) -> ResponseReturnValue:
    body = err.body()
    # The message people read, in the request's language (the code stays the same).
    body["message"] = error_message(err.code, err.message)
    response = jsonify(body)
    response.status_code = err.status
    for name, value in {**err.headers, **(headers or {})}.items():
        response.headers[name] = value
    return response


def handle_http_exception(error: HTTPException) -> ResponseReturnValue:
    status = error.code or 500
    if status == 304:  # not an error: no body, the headers its raiser gave
        return error.get_response()
    data = getattr(error, "data", None) or {}
    extra: dict[str, Any] = {}
    errors = data.get("errors") or data.get("messages")
    if errors:
        extra["errors"] = errors
    message = data.get("message") or error.description or error.name
    if status == 422 and errors:
        message = "the request does not match the schema: see errors"
    headers = dict(data.get("headers") or {})
    if status == 405 and getattr(error, "valid_methods", None):
        headers["Allow"] = ", ".join(error.valid_methods or [])
    code = _HTTP_CODES.get(status, "internal_error" if status >= 500 else "http_error")
    return _json(ApiError(status, code, message, **extra), headers)


def store_unavailable(err: BaseException) -> ApiError:
    """The answer while Redis cannot serve: busy, not broken; the same request may be sent
    again after `Retry-After` seconds."""
    return ApiError(503, "store_unavailable",
                    f"the game store is unavailable ({describe(err)}); try again shortly",
                    headers={"Retry-After": str(RETRY_AFTER_S)})


def shared_shape(response: Response) -> Response:
    """Flask `after_request`: an error answered outside the handlers above (e.g. a static
    file's 412 or 416 from a conditional or range request) gets the shared shape too."""
    status = response.status_code
    if status < 400 or response.mimetype == "application/json":
        return response
    body = ApiError(status, _HTTP_CODES.get(status, "http_error"),
                    response.status.partition(" ")[2] or "refused").body()
    response.set_data(json.dumps(body))
    response.mimetype = "application/json"
    return response


def register(app: Flask) -> None:
    app.after_request(shared_shape)
    app.register_error_handler(ApiError, _json)
    app.register_error_handler(DomainError, lambda e: _json(from_domain(e)))
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(Exception, _unexpected)


def _unexpected(error: Exception) -> ResponseReturnValue:
    # Logged with its traceback for the operator; the client gets the shared shape only.
    log.exception("unhandled error")
    return _json(ApiError(500, "internal_error", "the server failed; it has been logged"))


def register_outages(app: Flask, outage: OutageWatch) -> None:
    """Redis errors that mean an outage become 503s, logged once per outage by `outage`;
    any other Redis error is a bug like any other (500, logged with its traceback)."""

    def unavailable(error: Exception) -> ResponseReturnValue:
        if not is_unavailable(error):
            return _unexpected(error)
        outage.failed(error)
        return _json(store_unavailable(error))

    for kind in STORE_ERRORS:
        app.register_error_handler(kind, unavailable)
