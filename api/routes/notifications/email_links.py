"""The links of the e-mails: an address's confirmation, and every e-mail's unsubscribe (a GET
only shows a page with a button: mail scanners follow links; a POST unsubscribes, RFC 8058)."""

from __future__ import annotations

import html
import time
from typing import Any

from flask import Response, request
from flask.views import MethodView

from api.contract.operations import BAD_QUERY, RATE_LIMITED, ContractBlueprint, Failure
from api.errors import ApiError
from api.player_schemas import EmailLinkArgsSchema
from api.routes.notifications.wiring import NotifyWiring
from domain.notify.links import CONFIRM, UNSUBSCRIBE, LinkToken, address_digest, read_token
from domain.store.port import NotifyStore

BAD_LINK = Failure(403, ("invalid_link",), "the link is not one this server signed, was "
                                           "changed, or has expired")
STALE_LINK = Failure(409, ("address_changed",), "the address the link was sent to is no "
                                                "longer the one waiting for its confirmation")


def register(blp: ContractBlueprint, wiring: NotifyWiring) -> None:
    store = wiring.store

    @blp.route("/players/email/confirm")
    class Confirm(MethodView):
        @blp.arguments(EmailLinkArgsSchema(), location="query")
        @blp.response(200, description="a page saying the address is confirmed",
                      content_type="text/html")
        @blp.operation("confirmEmail", failures=[BAD_LINK, STALE_LINK, BAD_QUERY])
        def get(self, args: dict[str, Any]) -> Response:
            """The confirmation link of an e-mail address (opened from the e-mail)

            Opened again once the address is confirmed, it says so again."""
            token = _token(wiring, args["token"], CONFIRM)
            if not store.confirm_address(token.player_id, token.address_digest) and \
                    not _confirmed(store, token):
                raise ApiError(409, "address_changed", "this link is for an address that "
                               "is no longer waiting for its confirmation: the address was "
                               "changed since")
            return _page("Address confirmed", "donkeypost will write to this address as "
                         "your notification preferences say.")

    @blp.route("/players/email/unsubscribe")
    class Unsubscribe(MethodView):
        @blp.arguments(EmailLinkArgsSchema(), location="query")
        @blp.response(200, description="a page with a button that unsubscribes",
                      content_type="text/html")
        @blp.operation("unsubscribeEmailPage", failures=[BAD_LINK, BAD_QUERY])
        def get(self, args: dict[str, Any]) -> Response:
            """The unsubscribe link of every e-mail: a page asking to confirm (a GET
            changes nothing)"""
            _token(wiring, args["token"], UNSUBSCRIBE)
            action = html.escape(request.full_path)
            return _page("No more e-mails?", f'<form method="post" action="{action}">'
                         '<input type="hidden" name="List-Unsubscribe" value="One-Click">'
                         '<button type="submit">Stop the e-mails</button></form>',
                         raw=True)

        @blp.arguments(EmailLinkArgsSchema(), location="query")
        @blp.response(200, description="a page saying it is done",
                      content_type="text/html")
        @blp.operation("unsubscribeEmail", failures=[BAD_LINK, BAD_QUERY, RATE_LIMITED])
        def post(self, args: dict[str, Any]) -> Response:
            """Unsubscribe at once (RFC 8058 one-click, or the page's button)"""
            token = _token(wiring, args["token"], UNSUBSCRIBE)
            store.unsubscribe(token.player_id, token.address_digest)
            return _page("Unsubscribed", "No more e-mails will be sent to this address. "
                         "Your games still tell you in the browser and on your event "
                         "stream.")


def _token(wiring: NotifyWiring, raw: str, purpose: str) -> LinkToken:
    token = read_token(wiring.link_secret(), raw, time.time())
    if token is None or token.purpose != purpose:
        raise ApiError(403, "invalid_link", "this link is not valid (changed, or expired): "
                       "ask for a new one")
    return token


def _confirmed(store: NotifyStore, token: LinkToken) -> bool:
    """Is the token's address the player's confirmed one already (a link opened twice)?"""
    email = store.record(token.player_id).email
    return email is not None and address_digest(email) == token.address_digest


def _page(title: str, text: str, raw: bool = False) -> Response:
    body = text if raw else f"<p>{html.escape(text)}</p>"
    return Response(f"<!doctype html><html><head><meta charset=\"utf-8\"><title>"
                    f"{html.escape(title)}</title></head><body><h1>{html.escape(title)}</h1>"
                    f"{body}</body></html>", mimetype="text/html")
