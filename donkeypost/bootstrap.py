"""The composition root: the one place where settings become wired objects.

    components = bootstrap(Settings.from_env())   # Redis clients, store, hooks, games, service
    app = web_app(components)                     # the Flask app (`donkeypost.wsgi`)
    worker = rq_worker(components, queues)        # an RQ worker (`donkeypost worker`)

The games are the installed ones (`domain.registry.installed`: every distribution's
`donkeypost.games` entry points), loaded once here, when the process starts: a game that
cannot be loaded, or two games with one id, stop it (`GameLoadError`, one line naming the
game). Everything that needs the games is handed them from here: the service
(`service.games`, which the API, its OpenAPI document, the jobs and the bots read), the RQ
hooks. Tests and benchmarks may pass their own registry (`games=`).

Every process builds its own, once, when it starts (a gunicorn worker when it imports
`donkeypost.wsgi`, `donkeypost worker` before its loop); nothing is built at import and
nothing is kept in a module. The pieces below never build their collaborators: the API is
given its service (`api.app.create_app`), a worker is given its jobs' context
(`workers.runner.make_worker`). Tests and benchmarks call the same functions with their own
`Settings`, and may replace the hooks (`hooks=NoHooks()`) or the clock.

What follows an append, in the web application and in the workers alike (a move a bot makes
is followed like a player's): the RQ hooks (bot turns, deadlines, away seats) and the webhook
hooks, fanned out. The games' Redis (`REDIS_URL`) holds the event store and the webhook
registrations; the queues' Redis (`RQ_REDIS_URL`, else the same server) holds the queues and
timers, on a client of its own. Each client opens at most `REDIS_MAX_CONNECTIONS`: nothing
holds one while it waits (streams and long-polls wait on the API's event hub). When both are
one Redis, a move's append also drops and arms its deadline timers (`timers_in_appends`).

With `REDIS_CLUSTER_URL` the games' client is a Redis Cluster client (at most
`REDIS_MAX_CONNECTIONS` per node), and the queues are on `RQ_REDIS_URL`, a plain Redis
(docs/scaling.md).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import redis
from flask import Flask
from py_vapid import Vapid02
from rq import Queue

from api.app import MetricsWiring, create_app
from api.rate_limits import CounterStorage
from api.routes.notifications import NotifyWiring
from domain.archive.reading import ArchivedGames
from domain.connection import (
    RedisClient,
    cluster_nodes,
    cluster_options,
    connect,
    connect_cluster,
)
from domain.notify.mail import Links
from domain.registry import GameRegistry, installed
from domain.service import FanOutHooks, GameService, Hooks
from domain.service.erasure import Erased, erase_player
from domain.store import (
    RedisEventStore,
    RedisPlayerStore,
    RedisRatingStore,
    RedisWebhookStore,
    WebhookStore,
    keys,
)
from domain.store.player_clocks import RedisPlayerClockStore
from domain.store.port import ArchiveStore, NotifyStore
from domain.store.redis_archive import RedisArchiveStore
from domain.store.redis_erasure import RedisErasure
from domain.store.redis_notify import RedisNotifyStore
from donkeypost.settings import Settings
from workers import heartbeats
from workers.context import JobContext, WebhookDelivery
from workers.hooks import QUEUES, RqHooks
from workers.notify import MailServer, Notifier
from workers.push import PushSender, public_key, vapid_key
from workers.runner import GameWorker, RedisWatch, make_worker
from workers.webhooks import QUEUE as NOTIFICATIONS
from workers.webhooks import WebhookHooks

Clock = Callable[[], float]
# The names a process's two clients give their connections (`CLIENT LIST` tells them apart).
STORE_CLIENT, QUEUE_CLIENT = "donkeypost-games", "donkeypost-queues"


@dataclass
class Notifications:
    """The notifications' parts of a process: their store, the secrets (read from Redis
    when first needed: kept there unless configured), the senders."""

    settings: Settings
    store: NotifyStore

    @functools.cached_property
    def link_secret(self) -> bytes:
        configured = self.settings.notify_secret
        return configured.encode() if configured else self.store.link_secret()

    @functools.cached_property
    def vapid(self) -> Vapid02 | None:
        if not self.settings.notify_push:
            return None
        return vapid_key(self.store, self.settings.vapid_private_key)

    def vapid_public_key(self) -> str | None:
        return public_key(self.vapid) if self.vapid is not None else None

    def wiring(self) -> NotifyWiring:
        return NotifyWiring(store=self.store, link_secret=lambda: self.link_secret,
                            vapid_public_key=self.vapid_public_key,
                            targets=self.settings.webhook_targets,
                            email_on=self.settings.smtp_url is not None)

    def notifier(self, service: GameService, clock: Clock = time.time) -> Notifier:
        settings = self.settings
        links = Links(settings.public_url)
        mail = MailServer(settings.smtp_url, settings.smtp_from,
                          settings.webhook_targets) if settings.smtp_url else None
        push = PushSender(self.store, lambda: self.vapid, settings.vapid_subject, links,
                          settings.webhook_targets) if settings.notify_push else None
        return Notifier(service=service, store=self.store, links=links,
                        link_secret=lambda: self.link_secret, mail=mail, push=push,
                        clock=clock, lease_s=settings.notify_lease_s,
                        hook_targets=settings.webhook_targets,
                        hook_timeout_s=settings.webhook_timeout_s,
                        on_sent=_notification_metrics(settings))


@dataclass(frozen=True)
class Components:
    """Everything one process of the service works with, wired."""

    settings: Settings
    store_redis: RedisClient  # the games' Redis, or Redis Cluster
    queue_redis: redis.Redis  # the queues' and timers' Redis
    rq_hooks: RqHooks  # also the workers' timer pump and rebuild
    webhook_store: WebhookStore
    service: GameService
    archives: ArchiveStore  # the finished games' archive records (`domain.archive`)
    notifications: Notifications


def bootstrap(settings: Settings, *, hooks: Hooks | None = None, clock: Clock = time.time,
              games: GameRegistry | None = None) -> Components:
    """Wire a process from `settings`. `hooks` replaces what follows an append (default: the
    RQ and webhook hooks); `clock` is the service's and the hooks' time; `games` the games
    it plays (default: the installed ones, loaded now)."""
    if games is None:
        games = installed()  # now: a game that cannot be loaded stops the process at once
    store_redis = store_client(settings)
    queue_redis = connect(settings.queue_url, settings.redis_max_connections,
                          client_name=QUEUE_CLIENT)
    rq_hooks = RqHooks(queue_redis, games, clock=clock,
                       timers_in_appends=timers_in_appends(settings))
    webhook_store = RedisWebhookStore(store_redis)
    if hooks is None:
        hooks = FanOutHooks([
            rq_hooks,
            WebhookHooks(webhook_store, Queue(NOTIFICATIONS, connection=queue_redis), clock),
        ])
    if settings.metrics:
        from donkeypost.metrics_wiring import MetricsHooks

        hooks = FanOutHooks([*(hooks.hooks if isinstance(hooks, FanOutHooks) else [hooks]),
                             MetricsHooks()])
    archives = RedisArchiveStore(store_redis)
    return Components(settings=settings, store_redis=store_redis, queue_redis=queue_redis,
                      rq_hooks=rq_hooks, webhook_store=webhook_store,
                      service=game_service(store_redis, games, hooks, clock, settings, archives),
                      archives=archives,
                      notifications=Notifications(settings, RedisNotifyStore(store_redis)))


def timers_in_appends(settings: Settings) -> bool:
    """Are the queues' timers in the games' Redis database, so that a move's append may
    write them (no `RQ_REDIS_URL` of another Redis, no cluster: the set is one key)?"""
    return not settings.cluster and settings.queue_url == settings.store_url


def store_client(settings: Settings) -> RedisClient:
    """The games' Redis client: of `REDIS_CLUSTER_URL`'s cluster, else of `REDIS_URL`."""
    if settings.redis_cluster_url:
        return connect_cluster(settings.redis_cluster_url, settings.redis_max_connections)
    return connect(settings.store_url, settings.redis_max_connections,
                   client_name=STORE_CLIENT)


def game_service(store_redis: RedisClient, games: GameRegistry, hooks: Hooks, clock: Clock,
                 settings: Settings | None = None,
                 archives: ArchiveStore | None = None) -> GameService:
    """The service on the games' Redis (its one constructor call in the project) playing
    `games`: the games (archived ones read through their expansion), the players and the
    ratings.
    (`settings`: the replicas an append waits for, the archives' cache.)"""
    settings = settings or Settings()
    store_class = RedisEventStore
    if settings.metrics:
        from donkeypost.metrics_wiring import TimedEventStore
        store_class = TimedEventStore
    store = ArchivedGames(
        store_class(store_redis, wait_replicas=settings.wait_replicas,
                    wait_timeout_ms=settings.wait_timeout_ms),
        archives or RedisArchiveStore(store_redis), games,
        cache_events=settings.archive_cache_events, copies=settings.read_copies)
    return GameService(store=store, games=games, hooks=hooks, clock=clock,
                       players=RedisPlayerStore(store_redis),
                       ratings=RedisRatingStore(store_redis),
                       player_clocks=RedisPlayerClockStore(store_redis),
                       vacations=settings.vacations)


def web_app(components: Components, config: Mapping[str, Any] | None = None) -> Flask:
    """The Flask application (`config` adds to Flask's, e.g. `{"TESTING": True}`)."""
    settings = components.settings
    queue_redis = components.queue_redis
    return create_app(components.service, health_redis=components.store_redis,
                      webhook_store=components.webhook_store,
                      webhook_targets=settings.webhook_targets,
                      sse_keepalive_s=settings.sse_keepalive_s, sse_max_s=settings.sse_max_s,
                      worker_beats=lambda: heartbeats.last_beats(queue_redis),
                      required_workers=settings.health_workers,
                      stale_after_s=settings.health_stale_s,
                      queue_waits=lambda now: heartbeats.queue_waits(queue_redis, now),
                      queue_wait_limit_s=settings.health_queue_wait_s,
                      memory=components.archives.used_memory,
                      memory_budget=int(settings.memory_budget_mb * 2**20)
                      if settings.memory_budget_mb else None,
                      request_analysis=components.rq_hooks.request_analysis,
                      rate_limits=settings.rate_limits,
                      rate_limit_storage=rate_limit_storage(components),
                      trusted_proxies=settings.trusted_proxies,
                      cors_origins=settings.cors_origins,
                      body_timeout_s=settings.body_timeout_s,
                      log_requests=settings.log_requests,
                      metrics=_metrics(components),
                      erase_player=self_erasure(components),
                      notify=components.notifications.wiring(), config=config)


def eraser(components: Components) -> Callable[..., Erased]:
    """`erase(player_id, dry_run=False)`: a player erased (`domain.service.erasure`), their
    notification data included."""
    erasure = RedisErasure(components.store_redis)  # type: ignore[arg-type]
    game_types = sorted(components.service.deps.games)

    def erase(player_id: str, dry_run: bool = False) -> Erased:
        return erase_player(components.service.deps, erasure, player_id, game_types,
                            dry_run=dry_run, more=[components.notifications.store.erase])

    return erase


def self_erasure(components: Components) -> Callable[[str], Erased]:
    """`DELETE /players/me`: the player erases themself (audited as such)."""
    erase = eraser(components)

    def erase_and_audit(player_id: str) -> Erased:
        report = erase(player_id)
        components.store_redis.xadd(keys.AUDIT, {
            "action": "erase", "target": player_id, "by": "the player",
            "why": "DELETE /players/me", "at": repr(time.time())})
        return report

    return erase_and_audit


def _metrics(components: Components) -> MetricsWiring | None:
    """The web app's metrics: None when off; `/metrics` served only with a token."""
    settings = components.settings
    if not settings.metrics:
        return None
    from donkeypost.metrics_wiring import state_reader

    return MetricsWiring(token=settings.metrics_token, state=state_reader(
        components.store_redis, components.queue_redis, sorted(components.service.games)))


def rate_limit_storage(components: Components) -> CounterStorage:
    """The rate limits' counters: in the games' Redis; on a cluster, in the cluster (the
    limiter builds a cluster client of its own, with the same limits per node)."""
    settings = components.settings
    if settings.redis_cluster_url:
        return CounterStorage.cluster(
            cluster_nodes(settings.redis_cluster_url),
            cluster_options(settings.redis_cluster_url, settings.redis_max_connections))
    assert isinstance(components.store_redis, redis.Redis)
    return CounterStorage.of(components.store_redis)


def job_context(components: Components) -> JobContext:
    """What the jobs of a worker act through."""
    settings = components.settings
    return JobContext(service=components.service, webhooks=WebhookDelivery(
        store=components.webhook_store, retry=settings.webhook_retry,
        targets=settings.webhook_targets, timeout_s=settings.webhook_timeout_s,
        connect_timeout_s=settings.webhook_connect_timeout_s,
        on_attempt=_webhook_metrics(settings)),
        retention=settings.retention, archives=components.archives,
        archive_after_s=settings.archive_after_s,
        archive_copies=settings.read_copies,
        notifier=components.notifications.notifier(components.service),
        bot_budgets=settings.bot_budgets)


def _webhook_metrics(settings: Settings) -> Callable[[bool], None] | None:
    if not settings.metrics:
        return None
    from api.metrics import count_webhook

    return count_webhook


def _notification_metrics(settings: Settings) -> Callable[[str, bool, int], None] | None:
    if not settings.metrics:
        return None
    from api.metrics import count_notifications

    return count_notifications


def rq_worker(components: Components, queues: Sequence[str] = QUEUES,
              redis_watch: RedisWatch | None = None) -> GameWorker:
    """An RQ worker on `queues` whose jobs act through `components` (`redis_watch`: what
    the worker process knows of Redis, kept across the workers it runs in turn)."""
    return make_worker(job_context(components), components.rq_hooks,
                       sweep_s=components.settings.sweep_s, queues=queues,
                       redis_watch=redis_watch)
