from __future__ import annotations

import pytest

from api.app import create_app
from domain.service import NoHooks
from tests.e2e.api_client import ApiClient


@pytest.fixture
def app(redis_url, redis_client):
    return create_app({"REDIS_URL": redis_url, "TESTING": True}, hooks=NoHooks())


@pytest.fixture
def api(app) -> ApiClient:
    return ApiClient(app.test_client())
