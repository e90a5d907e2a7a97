"""The WSGI entry point: `gunicorn donkeypost.wsgi:app` (the Procfile's web line; `REDIS_URL`
must be set, `donkeypost serve` sets it).

Importing this module builds the application from the environment: it is the one module
that builds at import, because gunicorn's import of it is the web process's start.
"""

from donkeypost import logs
from donkeypost.bootstrap import bootstrap, web_app
from donkeypost.settings import Settings

settings = Settings.from_env()
logs.configure(settings.log_level, settings.log_format, "web")
app = web_app(bootstrap(settings))
