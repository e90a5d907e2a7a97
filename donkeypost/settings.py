"""The settings of a donkeypost process, read from the environment once, when it starts.

Every variable the service reads is read here and nowhere else; `donkeypost.bootstrap`
hands each part the values it needs. An empty variable counts as unset; a malformed one
stops the process with a `SettingsError` that names it.

Variable → setting (default):
- `REDIS_URL` → `redis_url`, the games' Redis (none: `donkeypost serve` starts an embedded
  one; every other process needs it, or `REDIS_CLUSTER_URL`)
- `REDIS_CLUSTER_URL` → `redis_cluster_url`, the games' store on a Redis Cluster (≥ 6.2)
  instead: `redis://host:port,host:port,…`, some of its nodes (any one answering is
  enough); then `RQ_REDIS_URL` is required, and `REDIS_URL` must not be set
- `RQ_REDIS_URL` → `rq_redis_url`, the queues and timers, on a plain Redis (`REDIS_URL`;
  required with a cluster: RQ does not run on one)
- `REDIS_MAX_CONNECTIONS` → `redis_max_connections`, per Redis client of a process (on a
  cluster: per node); a command waits for a free one (10)
- `REDIS_WAIT_REPLICAS`, `REDIS_WAIT_TIMEOUT_MS` → `wait_replicas`, `wait_timeout_ms`: a
  move is acknowledged only once this many replicas have it (WAIT), else answered 503
  after the timeout (0: not waited for, as Redis replicates by default; 200)
- `SSE_KEEPALIVE_S` → `sse_keepalive_s`, a comment on a quiet event stream every … (15)
- `SSE_MAX_S` → `sse_max_s`, an event stream ends after …; its client resumes (3600)
- `WEBHOOK_ALLOWED_NETWORKS` → `webhook_targets`, CIDRs that webhooks may call although
  they are not public (none)
- `WEBHOOK_ALLOWED_PORTS` → `webhook_targets`, ports or ranges (`8000-8999`) that webhooks
  may call besides 80 and 443 (none)
- `WEBHOOK_TIMEOUT_S`, `WEBHOOK_CONNECT_TIMEOUT_S` → `webhook_timeout_s` (each read and
  write of a delivery attempt, 5) and `webhook_connect_timeout_s` (its connection, 2)
- `WEBHOOK_MAX_ATTEMPTS`, `WEBHOOK_RETRY_FIRST_S`, `WEBHOOK_RETRY_FACTOR` →
  `webhook_retry` (6, 10, 4)
- `RATE_LIMITS` → `rate_limits`: `on` or `off` (on); `RATE_LIMIT_CREATE`, `…_JOIN`,
  `…_ACT`, `…_ACT_ADDRESS`, `…_WEBHOOKS`, `…_CHAT`, `…_STREAM_TICKETS`, `…_AUTH_FAILURES`
  set one rule's limit, e.g. `10/second;300/minute` (the defaults and the rules:
  `api.rate_limits`)
- `TRUSTED_PROXIES` → `trusted_proxies`, how many proxies in front of the web processes
  set `X-Forwarded-For` (0: the peer's address is the client's; a client's own header is
  never believed unless a proxy is declared)
- `CORS_ORIGINS` → `cors_origins`, origins (`https://table.example`) whose browser pages
  may call the API, comma-separated (none)
- `DONKEYPOST_SWEEP_S` → `sweep_s`, the workers' rebuild period, at least 1 (60)
- `DONKEYPOST_STRONG_MS`, `DONKEYPOST_EXPERT_MS` → `bot_budgets`: how long the `strong` and
  `expert` bots may search a move, in milliseconds (unset: the bots' own, 750 and 5000:
  `domain.bots.levels.DEFAULT_BUDGETS`)
- `DONKEYPOST_UNSTARTED_TTL_S`, `DONKEYPOST_GC_BATCH` → `retention`: a game nobody started
  is deleted this long after its creation (604800: 7 days), by sweeps of at most this many
  games (500)
- `DONKEYPOST_VACATION_DAYS`, `DONKEYPOST_VACATION_MAX_DAYS` → `vacations`: each player's
  vacation days a year (30), and at most this many in one vacation (14)
- `DONKEYPOST_LOG_LEVEL` → `log_level` of the web processes and the workers (`INFO`)
- `LOG_FORMAT` → `log_format`: `text` (a line of text per record) or `json` (a JSON
  object per line: `donkeypost.logs`) (`text`)
- `METRICS` → `metrics`: `on` or `off`, the Prometheus metrics counted (on); with
  `PROMETHEUS_MULTIPROC_DIR` (an empty folder, the same for every process of a host) the
  web processes and workers count into files there that a scrape adds up (`api.metrics`;
  `donkeypost serve` sets it)
- `METRICS_TOKEN` → `metrics_token`: `GET /metrics` answers only with
  `Authorization: Bearer <METRICS_TOKEN>` (unset: `/metrics` is not served)
- `LOG_REQUESTS` → `log_requests`: `on` or `off`, a line per request answered, with its id,
  route, status, duration and game (on)
- `BODY_TIMEOUT_S` → `body_timeout_s`, a request's body must arrive within … or the
  connection is closed (10)
- `DONKEYPOST_HEALTH_WORKERS` → `health_workers`, the kinds of worker `/healthz` requires,
  comma-separated, or `none` (all: bots, deadlines, notifications, timers)
- `DONKEYPOST_HEALTH_STALE_S` → `health_stale_s`, a worker's heartbeat older than this is
  stale (30)
- `DONKEYPOST_HEALTH_QUEUE_WAIT_S` → `health_queue_wait_s`, a queue whose oldest job has
  waited longer than this is late: `/healthz` answers 503 for a queue games wait on, and
  reports the others (60)
- `HOST`, `PORT`, `WEB_CONNECTIONS`, `DONKEYPOST_DATA` → `host`, `port`,
  `web_connections`, `data_dir`: `donkeypost serve`'s defaults (`127.0.0.1`, 8000, 2000,
  `data`)
- `DONKEYPOST_APPENDFSYNC` → `appendfsync` of the embedded Redis: `always` or `everysec`
  (`everysec`; the README says what each may lose)
- `DONKEYPOST_BOT_WORKERS` → `bot_workers`, the bot and deadline workers `donkeypost serve`
  starts (one per core this process may use)
- `WEB_SERVER` → `web_server`, the HTTP server of `donkeypost serve` and `donkeypost web`:
  `gunicorn` (gevent workers) or `granian` (WSGI mode, a thread per request in flight,
  `WEB_CONNECTIONS` of them per worker at most) (`gunicorn`)

- `DONKEYPOST_ARCHIVE_AFTER_S` → `archive_after_s`, a game that is over is archived this
  long after its end (3600; `docs/archive.md`)
- `DONKEYPOST_ARCHIVE_CACHE_EVENTS` → `archive_cache_events`, the events of archived games
  a process keeps expanded (100000)
- `DONKEYPOST_ARCHIVE_READ_TTL_S` → `archive_read_ttl_s`, how long the copy of what reads
  of an archived game's table need is kept in Redis after the game is archived and after
  a process expanded it, for the other processes and those that restart (86400; 0: none;
  `forever`: kept as long as the record, ~0.2-0.5 KB more a game, so that no first read of an
  archived game replays it; `docs/archive.md`)
- `DONKEYPOST_ARCHIVE_KEEP_READ_FROM_EVENTS` → `archive_kept_from_events`, a game of at least
  this many events keeps that copy as long as its record, its expansion being too long for
  a first read (200; `none`: no game does; `docs/archive.md`)
- `DONKEYPOST_MEMORY_BUDGET_MB` → `memory_budget_mb`, the games' Redis memory `/healthz`
  measures against, warning from 80 % (none: Redis's `maxmemory`, if set)
- `SMTP_URL` → `smtp_url`, the mail server of the e-mail notifications: `smtp://`,
  `smtp+starttls://` or `smtps://`, with `user:password@` if it needs them (none: no
  e-mail); `SMTP_FROM` → `smtp_from`, their sender (`donkeypost <noreply@localhost>`)
- `PUBLIC_URL` → `public_url`, the server's address as players reach it, for the links in
  e-mails and pushes (`http://127.0.0.1:8000`)
- `NOTIFY_SECRET` → `notify_secret`, signs the e-mails' links (none: one is made on first
  start and kept in Redis)
- `VAPID_PRIVATE_KEY` → `vapid_private_key`, the Web Push key (PEM; none: one is made on
  first start and kept in Redis); `VAPID_SUBJECT` → `vapid_subject`, the contact push
  services see (`mailto:` or `https:`; `mailto:admin@localhost`)
- `NOTIFY_PUSH` → `notify_push`: `on` or `off`, Web Push (on)
- `NOTIFY_LEASE_S` → `notify_lease_s`: a notifier that dies mid-round leaves its players
  to another after this long (120)

Mail servers and push endpoints get the webhook targets' checks (`WEBHOOK_ALLOWED_NETWORKS`
lets them be on other networks).
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from api.rate_limits import RULES, RateLimits
from domain.archive.reading import DEFAULT_KEPT_FROM_EVENTS, DEFAULT_READ_TTL_S, ReadCopies
from domain.bots.search_terms import Budget
from domain.connection import MAX_CONNECTIONS, cluster_nodes
from domain.players.clock_settings import VacationPolicy
from domain.service.retention import RetentionPolicy
from domain.webhooks.deliveries import RetryPolicy
from domain.webhooks.targets import TargetPolicy
from donkeypost.embedded_redis import APPENDFSYNC_CHOICES, AppendFsync
from donkeypost.logs import LOG_FORMATS, LogFormat
from donkeypost.web_servers import WEB_SERVERS, WebServer
from workers.heartbeats import KINDS as WORKER_KINDS
from workers.heartbeats import QUEUE_WAIT_LIMIT_S, STALE_AFTER_S

T = TypeVar("T")


def usable_cores() -> int:
    """The cores this process may run on."""
    if sys.platform.startswith("linux"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


class SettingsError(ValueError):
    """A setting is missing or malformed; the message names the variable."""


@dataclass(frozen=True)
class Settings:
    redis_url: str | None = None
    redis_cluster_url: str | None = None
    rq_redis_url: str | None = None
    redis_max_connections: int = MAX_CONNECTIONS
    wait_replicas: int = 0
    wait_timeout_ms: int = 200
    sse_keepalive_s: float = 15.0
    sse_max_s: float = 3600.0
    webhook_targets: TargetPolicy = field(default_factory=TargetPolicy)
    webhook_timeout_s: float = 5.0
    webhook_connect_timeout_s: float = 2.0
    webhook_retry: RetryPolicy = field(default_factory=RetryPolicy)
    rate_limits: RateLimits = field(default_factory=RateLimits)
    trusted_proxies: int = 0
    cors_origins: tuple[str, ...] = ()
    sweep_s: int = 60
    bot_budgets: Mapping[str, Budget] = field(default_factory=dict)  # by level; none: defaults
    retention: RetentionPolicy = field(default_factory=RetentionPolicy)
    vacations: VacationPolicy = field(default_factory=VacationPolicy)
    log_level: str = "INFO"
    log_format: LogFormat = "text"
    log_requests: bool = True
    metrics: bool = True
    metrics_token: str | None = None
    health_workers: tuple[str, ...] = WORKER_KINDS
    body_timeout_s: float = 10.0
    health_stale_s: float = STALE_AFTER_S
    health_queue_wait_s: float = QUEUE_WAIT_LIMIT_S
    host: str = "127.0.0.1"
    port: int = 8000
    web_connections: int = 2000
    data_dir: str = "data"
    appendfsync: AppendFsync = "everysec"
    bot_workers: int = field(default_factory=usable_cores)
    web_server: WebServer = "gunicorn"
    archive_after_s: float = 3600.0
    archive_cache_events: int = 100_000
    archive_read_ttl_s: float = DEFAULT_READ_TTL_S
    archive_kept_from_events: int | None = DEFAULT_KEPT_FROM_EVENTS
    memory_budget_mb: float | None = None
    smtp_url: str | None = None
    smtp_from: str = "donkeypost <noreply@localhost>"
    public_url: str = "http://127.0.0.1:8000"
    notify_secret: str | None = None
    vapid_private_key: str | None = None
    vapid_subject: str = "mailto:admin@localhost"
    notify_push: bool = True
    notify_lease_s: float = 120.0

    def __post_init__(self) -> None:
        if self.redis_cluster_url is None:
            return
        if self.redis_url:
            raise SettingsError("REDIS_URL and REDIS_CLUSTER_URL are both set: the games "
                                "are on one Redis or on a cluster, set one of them")
        if not self.rq_redis_url:
            raise SettingsError("REDIS_CLUSTER_URL is set but RQ_REDIS_URL is not: the "
                                "queues need a plain Redis (RQ does not run on a cluster)")
        try:
            cluster_nodes(self.redis_cluster_url)
        except ValueError as err:
            raise SettingsError(f"REDIS_CLUSTER_URL={self.redis_cluster_url!r} is not "
                                f"valid: {err}") from None

    @property
    def cluster(self) -> bool:
        """Are the games on a Redis Cluster (`REDIS_CLUSTER_URL`)?"""
        return self.redis_cluster_url is not None

    @property
    def store_url(self) -> str:
        """`REDIS_URL` or `REDIS_CLUSTER_URL`, one of which every process of the service
        needs."""
        url = self.redis_cluster_url or self.redis_url
        if not url:
            raise SettingsError("REDIS_URL is not set: the service needs the games' Redis "
                                "(`donkeypost serve` starts an embedded one), or "
                                "REDIS_CLUSTER_URL for a Redis Cluster")
        return url

    @property
    def read_copies(self) -> ReadCopies:
        """How long the copies for archived games' reads are kept."""
        return ReadCopies(self.archive_read_ttl_s, self.archive_kept_from_events)

    @property
    def queue_url(self) -> str:
        """`RQ_REDIS_URL`, else the games' Redis."""
        return self.rq_redis_url or self.store_url

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        default = cls()

        def read(name: str, parse: Callable[[str], T], fallback: T) -> T:
            raw = env.get(name, "").strip()
            if not raw:
                return fallback
            try:
                return parse(raw)
            except ValueError as err:
                raise SettingsError(f"{name}={raw!r} is not valid: {err}") from None

        try:
            retry = RetryPolicy.from_settings(env)
        except ValueError as err:
            raise SettingsError("WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_FIRST_S or "
                                f"WEBHOOK_RETRY_FACTOR is not valid: {err}") from None
        networks = read("WEBHOOK_ALLOWED_NETWORKS", TargetPolicy.allowing,
                        default.webhook_targets)
        return cls(
            redis_url=read("REDIS_URL", str, None),
            redis_cluster_url=read("REDIS_CLUSTER_URL", str, None),
            rq_redis_url=read("RQ_REDIS_URL", str, None),
            redis_max_connections=read("REDIS_MAX_CONNECTIONS", _positive(int),
                                       default.redis_max_connections),
            wait_replicas=read("REDIS_WAIT_REPLICAS", _count, default.wait_replicas),
            wait_timeout_ms=read("REDIS_WAIT_TIMEOUT_MS", _positive(int),
                                 default.wait_timeout_ms),
            sse_keepalive_s=read("SSE_KEEPALIVE_S", float, default.sse_keepalive_s),
            sse_max_s=read("SSE_MAX_S", float, default.sse_max_s),
            webhook_targets=read("WEBHOOK_ALLOWED_PORTS", networks.with_ports, networks),
            webhook_timeout_s=read("WEBHOOK_TIMEOUT_S", _positive(float),
                                   default.webhook_timeout_s),
            webhook_connect_timeout_s=read("WEBHOOK_CONNECT_TIMEOUT_S", _positive(float),
                                           default.webhook_connect_timeout_s),
            webhook_retry=retry,
            rate_limits=_rate_limits(env),
            trusted_proxies=read("TRUSTED_PROXIES", _count, default.trusted_proxies),
            cors_origins=read("CORS_ORIGINS", _origins, default.cors_origins),
            sweep_s=max(1, read("DONKEYPOST_SWEEP_S", int, default.sweep_s)),
            bot_budgets={level: budget for level, budget in (
                ("strong", read("DONKEYPOST_STRONG_MS", _milliseconds, None)),
                ("expert", read("DONKEYPOST_EXPERT_MS", _milliseconds, None)))
                if budget is not None},
            retention=RetentionPolicy(
                unstarted_ttl_s=read("DONKEYPOST_UNSTARTED_TTL_S", _positive(float),
                                     default.retention.unstarted_ttl_s),
                batch=read("DONKEYPOST_GC_BATCH", _positive(int), default.retention.batch)),
            vacations=VacationPolicy(
                allowance_days=read("DONKEYPOST_VACATION_DAYS", _positive(int),
                                    default.vacations.allowance_days),
                max_days=read("DONKEYPOST_VACATION_MAX_DAYS", _positive(int),
                              default.vacations.max_days)),
            log_level=read("DONKEYPOST_LOG_LEVEL", str.upper, default.log_level),
            log_format=read("LOG_FORMAT", _log_format, default.log_format),
            log_requests=read("LOG_REQUESTS", _switch, default.log_requests),
            metrics=read("METRICS", _switch, default.metrics),
            metrics_token=read("METRICS_TOKEN", str, None),
            health_workers=read("DONKEYPOST_HEALTH_WORKERS", _worker_kinds,
                                default.health_workers),
            health_stale_s=read("DONKEYPOST_HEALTH_STALE_S", float, default.health_stale_s),
            health_queue_wait_s=read("DONKEYPOST_HEALTH_QUEUE_WAIT_S", _positive(float),
                                     default.health_queue_wait_s),
            body_timeout_s=read("BODY_TIMEOUT_S", _positive(float), default.body_timeout_s),
            host=read("HOST", str, default.host),
            port=read("PORT", int, default.port),
            web_connections=read("WEB_CONNECTIONS", int, default.web_connections),
            data_dir=read("DONKEYPOST_DATA", str, default.data_dir),
            appendfsync=read("DONKEYPOST_APPENDFSYNC", _appendfsync, default.appendfsync),
            bot_workers=read("DONKEYPOST_BOT_WORKERS", _at_least_one, default.bot_workers),
            web_server=read("WEB_SERVER", _web_server, default.web_server),
            archive_after_s=read("DONKEYPOST_ARCHIVE_AFTER_S", _not_negative,
                                 default.archive_after_s),
            archive_cache_events=read("DONKEYPOST_ARCHIVE_CACHE_EVENTS", _positive(int),
                                      default.archive_cache_events),
            archive_read_ttl_s=read("DONKEYPOST_ARCHIVE_READ_TTL_S", _seconds_or_forever,
                                    default.archive_read_ttl_s),
            archive_kept_from_events=read("DONKEYPOST_ARCHIVE_KEEP_READ_FROM_EVENTS",
                                          _count_or_none, default.archive_kept_from_events),
            memory_budget_mb=read("DONKEYPOST_MEMORY_BUDGET_MB", _positive(float),
                                  default.memory_budget_mb),
            smtp_url=read("SMTP_URL", _smtp_url, None),
            smtp_from=read("SMTP_FROM", str, default.smtp_from),
            public_url=read("PUBLIC_URL", _public_url, default.public_url),
            notify_secret=read("NOTIFY_SECRET", str, None),
            vapid_private_key=read("VAPID_PRIVATE_KEY", str, None),
            vapid_subject=read("VAPID_SUBJECT", str, default.vapid_subject),
            notify_push=read("NOTIFY_PUSH", _on_off, default.notify_push),
            notify_lease_s=read("NOTIFY_LEASE_S", _positive(float), default.notify_lease_s),
        )


