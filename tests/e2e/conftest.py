from __future__ import annotations

import pytest

from api.rate_limits import RateLimits
from domain.service import NoHooks
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings
from tests.e2e.api_client import ApiClient


@pytest.fixture
def app(redis_url, redis_client, games):
    # Rate limits off: these tests play fast from one address (tests/e2e/test_rate_limits.py
    # has them on). No worker runs beside them: /healthz requires none.
    settings = Settings(redis_url=redis_url, rate_limits=RateLimits.off(), health_workers=())
    return web_app(bootstrap(settings, hooks=NoHooks(), games=games),
                   {"TESTING": True})


@pytest.fixture
def api(app) -> ApiClient:
    return ApiClient(app.test_client())
