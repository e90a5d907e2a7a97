"""`donkeypost serve`: the whole service on one machine, kept running by a supervisor.

Its children (`donkeypost.supervisor`), each restarted with backoff if it dies:
- `redis`: the embedded Redis (`donkeypost.embedded_redis`), unless `REDIS_URL` is set (or
  `REDIS_CLUSTER_URL`, with the queues on `RQ_REDIS_URL`: docs/scaling.md);
- `web`: the HTTP server on `donkeypost.wsgi:app` (`WEB_SERVER`: gunicorn with gevent
  workers, or granian; `donkeypost.web_servers`), which itself replaces a web worker that
  dies; the supervisor restarts the server;
- `bots-N`: the bot and deadline workers, one per core unless told (`--bot-workers`), on
  the quick queues (deadlines, ratings, quick bots) first, then the searching bots'
  (strong and expert, taking turns);
- `quick`: one worker on the quick queues only: however many searches keep the `bots-N`
  busy, a deadline, a rating or a quick bot's turn never waits for one to end;
- `notifier`: the webhook worker and the notifier (players' e-mail and Web Push, and the
  `deadline_soon` warnings), apart so that a slow receiver never holds up a bot turn.

A port that another process listens on is refused before anything starts: gunicorn's web
workers bind with SO_REUSEPORT (the kernel then spreads connections over them evenly),
which would otherwise let a second server share the port silently. `--reuse-port` skips
that check.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import socket
import sys
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from donkeypost import logs
from donkeypost.embedded_redis import AppendFsync, EmbeddedRedis
from donkeypost.settings import Settings
from donkeypost.supervisor import Child, ChildFailed, Supervisor
from donkeypost.web_servers import MULTIPROC_ENV, WebServer, missing, web_command
from workers.hooks import GAME_QUEUES, NOTIFICATIONS, QUICK_QUEUES

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ServeOptions:
    host: str
    port: int
    web_workers: int
    web_connections: int
    bot_workers: int
    data_dir: Path
    appendfsync: AppendFsync = "everysec"
    reuse_port: bool = False
    web_server: WebServer = "gunicorn"


def options_from(settings: Settings, *, host: str | None = None, port: int | None = None,
                 web_workers: int = 2, web_connections: int | None = None,
                 bot_workers: int | None = None, data: str | None = None,
                 appendfsync: AppendFsync | None = None,
                 reuse_port: bool = False, web_server: WebServer | None = None) -> ServeOptions:
    """The command line's values, else the settings'."""
    return ServeOptions(host=host or settings.host, port=port or settings.port,
                        web_workers=web_workers,
                        web_connections=web_connections or settings.web_connections,
                        bot_workers=bot_workers or settings.bot_workers,
                        data_dir=Path(data or settings.data_dir),
                        appendfsync=appendfsync or settings.appendfsync, reuse_port=reuse_port,
                        web_server=web_server or settings.web_server)


def serve(settings: Settings, options: ServeOptions) -> int:
    """Run the service until SIGINT, SIGTERM or SIGHUP; the exit code."""
    logs.configure("INFO", settings.log_format, "serve")
    unavailable = missing(options.web_server)
    if unavailable:
        print(f"donkeypost: {unavailable}", file=sys.stderr)
        return 2
    if not options.reuse_port:
        taken = port_taken(options.host, options.port)
        if taken:
            print(f"donkeypost: {taken}; stop the other server or choose another --port",
                  file=sys.stderr)
            return 2
    embedded = None
    redis_url = settings.redis_url
    if not redis_url and not settings.cluster:
        embedded = EmbeddedRedis(options.data_dir, options.appendfsync)
        embedded.write_config()
        redis_url = embedded.url
        print(f"embedded Redis: data in {embedded.data_dir} (append-only file, appendfsync "
              f"{options.appendfsync})", flush=True)
    if not os.environ.get(MULTIPROC_ENV):
        # Every child counts its metrics into files here, which a scrape adds up; emptied
        # at each start (the counters start again from zero, as Prometheus expects).
        os.environ[MULTIPROC_ENV] = str(metrics_folder(options.data_dir))
    supervisor = Supervisor(children(options, redis_url, embedded))
    stopping = _stop_on_signals()
    try:
        if supervisor.start(stopping.asked):
            print(f"donkeypost listening on http://{_url_host(options.host)}:{options.port}/"
                  f"  (API docs: /docs; {options.web_server}, {options.bot_workers} bot "
                  "workers)  Ctrl-C stops",
                  flush=True)
            supervisor.run(stopping.asked)
    except ChildFailed as failed:
        print(f"donkeypost: {failed}; stopping", file=sys.stderr, flush=True)
        supervisor.stop()
        return 1
    print("stopping", flush=True)
    supervisor.stop()
    print("stopped", flush=True)
    return 0


def metrics_folder(data_dir: Path) -> Path:
    """The multiprocess metrics' folder of a `serve`, emptied."""
    folder = data_dir / "metrics"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    return folder


def children(options: ServeOptions, redis_url: str | None,
             embedded: EmbeddedRedis | None) -> list[Child]:
    """(`redis_url` None: the children read `REDIS_CLUSTER_URL` from the environment.)"""
    env = {**os.environ, **({"REDIS_URL": redis_url} if redis_url else {})}
    out: list[Child] = []
    if embedded is not None:
        out.append(Child("redis", embedded.argv, stage=0, ready=embedded.ready))
    out.append(Child(
        "web", web_command(options.web_server, options.host, options.port,
                           options.web_workers, options.web_connections),
        env=env, stage=1, ready=lambda: accepts(options.host, options.port)))
    worker = [sys.executable, "-m", "donkeypost.cli", "worker", "--queues"]
    out.extend(Child(f"bots-{n}", [*worker, ",".join(GAME_QUEUES)], env=env, stage=1)
               for n in range(1, options.bot_workers + 1))
    out.append(Child("quick", [*worker, ",".join(QUICK_QUEUES)], env=env, stage=1))
    out.append(Child("notifier", [*worker, NOTIFICATIONS], env=env, stage=1))
    return out


def port_taken(host: str, port: int) -> str | None:
    """Why `host:port` cannot be listened on, or None. Bound without SO_REUSEPORT, the
    probe fails where any other socket listens, SO_REUSEPORT or not."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as err:
        return f"cannot listen on {host}: {err.strerror}"
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as err:
            return f"{host}:{port} is in use ({err.strerror})"
    return None


def accepts(host: str, port: int) -> bool:
    """Something accepts connections on `host:port` (a wildcard host: on loopback)."""
    target = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)
    try:
        with socket.create_connection((target, port), timeout=0.5):
            return True
    except OSError:
        return False


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


class _Stop:
    def __init__(self) -> None:
        self.requested = False

    def asked(self) -> bool:
        return self.requested

    def __call__(self, _signum: int, _frame: FrameType | None) -> None:
        self.requested = True


def _stop_on_signals() -> _Stop:
    stop = _Stop()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, stop)
    return stop
