"""The app the HTTP benchmark serves: exactly what `donkeypost serve` runs (`create_app()`
with its default hooks, REDIS_URL from the environment), plus one trivial route.

`GET /bench/ping` is a flask-smorest GET with a one-field response schema and no Redis
call: the ceiling of this stack (gunicorn, Flask, flask-smorest, marshmallow) on this
machine, against which the moves are compared.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask import Flask
from flask.views import MethodView
from flask_smorest import Blueprint

from api.app import create_app


class PingSchema(ma.Schema):
    status = ma.fields.String(required=True)


def add_ping(app: Flask) -> None:
    api = app.extensions["flask-smorest"]["apis"][""]["ext_obj"]
    blp = Blueprint("bench", __name__, url_prefix="/bench", description="Benchmark only")

    @blp.route("/ping")
    class Ping(MethodView):
        @blp.response(200, PingSchema)
        def get(self) -> dict[str, Any]:
            return {"status": "ok"}

    api.register_blueprint(blp)


app = create_app()
add_ping(app)
