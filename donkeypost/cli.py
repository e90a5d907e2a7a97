"""The `donkeypost` command: serve, worker, openapi, verify (and more as the project grows).

Each command that runs the service reads the settings once (`donkeypost.settings`) and
wires its process with the composition root (`donkeypost.bootstrap`): `worker` runs one RQ
worker; `serve` starts the embedded Redis unless `REDIS_URL` is set, then gunicorn on
`donkeypost.wsgi:app` and two workers, as separate processes.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from donkeypost.settings import Settings, SettingsError
from workers.hooks import BOTS, DEADLINES, NOTIFICATIONS, QUEUES, RATINGS

OPENAPI_PATH = Path(__file__).resolve().parent.parent / "openapi" / "openapi.json"
Command = Callable[[argparse.Namespace], int]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="donkeypost", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    commands: dict[str, Command] = {}

    serve = sub.add_parser("serve", help="run the web server and a worker (embedded Redis "
                                         "unless REDIS_URL is set)")
    serve.add_argument("--host", help="default: HOST, else 127.0.0.1")
    serve.add_argument("--port", type=int, help="default: PORT, else 8000")
    serve.add_argument("--web-workers", type=int, default=2)
    serve.add_argument("--web-connections", type=int,
                       help="open connections per web worker: each event stream holds one "
                            "(default: WEB_CONNECTIONS, else 2000)")
    serve.add_argument("--data", help="folder of the embedded Redis's data, AOF on "
                                      "(default: DONKEYPOST_DATA, else ./data)")
    commands["serve"] = cmd_serve

    worker = sub.add_parser("worker", help="run one RQ worker (bot turns, deadlines)")
    worker.add_argument("--burst", action="store_true", help="stop when the queues are empty")
    worker.add_argument("--queues", default=",".join(QUEUES),
                        help=f"comma-separated, of {','.join(QUEUES)} (default: all)")
    commands["worker"] = cmd_worker

    spec = sub.add_parser("openapi", help="write (or --check) openapi/openapi.json")
    spec.add_argument("--check", action="store_true", help="fail if the file is out of date")
    spec.add_argument("--output", type=Path, default=OPENAPI_PATH)
    commands["openapi"] = cmd_openapi

    verify = sub.add_parser("verify", help="check an exported NDJSON log: hash chain, seed "
                                           "commitment, replay")
    verify.add_argument("log", type=Path)
    commands["verify"] = cmd_verify

    for name, register in _extensions():
        commands[name] = register(sub)

    args = parser.parse_args(argv)
    return commands[args.command](args)


def _extensions() -> list[tuple[str, Callable[[argparse._SubParsersAction], Command]]]:
    """Commands that live beside the packages they drive (arena, bench)."""
    found: list[tuple[str, Callable[[argparse._SubParsersAction], Command]]] = []
    for name, module in (("arena", "bench.arena.cli"), ("bench", "bench.cli")):
        try:
            mod = __import__(module, fromlist=["register"])
        except ImportError:
            continue
        found.append((name, mod.register))
    return found


def _settings(needs_redis: bool = False) -> Settings | None:
    """The settings from the environment, or None after saying what is wrong. With
    `needs_redis`, `REDIS_URL` must be set."""
    try:
        settings = Settings.from_env()
        if needs_redis:
            settings.store_url  # noqa: B018 - raises SettingsError when unset
        return settings
    except SettingsError as err:
        print(err, file=sys.stderr)
        return None


def cmd_serve(args: argparse.Namespace) -> int:
    settings = _settings()
    if settings is None:
        return 2
    host = args.host or settings.host
    port = args.port or settings.port
    data = args.data or settings.data_dir
    env = dict(os.environ)
    embedded = None
    if not settings.redis_url:
        from domain.connection import embedded_url, start_embedded

        embedded = start_embedded(data)
        env["REDIS_URL"] = embedded_url(embedded)
        print(f"embedded Redis: data in {Path(data).resolve()} (AOF on)", flush=True)
    procs = [
        # gevent workers: a waiting long-poll or event stream costs a greenlet, not a worker.
        # --reuse-port: each worker gets the kernel's share of the connections; without it
        # the busiest gevent worker keeps accepting them (measured in docs/benchmarks.md).
        subprocess.Popen([sys.executable, "-m", "gunicorn", "--worker-class", "gevent",
                          "--workers", str(args.web_workers), "--reuse-port",
                          "--worker-connections",
                          str(args.web_connections or settings.web_connections), "--bind",
                          f"{host}:{port}", "--graceful-timeout", "5",
                          "donkeypost.wsgi:app"], env=env),
        # Two workers: a slow webhook receiver must not hold up bot turns and deadlines.
        subprocess.Popen([sys.executable, "-m", "donkeypost.cli", "worker",
                          "--queues", f"{DEADLINES},{BOTS},{RATINGS}"], env=env),
        subprocess.Popen([sys.executable, "-m", "donkeypost.cli", "worker",
                          "--queues", NOTIFICATIONS], env=env),
    ]
    print(f"donkeypost on http://{host}:{port}/  (API docs: /docs)  Ctrl-C stops",
          flush=True)
    stopping = False

    def stop(_signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    code = 0
    while not stopping:
        for proc in procs:
            if proc.poll() is not None:
                print(f"a child process exited with {proc.returncode}; stopping", flush=True)
                code = proc.returncode or 1
                stopping = True
        time.sleep(0.2)
    for proc in procs:
        if proc.poll() is None:
            proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
    if embedded is not None:
        import redis

        # The server closes the connection as it exits.
        with contextlib.suppress(redis.ConnectionError):
            embedded.shutdown(save=True)
    print("stopped", flush=True)
    return code


def cmd_worker(args: argparse.Namespace) -> int:
    from donkeypost.bootstrap import bootstrap, rq_worker
    from workers.runner import setup_logging

    queues = [q.strip() for q in args.queues.split(",") if q.strip()]
    unknown = sorted(set(queues) - set(QUEUES))
    if unknown or not queues:
        print(f"unknown queue(s) {unknown}: use some of {','.join(QUEUES)}", file=sys.stderr)
        return 2
    settings = _settings(needs_redis=True)
    if settings is None:
        return 2
    setup_logging(settings.log_level)
    worker = rq_worker(bootstrap(settings), queues)
    worker.work(burst=args.burst, with_scheduler=True, logging_level=settings.log_level)
    return 0


def openapi_document() -> str:
    """The OpenAPI document of the application (built on a Redis it never reaches)."""
    from domain.service import NoHooks
    from donkeypost.bootstrap import bootstrap, web_app

    app = web_app(bootstrap(Settings(redis_url="redis://localhost:0/0"), hooks=NoHooks()))
    with app.app_context():
        spec = app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    return json.dumps(spec, indent=2, sort_keys=True) + "\n"


def cmd_openapi(args: argparse.Namespace) -> int:
    document = openapi_document()
    if args.check:
        current = args.output.read_text() if args.output.exists() else ""
        if current != document:
            print(f"{args.output} is out of date: run `donkeypost openapi`", file=sys.stderr)
            return 1
        print(f"{args.output} is up to date")
        return 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(document)
    print(f"wrote {args.output}")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    from domain.verify import verify_log

    problems = verify_log(args.log.read_bytes().splitlines())
    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f"{args.log}: hash chain, seed commitment and replay check out")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
