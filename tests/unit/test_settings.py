"""The settings are read from the environment once, typed; a bad value names its variable."""

from __future__ import annotations

import ipaddress
import math
import re
from pathlib import Path

import pytest

from api.rate_limits import RateLimits
from domain.bots.search_terms import Budget
from domain.connection import cluster_nodes
from domain.webhooks.deliveries import RetryPolicy
from donkeypost.settings import Settings, SettingsError, usable_cores


def test_an_empty_environment_gives_the_defaults_and_no_redis():
    settings = Settings.from_env({})
    assert settings == Settings()
    with pytest.raises(SettingsError, match="REDIS_URL"):
        _ = settings.store_url


def test_every_variable_reaches_its_setting():
    settings = Settings.from_env({
        "REDIS_URL": "redis://games:6379/0", "RQ_REDIS_URL": "redis://queues:6379/0",
        "SSE_KEEPALIVE_S": "0.5", "SSE_MAX_S": "60",
        "WEBHOOK_ALLOWED_NETWORKS": "127.0.0.0/8, 10.0.0.0/8", "WEBHOOK_TIMEOUT_S": "2",
        "WEBHOOK_ALLOWED_PORTS": "8080, 9000-9100",
        "WEBHOOK_MAX_ATTEMPTS": "3", "WEBHOOK_RETRY_FIRST_S": "0.1",
        "WEBHOOK_RETRY_FACTOR": "2", "DONKEYPOST_SWEEP_S": "5",
        "DONKEYPOST_LOG_LEVEL": "debug", "HOST": "0.0.0.0", "PORT": "9000",
        "WEB_CONNECTIONS": "50", "DONKEYPOST_DATA": "/var/lib/donkeypost",
        "DONKEYPOST_APPENDFSYNC": "Always", "DONKEYPOST_BOT_WORKERS": "3"})
    assert (settings.store_url, settings.queue_url) == ("redis://games:6379/0",
                                                        "redis://queues:6379/0")
    assert (settings.sse_keepalive_s, settings.sse_max_s) == (0.5, 60.0)
    assert settings.webhook_targets.allowed_networks == (
        ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("10.0.0.0/8"))
    assert settings.webhook_targets.allowed_ports == ((8080, 8080), (9000, 9100))
    assert settings.webhook_timeout_s == 2.0
    assert settings.webhook_retry == RetryPolicy(max_attempts=3, first_delay_s=0.1, factor=2)
    assert (settings.sweep_s, settings.log_level) == (5, "DEBUG")
    assert (settings.host, settings.port, settings.web_connections, settings.data_dir) == (
        "0.0.0.0", 9000, 50, "/var/lib/donkeypost")
    assert (settings.appendfsync, settings.bot_workers) == ("always", 3)


def test_serve_starts_a_bot_worker_per_core_unless_told():
    assert Settings.from_env({}).bot_workers == usable_cores() >= 1


def test_the_queues_share_the_games_redis_unless_told_otherwise():
    assert Settings.from_env({"REDIS_URL": "redis://one", "RQ_REDIS_URL": ""}).queue_url \
        == "redis://one"


def test_the_sweep_period_is_at_least_a_second():
    assert Settings.from_env({"DONKEYPOST_SWEEP_S": "0"}).sweep_s == 1


def test_rate_limits_proxies_and_origins_from_the_environment():
    settings = Settings.from_env({"RATE_LIMIT_ACT": "5/second", "TRUSTED_PROXIES": "2",
                                  "CORS_ORIGINS": "https://table.example/, http://x.test:8080"})
    assert settings.rate_limits.enabled and settings.rate_limits.limit("act") == "5/second"
    assert settings.rate_limits.limit("create") == RateLimits().limit("create")
    assert settings.trusted_proxies == 2
    assert settings.cors_origins == ("https://table.example", "http://x.test:8080")
    assert not Settings.from_env({"RATE_LIMITS": "off"}).rate_limits.enabled
    assert Settings.from_env({}).rate_limits == RateLimits() and Settings().cors_origins == ()


@pytest.mark.parametrize("name, value", [
    ("RATE_LIMITS", "sometimes"), ("RATE_LIMIT_ACT", "fast"), ("TRUSTED_PROXIES", "-1"),
    ("CORS_ORIGINS", "table.example"), ("CORS_ORIGINS", "https://table.example/path"),
    ("SSE_KEEPALIVE_S", "soon"), ("PORT", "80a"), ("DONKEYPOST_SWEEP_S", "1.5"),
    ("WEBHOOK_ALLOWED_NETWORKS", "10.0.0.0/33"), ("WEBHOOK_MAX_ATTEMPTS", "many"),
    ("WEBHOOK_ALLOWED_PORTS", "0"), ("WEBHOOK_ALLOWED_PORTS", "9100-9000"),
    ("DONKEYPOST_APPENDFSYNC", "no"), ("DONKEYPOST_BOT_WORKERS", "0"),
    ("DONKEYPOST_STRONG_MS", "fast"), ("DONKEYPOST_EXPERT_MS", "0"),
    ("DONKEYPOST_ARCHIVE_READ_TTL_S", "-1"), ("DONKEYPOST_ARCHIVE_READ_TTL_S", "nan"),
    ("DONKEYPOST_ARCHIVE_READ_TTL_S", "always"),
    ("DONKEYPOST_ARCHIVE_KEEP_READ_FROM_EVENTS", "-1"),
    ("DONKEYPOST_ARCHIVE_KEEP_READ_FROM_EVENTS", "long"),
])
def test_a_malformed_value_is_refused_by_name(name, value):
    with pytest.raises(SettingsError, match=name):
        Settings.from_env({name: value})


