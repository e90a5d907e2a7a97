"""The WSGI entry point: `gunicorn donkeypost.wsgi:app` (the Procfile's web line; `REDIS_URL`
must be set, `donkeypost serve` sets it).

Importing this module builds the application from the environment: it is the one module
that builds at import, because gunicorn's import of it is the web process's start.
"""

from donkeypost import logs
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings
from workers.runner import QuietRedisErrors

settings = Settings.from_env()
# A library's error that Redis's absence caused (the rate limiter's, while it swallows
# them) is one line, as in the workers: the outage itself is said once (api.outage).
logs.configure(settings.log_level, settings.log_format, "web", [QuietRedisErrors()])
app = web_app(bootstrap(settings))