def _not_negative(raw: str) -> float:
    value = float(raw)
    if value < 0:
        raise ValueError("must be 0 or more")
    return value


def _seconds_or_forever(raw: str) -> float:
    """A duration in seconds, or `forever` (infinity: no expiry)."""
    if raw.strip().lower() == "forever":
        return math.inf
    value = _not_negative(raw)
    if math.isnan(value):
        raise ValueError("must be a number of seconds or 'forever'")
    return value


def _positive(parse: Callable[[str], T]) -> Callable[[str], T]:
    def positive(raw: str) -> T:
        value = parse(raw)
        if not value > 0:  # type: ignore[operator]
            raise ValueError("must be more than 0")
        return value
    return positive


def _worker_kinds(raw: str) -> tuple[str, ...]:
    if raw.lower() == "none":
        return ()
    kinds = tuple(k.strip() for k in raw.split(",") if k.strip())
    unknown = sorted(set(kinds) - set(WORKER_KINDS))
    if unknown:
        raise ValueError(f"unknown kind(s) {unknown}: use some of {','.join(WORKER_KINDS)} "
                         "or none")
    return kinds


def _log_format(raw: str) -> LogFormat:
    for choice in LOG_FORMATS:
        if raw.lower() == choice:
            return choice
    raise ValueError(f"use one of {', '.join(LOG_FORMATS)}")


