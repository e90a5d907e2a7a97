"""The application factory: the API around a service it is given; nothing happens at import.

`create_app` takes every dependency it needs (the service, the Redis client that `/healthz`
pings, the webhook target policy, the event streams' timings) and builds the blueprints
from them; it reads no environment and builds no client. The composition root
(`donkeypost.bootstrap.web_app`) calls it with what it wired from the settings.
"""

from __future__ import annotations

import hmac
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Flask, Response, request
from flask_smorest import Api
from werkzeug.middleware.proxy_fix import ProxyFix

from api import browser, errors, locale, request_guard, web_table
from api.body_deadline import DEFAULT_TIMEOUT_S, BodyDeadline
from api.contract import register_contract
from api.event_hub import EventHub
from api.observe import Observed
from api.outage import OutageWatch
from api.rate_limits import CounterStorage, RateLimits
from api.rate_limits import install as install_rate_limits
from api.routes import (
    analysis,
    chat,
    clocks,
    games,
    health,
    notifications,
    player_events,
    players,
    ratings,
    stream,
    table_life,
    types,
    webhooks,
)
from api.stream_tickets import StreamTickets
from domain.connection import RedisClient, is_cluster, ping
from domain.i18n import Texts
from domain.service import FanOutHooks, GameService
from domain.store import WebhookStore
from domain.webhooks.targets import TargetPolicy

API_VERSION = "0.1.0"
DESCRIPTION = """Play-by-post card games over HTTP.

Create a game (`POST /games`), take seats (`POST /games/{id}/players`, which returns your
seat's secret token), then read the game (`GET /games/{id}` with `Authorization: Bearer
<token>`) and post one of its `legal_actions` (`POST /games/{id}/actions`). Every play is an
event in the game's log (`GET /games/{id}/events`, `/log`), and any moment can be replayed
(`GET /games/{id}/states/{seq}`). Errors share one shape: `{code, status, message}`.

Every answer carries an `X-Request-ID` header, also in every error body (`request_id`):
send your own (1 to 128 letters, digits or `._:;=+/@-`) to find your request in the
server's log, or quote the one you got when you report a problem.

Players (`POST /players`) get one key for every game they sit at: their inbox
(`GET /players/me/games?my_turn=true`) lists where it is their turn, their games can invite
players by name, and their finished games are rated (`GET /ratings/{type}`).
"""


class DonkeyApi(Api):  # type: ignore[misc]
    ERROR_SCHEMA = errors.ErrorSchema
    # Every operation documents each status it can answer (api.contract.operations).
    DEFAULT_ERROR_RESPONSE_NAME = None


