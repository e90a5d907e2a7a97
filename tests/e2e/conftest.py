from __future__ import annotations

import pytest

from domain.service import NoHooks
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings
from tests.e2e.api_client import ApiClient


@pytest.fixture
def app(redis_url, redis_client):
    return web_app(bootstrap(Settings(redis_url=redis_url), hooks=NoHooks()),
                   {"TESTING": True})


@pytest.fixture
def api(app) -> ApiClient:
    return ApiClient(app.test_client())
