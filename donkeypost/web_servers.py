"""The HTTP servers the web process can run (`WEB_SERVER`), as command lines.

Both serve the same WSGI app with `workers` processes, each holding up to `connections`
requests at once (an event stream or a long-poll holds one for its whole life):
- `gunicorn`: gevent workers, a greenlet per connection (the default; what the fault tests
  drive). Each worker listens on a socket of its own (SO_REUSEPORT): the kernel spreads the
  connections (measured in docs/benchmarks.md). gunicorn replaces a worker that dies.
- `granian`: a Rust HTTP server in WSGI mode; each request in flight runs on a thread of the
  worker's pool, made on demand and retired when idle, `connections` at most (an idle
  keep-alive connection holds none). Less CPU per request than gunicorn-gevent, but fewer
  moves a second on one core once dozens of requests run at once; a held stream costs a
  thread, about 110 KiB of memory against gevent's 36 KiB (docs/benchmarks.md section 8,
  `python -m bench.idle_streams`). granian replaces a worker that dies
  (`--respawn-failed-workers`). It does not bound a request body's time (`BODY_TIMEOUT_S`
  is gevent's): run it behind a proxy that buffers bodies.
"""

from __future__ import annotations

import importlib.util
import sys
from typing import Literal

from api.observe import REQUEST_LINE

WebServer = Literal["gunicorn", "granian"]
WEB_SERVERS: tuple[WebServer, ...] = ("gunicorn", "granian")
APP = "donkeypost.wsgi:app"
GRACE_S = 1  # a request in flight gets this long at a stop (streams would hold it for ever)
RESPAWN_S = 1  # granian: the pause before a dead worker is replaced
# gunicorn's gevent worker, with what gunicorn refuses itself answered in the error shape.
GUNICORN_WORKER = "donkeypost.gunicorn_worker.JsonErrorsWorker"
# Its hooks (`child_exit`: a dead worker's live gauges leave the metrics).
GUNICORN_CONFIG = "python:donkeypost.gunicorn_config"
# The multiprocess metrics' folder (prometheus_client's variable; `api.metrics`).
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"


def web_command(server: WebServer, host: str, port: int, workers: int, connections: int,
                app: str = APP, log_level: str = "warning") -> list[str]:
    """The command line of `server` serving `app` on `host:port`."""
    if server == "granian":
        return [sys.executable, "-m", "granian", "--interface", "wsgi",
                "--host", host, "--port", str(port), "--workers", str(workers),
                # A thread per request in flight; as many requests admitted as threads.
                "--blocking-threads", str(connections), "--backpressure", str(connections),
                "--respawn-failed-workers", "--respawn-interval", str(RESPAWN_S),
                "--workers-kill-timeout", str(GRACE_S), "--log-level", log_level, app]
    bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return [sys.executable, "-m", "gunicorn", "--config", GUNICORN_CONFIG,
            "--worker-class", GUNICORN_WORKER, "--limit-request-line", str(REQUEST_LINE),
            "--workers", str(workers), "--worker-connections", str(connections),
            "--bind", bind, "--reuse-port", "--graceful-timeout", str(GRACE_S),
            "--no-control-socket", "--log-level", log_level, app]


def missing(server: WebServer) -> str | None:
    """Why `server` cannot run here, or None."""
    module = "granian" if server == "granian" else "gunicorn"
    if importlib.util.find_spec(module) is None:
        return f"WEB_SERVER={server} needs the `{module}` package (pip install {module})"
    return None
