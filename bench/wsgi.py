"""The app the HTTP benchmark serves: exactly what `donkeypost serve` runs (the composition
root's `web_app` with its default hooks, settings from the environment: `REDIS_URL`), plus
the ceiling's trivial route (`bench.ping_route`)."""

from bench.ping_route import add_ping
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings

app = web_app(bootstrap(Settings.from_env()))
add_ping(app)
