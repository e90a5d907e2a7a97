"""The application factory: builds the service and the API; nothing happens at import."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Flask
from flask_smorest import Api

from api import errors
from api.contract import register_contract
from api.event_hub import EventHub
from api.routes import games, health, stream, types, webhooks
from domain import registry
from domain.connection import connect
from domain.service import FanOutHooks, GameService, Hooks
from domain.store import RedisEventStore
from domain.webhooks.targets import TargetPolicy

API_VERSION = "0.1.0"
DESCRIPTION = """Play-by-post card games over HTTP.

Create a game (`POST /games`), take seats (`POST /games/{id}/players`, which returns your
seat's secret token), then read the game (`GET /games/{id}` with `Authorization: Bearer
<token>`) and post one of its `legal_actions` (`POST /games/{id}/actions`). Every play is an
event in the game's log (`GET /games/{id}/events`, `/log`), and any moment can be replayed
(`GET /games/{id}/states/{seq}`). Errors share one shape: `{code, status, message}`.
"""


class DonkeyApi(Api):  # type: ignore[misc]
    ERROR_SCHEMA = errors.ErrorSchema
    # Every operation documents each status it can answer (api.contract.operations).
    DEFAULT_ERROR_RESPONSE_NAME = None

    def _register_error_handlers(self) -> None:
        errors.register(self._app)


def create_app(config: Mapping[str, Any] | None = None, hooks: Hooks | None = None) -> Flask:
    """Build the app. `REDIS_URL` (config or environment) names the Redis server."""
    app = Flask("donkeypost")
    app.config.update(
        API_TITLE="donkeypost",
        API_VERSION=API_VERSION,
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        # Swagger UI's files are served from the installed package: the docs work offline.
        OPENAPI_SWAGGER_UI_URL="/docs/assets/",
        API_SPEC_OPTIONS={"info": {"description": DESCRIPTION}},
        JSON_SORT_KEYS=False,
        # Every body this API takes is small; a larger one is refused (413) before parsing.
        MAX_CONTENT_LENGTH=64 * 1024,
        REDIS_URL=os.environ.get("REDIS_URL"),
        RQ_REDIS_URL=os.environ.get("RQ_REDIS_URL"),
        SSE_KEEPALIVE_S=float(os.environ.get("SSE_KEEPALIVE_S", "15")),
        SSE_MAX_S=float(os.environ.get("SSE_MAX_S", "3600")),
        # CIDRs that webhooks may call although they are not public (e.g. 127.0.0.0/8).
        WEBHOOK_ALLOWED_NETWORKS=os.environ.get("WEBHOOK_ALLOWED_NETWORKS", ""),
    )
    app.config.update(config or {})
    if not app.config["REDIS_URL"]:
        raise RuntimeError("REDIS_URL is not set (`donkeypost serve` starts an embedded Redis)")
    client = connect(app.config["REDIS_URL"])
    if hooks is None:
        hooks = default_hooks(app.config["REDIS_URL"], app.config["RQ_REDIS_URL"])
    service = GameService(store=RedisEventStore(client), hooks=hooks)
    app.extensions["donkeypost"] = service

    api = DonkeyApi(app)
    register_contract(api, registry.games())
    api.register_blueprint(health.make_blueprint(client))
    api.register_blueprint(types.make_blueprint())
    api.register_blueprint(games.make_blueprint(service))
    api.register_blueprint(stream.make_blueprint(
        service, EventHub(service.store), app.config["SSE_KEEPALIVE_S"], app.config["SSE_MAX_S"]))
    api.register_blueprint(webhooks.make_blueprint(
        service, TargetPolicy.allowing(app.config["WEBHOOK_ALLOWED_NETWORKS"])))
    app.register_blueprint(_swagger_assets())
    return app


def _swagger_assets() -> Blueprint:
    import flask_swagger_ui

    folder = os.path.join(os.path.dirname(flask_swagger_ui.__file__), "dist")
    return Blueprint("swagger_assets", __name__, static_folder=folder,
                     static_url_path="/docs/assets")


def default_hooks(redis_url: str, rq_redis_url: str | None = None) -> Hooks:
    """What follows every append, in the web application and in the workers alike (a move
    a bot makes is followed like a player's): bot turns, deadlines and away seats, and
    webhook deliveries, on the RQ queues (`RQ_REDIS_URL`, else the games' Redis)."""
    from workers.hooks import RqHooks
    from workers.webhooks import WebhookHooks

    queues = rq_redis_url or redis_url
    hooks: list[Hooks] = [RqHooks.from_url(queues), WebhookHooks.from_urls(redis_url, queues)]
    return FanOutHooks(hooks)
