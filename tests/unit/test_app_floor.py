"""What the application does once per request, done cheaply: the security headers added
as prepared tuples (`api.browser.secured`), and Flask's coroutine check (`ensure_sync`)."""

from __future__ import annotations

import asyncio

from api.app import DonkeyFlask
from api.browser import secured

API_CSP = "default-src 'none'; frame-ancestors 'none'"


def _environ(path, method="GET", token=False):
    environ = {"PATH_INFO": path, "REQUEST_METHOD": method}
    if token:
        environ["HTTP_AUTHORIZATION"] = "Bearer t"
    return environ


def test_every_answer_gets_the_four_headers_once_and_keeps_its_own():
    headers = secured(_environ("/games/g1"), [("Content-Type", "application/json")])
    assert dict(headers) == {"Content-Type": "application/json",
                             "X-Content-Type-Options": "nosniff",
                             "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
                             "Content-Security-Policy": API_CSP}
    own = secured(_environ("/games/g1"), [("x-frame-options", "SAMEORIGIN")])
    assert [v for n, v in own if n.lower() == "x-frame-options"] == ["SAMEORIGIN"]
    assert len(own) == 4


def test_pages_get_their_own_policy():
    for path in ("/docs", "/docs/assets/x.js", "//docs"):
        assert "script-src 'self' 'unsafe-inline'" in dict(
            secured(_environ(path), []))["Content-Security-Policy"]
    for path in ("/play", "/play/", "/play/app.js"):
        assert "connect-src 'self'" in dict(secured(_environ(path), []))[
            "Content-Security-Policy"]
    assert dict(secured(_environ("/player"), []))["Content-Security-Policy"] == API_CSP


def test_no_store_replaces_any_caching_on_answers_to_a_token_or_a_post():
    cached = [("Cache-Control", "public, max-age=600")]
    for environ in (_environ("/docs/assets/x.js", token=True), _environ("/games", "post")):
        headers = secured(environ, list(cached))
        assert [v for n, v in headers if n.lower() == "cache-control"] == ["no-store"]
    assert [v for n, v in secured(_environ("/docs/assets/x.js"), list(cached))
            if n == "Cache-Control"] == ["public, max-age=600"]


def test_plain_hooks_are_used_as_they_are_and_coroutines_still_go_to_flask():
    app = DonkeyFlask("t")

    def hook():
        return None

    class View:
        def get(self):
            return None

    assert app.ensure_sync(hook) is hook
    method = View().get
    assert app.ensure_sync(method) is method

    async def later():
        await asyncio.sleep(0)
        return 7

    try:
        wrapped = app.ensure_sync(later)
    except RuntimeError as err:  # Flask's own answer without its async extra installed
        assert "async" in str(err)
    else:
        assert wrapped is not later and wrapped() == 7


def test_with_limits_on_no_hook_of_flask_limiters_runs(redis_url):
    from flask_limiter import Limiter

    from api.rate_limits import RateLimits
    from domain.service import NoHooks
    from donkeypost.bootstrap import bootstrap, web_app
    from donkeypost.settings import Settings

    app = web_app(bootstrap(Settings(redis_url=redis_url, rate_limits=RateLimits()),
                            hooks=NoHooks()))
    limiters = [x for x in app.extensions["limiter"] if isinstance(x, Limiter)]
    assert limiters
    hooks = [f for funcs in (app.before_request_funcs, app.after_request_funcs,
                             app.teardown_request_funcs) for f in funcs.get(None, [])]
    for hook in hooks:
        bound = getattr(hook, "__self__", None) or next(iter(getattr(hook, "args", ())), None)
        assert bound not in limiters, hook
