"""The ceiling of the stack: `GET /bench/ping`, a flask-smorest GET with a one-field
response schema and no Redis call. Whatever gunicorn, Flask, flask-smorest and marshmallow
cost per request on this machine, it costs; a move is compared with it."""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask import Flask
from flask.views import MethodView
from flask_smorest import Blueprint

# The app the benchmarks' web servers serve: the service's own, with this route added.
BENCH_APP = "bench.wsgi:app"


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
