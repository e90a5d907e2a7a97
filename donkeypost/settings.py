"""The settings of a donkeypost process, read from the environment once, when it starts.

Every variable the service reads is read here and nowhere else; `donkeypost.bootstrap`
hands each part the values it needs. An empty variable counts as unset; a malformed one
stops the process with a `SettingsError` that names it.

Variable → setting (default):
- `REDIS_URL` → `redis_url`, the games' Redis (none: `donkeypost serve` starts an embedded
  one; every other process needs it)
- `RQ_REDIS_URL` → `rq_redis_url`, the queues and timers (`REDIS_URL`)
- `SSE_KEEPALIVE_S` → `sse_keepalive_s`, a comment on a quiet event stream every … (15)
- `SSE_MAX_S` → `sse_max_s`, an event stream ends after …; its client resumes (3600)
- `WEBHOOK_ALLOWED_NETWORKS` → `webhook_targets`, CIDRs that webhooks may call although
  they are not public (none)
- `WEBHOOK_TIMEOUT_S` → `webhook_timeout_s`, per delivery attempt (10)
- `WEBHOOK_MAX_ATTEMPTS`, `WEBHOOK_RETRY_FIRST_S`, `WEBHOOK_RETRY_FACTOR` →
  `webhook_retry` (6, 10, 4)
- `DONKEYPOST_SWEEP_S` → `sweep_s`, the workers' rebuild period, at least 1 (60)
- `DONKEYPOST_LOG_LEVEL` → `log_level` of the workers (`INFO`)
- `HOST`, `PORT`, `WEB_CONNECTIONS`, `DONKEYPOST_DATA` → `host`, `port`,
  `web_connections`, `data_dir`: `donkeypost serve`'s defaults (`127.0.0.1`, 8000, 2000,
  `data`)

(`DONKEYPOST_STRONG_MS`, the strong bot's budget, is still read by `domain.bots.levels`.)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from domain.webhooks.deliveries import RetryPolicy
from domain.webhooks.targets import TargetPolicy

T = TypeVar("T")


class SettingsError(ValueError):
    """A setting is missing or malformed; the message names the variable."""


@dataclass(frozen=True)
class Settings:
    redis_url: str | None = None
    rq_redis_url: str | None = None
    sse_keepalive_s: float = 15.0
    sse_max_s: float = 3600.0
    webhook_targets: TargetPolicy = field(default_factory=TargetPolicy)
    webhook_timeout_s: float = 10.0
    webhook_retry: RetryPolicy = field(default_factory=RetryPolicy)
    sweep_s: int = 60
    log_level: str = "INFO"
    host: str = "127.0.0.1"
    port: int = 8000
    web_connections: int = 2000
    data_dir: str = "data"

    @property
    def store_url(self) -> str:
        """`REDIS_URL`, which every process of the service needs."""
        if not self.redis_url:
            raise SettingsError("REDIS_URL is not set: the service needs the games' Redis "
                                "(`donkeypost serve` starts an embedded one)")
        return self.redis_url

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
        return cls(
            redis_url=read("REDIS_URL", str, None),
            rq_redis_url=read("RQ_REDIS_URL", str, None),
            sse_keepalive_s=read("SSE_KEEPALIVE_S", float, default.sse_keepalive_s),
            sse_max_s=read("SSE_MAX_S", float, default.sse_max_s),
            webhook_targets=read("WEBHOOK_ALLOWED_NETWORKS", TargetPolicy.allowing,
                                 default.webhook_targets),
            webhook_timeout_s=read("WEBHOOK_TIMEOUT_S", float, default.webhook_timeout_s),
            webhook_retry=retry,
            sweep_s=max(1, read("DONKEYPOST_SWEEP_S", int, default.sweep_s)),
            log_level=read("DONKEYPOST_LOG_LEVEL", str.upper, default.log_level),
            host=read("HOST", str, default.host),
            port=read("PORT", int, default.port),
            web_connections=read("WEB_CONNECTIONS", int, default.web_connections),
            data_dir=read("DONKEYPOST_DATA", str, default.data_dir),
        )
