from __future__ import annotations

import pytest

from api.rate_limits import RateLimits
from donkeypost.settings import Settings
from tests.e2e.api_client import ApiClient
from tests.support.apps import shared_app


@pytest.fixture
def app(redis_url, redis_client, games):
    # Rate limits off: these tests play fast from one address (tests/e2e/test_rate_limits.py
    # has them on). No worker runs beside them: /healthz requires none.
    return shared_app(Settings(redis_url=redis_url, rate_limits=RateLimits.off(),
                               health_workers=()), games)


@pytest.fixture
def api(app) -> ApiClient:
    return ApiClient(app.test_client())
