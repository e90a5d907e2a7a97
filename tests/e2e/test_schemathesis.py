"""Property-based API testing: schemathesis generates requests from the OpenAPI document;
no answer may be a 5xx or break the documented schema."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance

from api.rate_limits import RateLimits
from domain.connection import connect
from domain.service import NoHooks
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings


@pytest.fixture(scope="module")
def live_app(redis_url):
    connect(redis_url).flushdb()
    # Generated bursts: no rate limits. No worker runs beside it: /healthz requires none.
    settings = Settings(redis_url=redis_url, rate_limits=RateLimits.off(), health_workers=())
    app = web_app(bootstrap(settings, hooks=NoHooks()), {"TESTING": True})
    # A started game, so generated requests also reach the paths of a real game.
    client = app.test_client()
    game = client.post("/games", json={"type": "ochs-und-esel",
                                       "seats": [{"kind": "human"}] * 3}).get_json()
    for name in ("a", "b", "c"):
        client.post(f"/games/{game['id']}/players", json={"name": name})
    return app


schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.fixture(scope="module")
def api_schema(live_app):
    return schemathesis.openapi.from_wsgi("/openapi.json", live_app)


@schema.parametrize()
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.filter_too_much])
def test_no_server_errors_and_responses_match_the_schema(case):
    # A schema cannot say which player counts or options each game accepts, so a
    # schema-valid request may still be refused (422): that check is left out.
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
