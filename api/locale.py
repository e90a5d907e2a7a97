"""The language of a request: `?lang=` (en, fr or de: a browser's EventSource cannot send
headers), else the best of `Accept-Language`, else English. What the server says about a
game (its type's title, options and rulings; error messages people read; labels and
sentences) comes in it, from the catalogs `domain.i18n.Texts` reads."""

from __future__ import annotations

from flask import Flask, Response, current_app, has_request_context, request

from domain.i18n import DEFAULT, Texts, negotiate
from domain.texts import Translate, english

EXTENSION = "donkeypost.texts"


def install(app: Flask, texts: Texts) -> None:
    app.extensions[EXTENSION] = texts


def texts() -> Texts | None:
    return current_app.extensions.get(EXTENSION) if has_request_context() else None


def request_language() -> str:
    """The language this request is answered in."""
    if not has_request_context():
        return DEFAULT
    return negotiate(request.args.get("lang"), request.accept_languages)


def game_words(asked: bool, game_id: str) -> Translate | None:
    """What a game's labels, sentences and layout are rendered with when a request asks for
    them (`words=true`): the translator of the request's language (None: not asked)."""
    if not asked:
        return None
    found = texts()
    return english if found is None else found.translator(request_language(), game_id)


def error_message(code: str, message: str) -> str:
    """An error's message in the request's language (the English one when there is no
    translation, or outside a request)."""
    found = texts()
    return message if found is None else found.error(request_language(), code, message)


def varies(response: Response) -> Response:
    """An answer whose words follow the request's language says so to caches."""
    response.vary.add("Accept-Language")
    response.headers["Content-Language"] = request_language()
    return response
