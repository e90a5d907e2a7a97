"""The web table in a real browser: Debian's Chromium driven by playwright, against
`donkeypost serve` as a person runs it (embedded Redis, gunicorn, bot workers).

Without Chromium or playwright these tests skip with one line saying how to get them,
unless `DONKEYPOST_REQUIRE_BROWSER` is set (CI sets it): then a missing browser fails.
Screenshots go to `tests/browser/artifacts/` (ignored by git).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.serve import ServeProcess
from tests.support.workers import wait_until

CHROMIUM = os.environ.get("DONKEYPOST_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).with_name("artifacts")
INSTALL = ("the browser tests need Chromium and playwright: apt-get install -y chromium "
           "&& pip install playwright")


def _browser_missing() -> str | None:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM}"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed"
    return None


def _need_a_browser() -> None:
    missing = _browser_missing()
    if missing is not None:
        if os.environ.get("DONKEYPOST_REQUIRE_BROWSER"):
            pytest.fail(f"{missing} (DONKEYPOST_REQUIRE_BROWSER is set): {INSTALL}")
        pytest.skip(f"{missing}: {INSTALL}")


# Module-scoped: while playwright runs, its event loop runs in this thread (greenlets), and
# a later test's asyncio.run() would find it running.
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    _need_a_browser()
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="session")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    """One service for every browser test of the run (starting one costs ~10-20 s): one
    web worker (so that killing it drops every stream), one bot worker; no rate limits (the
    tests also set tables up over the API at full speed). Each test makes its own tables."""
    _need_a_browser()
    serve = ServeProcess(tmp_path_factory.mktemp("serve"), "--web-workers", "1",
                         "--bot-workers", "1", RATE_LIMITS="off")
    try:
        serve.wait_listening()
        # Its first answers (a web worker importing the app) can be slow on a busy machine.
        wait_until(lambda: _answers(f"{serve.url}/play/"), 60, "the web table answering",
                   every_s=0.2)
        yield serve
    finally:
        serve.close()


@pytest.fixture(scope="module")
def server(browser: Any, served: ServeProcess) -> ServeProcess:
    """The run's service, for a module with its browser."""
    return served


def _answers(url: str) -> bool:
    try:
        return httpx.get(url, timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


@pytest.fixture
def http(server: ServeProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        yield client


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A browser profile of its own (its own localStorage: its own seats), phone-sized."""
    ctx = browser.new_context(viewport={"width": 420, "height": 900})
    ctx.set_default_timeout(30_000)  # a busy machine
    try:
        yield ctx
    finally:
        ctx.close()