def create_app(service: GameService, *, health_redis: RedisClient,
               webhook_store: WebhookStore, webhook_targets: TargetPolicy,
               sse_keepalive_s: float, sse_max_s: float,
               worker_beats: health.WorkerBeats | None = None,
               required_workers: Sequence[str] = (), stale_after_s: float = 30.0,
               queue_waits: health.QueueWaits | None = None,
               queue_wait_limit_s: float = 60.0,
               memory: health.MemoryUse | None = None, memory_budget: int | None = None,
               request_analysis: analysis.RequestAnalysis | None = None,
               rate_limits: RateLimits | None = None,
               rate_limit_storage: CounterStorage | None = None, trusted_proxies: int = 0,
               cors_origins: Sequence[str] = (), body_timeout_s: float = DEFAULT_TIMEOUT_S,
               log_requests: bool = True, metrics: MetricsWiring | None = None,
               erase_player: players.Erase | None = None,
               notify: notifications.NotifyWiring | None = None,
               config: Mapping[str, Any] | None = None) -> Flask:
    """The API of `service`. `health_redis` answers `/healthz` (and keeps the rate limits'
    counters unless `rate_limit_storage` says where), with the workers' last heartbeats
    read by `worker_beats` (the kinds in `required_workers` must have beaten within
    `stale_after_s`) and the queues' waits read by `queue_waits` (late past
    `queue_wait_limit_s`) and the store's memory read by `memory` (against `memory_budget`
    bytes, else the store's limit); `request_analysis` queues a finished game's analysis
    (None: no workers, it is never made); `webhook_store` keeps the webhook registrations;
    `webhook_targets` says which URLs webhooks may be registered for; event streams send a
    keep-alive comment every `sse_keepalive_s` and close after `sse_max_s`; `rate_limits`
    (None: none) are counted per client address, which `trusted_proxies` proxies in front may have
    forwarded; browser pages of `cors_origins` may call it; a request body must arrive
    within `body_timeout_s`; every answer carries the request's id (`X-Request-ID`) and,
    with `log_requests`, leaves a line in the log; `metrics` (None: not counted) counts
    each request and serves `/metrics` to its token; `notify` wires the notifications'
    routes (preferences, e-mail links, Web Push subscriptions; None: not served).
    `config` adds to Flask's (e.g.
    TESTING)."""
    app = Flask("donkeypost")
    # A path with `//` is no path of the API (404), not a redirect to one without (an
    # HTML 308); set before any rule is added, which takes it then.
    app.url_map.merge_slashes = False
    if trusted_proxies:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=trusted_proxies)  # type: ignore[method-assign]
    app.config.update(
        API_TITLE="donkeypost",
        API_VERSION=API_VERSION,
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="/docs",
        # Swagger UI's files are served from the installed package: the docs work offline.
        OPENAPI_SWAGGER_UI_URL="/docs/assets/",
        # "Authorize" keeps the pasted token across reloads; "Try it out" is on at once.
        OPENAPI_SWAGGER_UI_CONFIG={"persistAuthorization": True, "tryItOutEnabled": True},
        API_SPEC_OPTIONS={"info": {"description": DESCRIPTION}},
        JSON_SORT_KEYS=False,
        # Every body this API takes is small; a larger one is refused (413) before parsing.
        MAX_CONTENT_LENGTH=64 * 1024,
    )
    app.config.update(config or {})
    app.extensions["donkeypost"] = service

    app.before_request(request_guard.check_request)
    api = DonkeyApi(app)
    # Every error in the shared shape: these replace the handlers flask-smorest registered
    # for the same exceptions (Flask keeps one handler per exception class).
    errors.register(app)
    outage = OutageWatch(lambda: ping(health_redis))
    errors.register_outages(app, outage)
    app.extensions["donkeypost.outage"] = outage
    register_contract(api, service.games)
    api.register_blueprint(health.make_blueprint(
        health_redis, worker_beats, required_workers, stale_after_s, queue_waits=queue_waits,
        queue_wait_limit_s=queue_wait_limit_s, memory=memory, memory_budget=memory_budget))
    texts = Texts(service.games)
    locale.install(app, texts)
    api.register_blueprint(types.make_blueprint(service.games, texts))
    # One hub per process: long-polls and event streams wait on it, not on Redis.
    hub = EventHub(service.store, players=service.players,
                   presence=notify.store.mark_present if notify is not None else None)
    # It hears this process's appends first: its streams take the new events without
    # reading them back, while the other hooks' round trips go on.
    others = service.deps.hooks
    service.deps.hooks = FanOutHooks(
        [hub, *(others.hooks if isinstance(others, FanOutHooks) else [others])])
    api.register_blueprint(games.make_blueprint(service, hub))
    api.register_blueprint(table_life.make_blueprint(service))
    api.register_blueprint(clocks.make_blueprint(service))
    api.register_blueprint(chat.make_blueprint(service))
    api.register_blueprint(players.make_blueprint(service, erase_player))
    api.register_blueprint(ratings.make_blueprint(service))
    api.register_blueprint(analysis.make_blueprint(service, request_analysis))
    tickets = StreamTickets(health_redis)
    api.register_blueprint(stream.make_blueprint(service, hub, tickets,
                                                 sse_keepalive_s, sse_max_s))
    api.register_blueprint(webhooks.make_blueprint(service, webhook_store, webhook_targets))
    api.register_blueprint(player_events.make_blueprint(service, hub, tickets,
                                                        sse_keepalive_s, sse_max_s))
    if notify is not None:
        api.register_blueprint(notifications.make_blueprint(service, notify))
    app.register_blueprint(_swagger_assets())
    app.register_blueprint(web_table.make_blueprint())
    if rate_limits is not None:
        if rate_limit_storage is None:
            assert not is_cluster(health_redis), "a cluster's counters need their storage"
            rate_limit_storage = CounterStorage.of(health_redis)
        install_rate_limits(app, rate_limits, rate_limit_storage, service)
    browser.install(app, cors_origins)
    # The whole body first, within a deadline: a slow client cannot hold a connection.
    app.wsgi_app = BodyDeadline(app.wsgi_app, body_timeout_s,  # type: ignore[method-assign]
                                max_bytes=app.config["MAX_CONTENT_LENGTH"])
    sink = None
    if metrics is not None:
        from api.metrics import RequestMetrics

        sink = RequestMetrics()
        if metrics.token:
            app.add_url_rule("/metrics", "metrics", _metrics_view(metrics))
    # Outermost: whatever answers below, the answer has the request's id.
    app.wsgi_app = Observed(app.wsgi_app,  # type: ignore[method-assign]
                            log_requests=log_requests, sink=sink)
    return app


@dataclass(frozen=True)
class MetricsWiring:
    """The metrics of the web app: the bearer token `/metrics` asks for (None: it is not
    served) and what a scrape reads from Redis (`api.metrics.StateCollector`'s reader)."""

    token: str | None
    state: Callable[[], Any] | None = None


def _metrics_view(wiring: MetricsWiring) -> Callable[[], Response]:
    from api.metrics import StateCollector, scrape

    expected = f"Bearer {wiring.token}".encode()
    state = StateCollector(wiring.state) if wiring.state is not None else None

    def view() -> Response:
        given = request.headers.get("Authorization", "").encode()
        if not hmac.compare_digest(given, expected):
            raise errors.ApiError(401, "invalid_authorization",
                                  "the metrics need `Authorization: Bearer <METRICS_TOKEN>`",
                                  headers={"WWW-Authenticate": "Bearer"})
        body, content_type = scrape(state)
        return Response(body, content_type=content_type,
                        headers={"Cache-Control": "no-store"})

    return view


def _swagger_assets() -> Blueprint:
    import flask_swagger_ui

    folder = os.path.join(os.path.dirname(flask_swagger_ui.__file__), "dist")
    return Blueprint("swagger_assets", __name__, static_folder=folder,
                     static_url_path="/docs/assets")