def _switch(raw: str) -> bool:
    value = raw.lower()
    if value in ("on", "true", "1", "yes"):
        return True
    if value in ("off", "false", "0", "no"):
        return False
    raise ValueError("on or off")


def _appendfsync(raw: str) -> AppendFsync:
    for choice in APPENDFSYNC_CHOICES:
        if raw.lower() == choice:
            return choice
    raise ValueError(f"use one of {', '.join(APPENDFSYNC_CHOICES)}")


def _web_server(raw: str) -> WebServer:
    for choice in WEB_SERVERS:
        if raw.lower() == choice:
            return choice
    raise ValueError(f"use one of {', '.join(WEB_SERVERS)}")


def _at_least_one(raw: str) -> int:
    value = int(raw)
    if value < 1:
        raise ValueError("at least 1")
    return value


def _rate_limits(env: Mapping[str, str]) -> RateLimits:
    switch = env.get("RATE_LIMITS", "").strip().lower()
    if switch not in ("", "on", "off", "true", "false", "1", "0"):
        raise SettingsError(f"RATE_LIMITS={switch!r} is not valid: on or off")
    limits = {}
    for rule in RULES:
        name = f"RATE_LIMIT_{rule.upper()}"
        value = env.get(name, "").strip()
        if value:
            try:
                RateLimits(limits={rule: value})
            except ValueError as err:
                raise SettingsError(f"{name}={value!r} is not valid: {err}") from None
            limits[rule] = value
    return RateLimits(enabled=switch not in ("off", "false", "0"), limits=limits)


