"""The HTTP API of donkeypost: Flask + flask-smorest, built by `create_app()`."""

from api.app import create_app

__all__ = ["create_app"]
