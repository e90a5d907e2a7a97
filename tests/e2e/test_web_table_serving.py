"""The web table is served at /play/ from the package's built files, under a content
security policy that lets it run its own script and call this origin only."""

from __future__ import annotations


def test_play_serves_the_page_its_script_and_styles(api):
    moved = api.http.get("/play")
    assert moved.status_code == 308 and moved.headers["Location"].endswith("/play/")
    page = api.http.get("/play/")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert b'src="app.js"' in page.data and b'href="app.css"' in page.data
    csp = page.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "connect-src 'self'" in csp
    assert "unsafe" not in csp and "frame-ancestors 'none'" in csp
    script = api.http.get("/play/app.js")
    assert script.status_code == 200 and "javascript" in script.mimetype
    assert api.http.get("/play/app.css").mimetype == "text/css"
    assert api.http.get("/play/nothing.js").status_code == 404
    # the API itself keeps its own policy
    assert api.http.get("/games").headers["Content-Security-Policy"].startswith(
        "default-src 'none'")
