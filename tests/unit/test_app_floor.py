"""What the application does once per request, done cheaply: the security headers added
as prepared tuples (`api.browser.secured`), and the rate limiter as two hooks."""

from __future__ import annotations

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


def test_the_rate_limiter_is_two_hooks_and_wraps_no_route(redis_url):
    from api.rate_limits import RateLimiter, RateLimits
    from domain.service import NoHooks
    from donkeypost.bootstrap import bootstrap, web_app
    from donkeypost.settings import Settings

    def app(limits):
        return web_app(bootstrap(Settings(redis_url=redis_url, rate_limits=limits),
                                 hooks=NoHooks()))

    on, off = app(RateLimits()), app(RateLimits.off())
    hooks = [f for funcs in (on.before_request_funcs, on.after_request_funcs,
                             on.teardown_request_funcs) for f in funcs.get(None, [])]
    ours = [f for f in hooks if isinstance(getattr(f, "__self__", None), RateLimiter)]
    assert [f.__name__ for f in ours] == ["before", "after"]
    assert len(hooks) == len(ours) + sum(len(funcs.get(None, [])) for funcs in (
        off.before_request_funcs, off.after_request_funcs, off.teardown_request_funcs))
    assert not [name for name, view in on.view_functions.items()
                if hasattr(view, "__wrapped__")]