def test_the_copy_for_reads_of_an_archived_game_can_be_kept_for_ever():
    assert Settings.from_env({}).archive_read_ttl_s == 86_400
    assert Settings.from_env({"DONKEYPOST_ARCHIVE_READ_TTL_S": "forever"}) \
        .archive_read_ttl_s == math.inf
    assert Settings.from_env({"DONKEYPOST_ARCHIVE_READ_TTL_S": "0"}).archive_read_ttl_s == 0


def test_a_long_games_copy_for_reads_is_kept_as_long_as_its_record():
    copies = Settings.from_env({}).read_copies
    assert (copies.ttl_for(199), copies.ttl_for(200)) == (86_400, math.inf)
    copies = Settings.from_env({"DONKEYPOST_ARCHIVE_KEEP_READ_FROM_EVENTS": "1000",
                                "DONKEYPOST_ARCHIVE_READ_TTL_S": "60"}).read_copies
    assert (copies.ttl_for(999), copies.ttl_for(1000)) == (60, math.inf)
    copies = Settings.from_env({"DONKEYPOST_ARCHIVE_KEEP_READ_FROM_EVENTS": "none"}).read_copies
    assert copies.ttl_for(10**6) == 86_400
    # No copy at all (a time to live of 0) holds for long games too.
    copies = Settings.from_env({"DONKEYPOST_ARCHIVE_READ_TTL_S": "0"}).read_copies
    assert copies.ttl_for(10**6) == 0


def test_a_cluster_for_the_games_with_the_queues_on_a_plain_redis():
    settings = Settings.from_env({"REDIS_CLUSTER_URL": "redis://a:7000,b:7001, c:7002",
                                  "RQ_REDIS_URL": "redis://queues:6379/0",
                                  "REDIS_WAIT_REPLICAS": "1", "REDIS_WAIT_TIMEOUT_MS": "50"})
    assert settings.cluster and settings.redis_url is None
    assert (settings.store_url, settings.queue_url) == ("redis://a:7000,b:7001, c:7002",
                                                        "redis://queues:6379/0")
    assert cluster_nodes(settings.store_url) == [("a", 7000), ("b", 7001), ("c", 7002)]
    assert (settings.wait_replicas, settings.wait_timeout_ms) == (1, 50)
    assert not Settings.from_env({"REDIS_URL": "redis://one"}).cluster
    assert Settings().wait_replicas == 0  # an append does not wait for replicas by default


@pytest.mark.parametrize("env, says", [
    ({"REDIS_CLUSTER_URL": "redis://a:7000"}, "RQ_REDIS_URL is not"),
    ({"REDIS_CLUSTER_URL": "redis://a:7000", "REDIS_URL": "redis://one",
      "RQ_REDIS_URL": "redis://q"}, "both set"),
    ({"REDIS_CLUSTER_URL": "redis://a", "RQ_REDIS_URL": "redis://q"}, "REDIS_CLUSTER_URL"),
    ({"REDIS_CLUSTER_URL": "http://a:7000", "RQ_REDIS_URL": "redis://q"},
     "REDIS_CLUSTER_URL"),
    ({"REDIS_WAIT_REPLICAS": "-1"}, "REDIS_WAIT_REPLICAS"),
    ({"REDIS_WAIT_TIMEOUT_MS": "0"}, "REDIS_WAIT_TIMEOUT_MS"),
])
def test_a_cluster_needs_a_plain_redis_for_the_queues_and_a_url_of_its_nodes(env, says):
    with pytest.raises(SettingsError, match=says):
        Settings.from_env(env)


def test_the_log_format_and_the_request_lines():
    assert (Settings().log_format, Settings().log_requests) == ("text", True)
    settings = Settings.from_env({"LOG_FORMAT": "JSON", "LOG_REQUESTS": "off"})
    assert (settings.log_format, settings.log_requests) == ("json", False)
    for name, value in (("LOG_FORMAT", "xml"), ("LOG_REQUESTS", "maybe")):
        with pytest.raises(SettingsError, match=name):
            Settings.from_env({name: value})


def test_the_searching_bots_budgets_are_read_here_and_nowhere_in_the_domain():
    budgets = Settings.from_env({"DONKEYPOST_STRONG_MS": "120"}).bot_budgets
    assert budgets == {"strong": Budget(seconds=0.12)}  # expert: the bots' default
    assert Settings.from_env({}).bot_budgets == {}
    domain = Path(__file__).resolve().parents[2] / "domain"
    readers = [str(p.relative_to(domain)) for p in domain.rglob("*.py")
               if re.search(r"os\.environ|getenv", p.read_text())]
    assert readers == [], "the domain reads no environment variable"