def _smtp_url(raw: str) -> str:
    scheme, _, rest = raw.partition("://")
    if scheme not in ("smtp", "smtp+starttls", "smtps") or not rest:
        raise ValueError("smtp://, smtp+starttls:// or smtps://[user:password@]host[:port]")
    return raw


def _public_url(raw: str) -> str:
    scheme, _, host = raw.partition("://")
    if scheme not in ("http", "https") or not host:
        raise ValueError("an http(s) URL, e.g. https://donkeypost.example")
    return raw.rstrip("/")


def _on_off(raw: str) -> bool:
    if raw.lower() not in ("on", "off", "true", "false", "1", "0"):
        raise ValueError("on or off")
    return raw.lower() in ("on", "true", "1")


def _milliseconds(raw: str) -> Budget:
    """A searching bot's budget per move, given in milliseconds (at least 1)."""
    ms = float(raw)
    if not ms >= 1:
        raise ValueError(f"at least 1 ms, not {raw}")
    return Budget(seconds=ms / 1000.0)


def _count(raw: str) -> int:
    value = int(raw)
    if value < 0:
        raise ValueError("a count of 0 or more")
    return value


def _count_or_none(raw: str) -> int | None:
    """A count of 0 or more, or `none`."""
    return None if raw.strip().lower() == "none" else _count(raw)


def _origins(raw: str) -> tuple[str, ...]:
    origins = tuple(o.strip().rstrip("/") for o in raw.split(",") if o.strip())
    for origin in origins:
        scheme, _, host = origin.partition("://")
        if scheme not in ("http", "https") or not host or "/" in host:
            raise ValueError(f"{origin!r} is not an origin like https://table.example")
    return origins
