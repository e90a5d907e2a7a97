"""The app the HTTP benchmark serves: exactly what `donkeypost serve` runs (`create_app()`
with its default hooks, REDIS_URL from the environment), plus the ceiling's trivial route
(`bench.ceiling`)."""

from api.app import create_app
from bench.ceiling import add_ping

app = create_app()
add_ping(app)
