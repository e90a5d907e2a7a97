"""The WSGI entry point for gunicorn: `gunicorn api.wsgi:app` (REDIS_URL must be set)."""

from api.app import create_app

app = create_app()
