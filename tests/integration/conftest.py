from __future__ import annotations

import pytest

from donkeypost.bootstrap import Components, bootstrap, job_context
from donkeypost.settings import Settings
from tests.support.clock import Clock
from workers import context
from workers.hooks import RqHooks


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def components(redis_url, redis_client, clock, games) -> Components:
    """The web app's and the workers' objects, as the composition root wires them, on the
    test's clock."""
    return bootstrap(Settings(redis_url=redis_url), clock=clock, games=games)


@pytest.fixture
def rq_hooks(components) -> RqHooks:
    return components.rq_hooks


@pytest.fixture
def service(components):
    """The service of the web app and of the jobs: appends are followed by the hooks. The
    test runs inside a job's context, so that it may also call jobs as a worker would."""
    with context.running(job_context(components)):
        yield components.service
