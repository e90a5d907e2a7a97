"""A game's version in headers (`ETag`, `If-Match`), `Idempotency-Key`, `?words=`, and the
caller's view of a game as an answer: what the routes that read or change one game share."""

from __future__ import annotations

import re
from typing import Any

import marshmallow as ma
from flask import Response, request

from api.encoding import encode_game_view
from api.errors import ApiError
from api.request_guard import header_seq

IF_MATCH = '(?:W/)?"?([0-9]{1,15})"?'  # as the IfMatch parameter documents it
_WORDS = ma.fields.Boolean()  # the Words parameter: the spellings a query schema takes


def etag(version: int) -> str:
    return f'"{version}"'


def if_match() -> int | None:
    """The version `If-Match` names (None: no such header); 412 when it names none."""
    header = request.headers.get("If-Match")
    if header is None:
        return None
    match = re.fullmatch(IF_MATCH, header.strip())
    version = header_seq(match[1]) if match else None
    if version is None:
        raise ApiError(412, "version_mismatch", "If-Match must be a game version, e.g. \"12\"")
    return version


def if_match_hint() -> int | None:
    """The If-Match version if it is a valid one, else None (checked later, in order)."""
    try:
        return if_match()
    except ApiError:
        return None


def idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 0 < len(key) <= 200:
        raise ApiError(400, "bad_idempotency_key", "Idempotency-Key: 1-200 characters")
    return key


def words_asked() -> bool:
    """`?words=`, the document's `Words` parameter: a boolean, false when absent. Read
    here, not by a query schema, because both requests of every move carry it: a schema
    parse is built and run per request for this one flag."""
    if not request.query_string:  # a bot's or a script's request: no query to parse
        return False
    given = request.args.getlist("words")  # (`get` raises and catches a KeyError when absent)
    if not given:
        return False
    try:
        return bool(_WORDS.deserialize(given[0]))
    except ma.ValidationError as err:
        raise ApiError(422, "validation_error",
                       "the request does not match the schema: see errors",
                       errors={"query": {"words": err.messages}}) from None


def vary(words: bool) -> str:
    """What an answer's content depends on besides its URL: the caller (a seat sees its own
    cards), and its language when it carries the game's words."""
    return "Authorization, Accept-Language" if words else "Authorization"


def view_answer(view: dict[str, Any], version: int) -> Response:
    """The caller's view of the game (`GameService.view`) at `version`, with its ETag."""
    return Response(encode_game_view(view), status=200, mimetype="application/json",
                    headers={"ETag": etag(version)})
