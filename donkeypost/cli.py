"""The `donkeypost` command: serve, web, worker, gc, openapi, verify, calibrate (and more as
the project grows).

Each command that runs the service reads the settings once (`donkeypost.settings`) and
wires its process with the composition root (`donkeypost.bootstrap`): `worker` runs one RQ
worker; `web` becomes the HTTP server `WEB_SERVER` names on `donkeypost.wsgi:app` (the
Procfile's web process); `serve` (`donkeypost.serve`) supervises the embedded Redis unless
`REDIS_URL` is set, that web server and the workers, as separate processes.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from domain.archive.reading import ArchivedGames
from domain.registry import GameLoadError, installed
from donkeypost import logs
from donkeypost.embedded_redis import APPENDFSYNC_CHOICES
from donkeypost.settings import Settings, SettingsError
from donkeypost.web_servers import WEB_SERVERS
from workers.hooks import QUEUES

if TYPE_CHECKING:
    from donkeypost.bootstrap import Components

OPENAPI_PATH = Path(__file__).resolve().parent.parent / "openapi" / "openapi.json"
OWN_DISTRIBUTION = "donkeypost"  # whose games the committed OpenAPI document holds
Command = Callable[[argparse.Namespace], int]


def _web_options(parser: argparse.ArgumentParser) -> None:
    """The options of the HTTP server, the same for `serve` and `web`."""
    parser.add_argument("--host", help="default: HOST, else 127.0.0.1")
    parser.add_argument("--port", type=int, help="default: PORT, else 8000")
    parser.add_argument("--web-workers", type=int, default=2)
    parser.add_argument("--web-connections", type=int,
                        help="connections held at once per web worker: each event stream "
                             "or long-poll holds one (default: WEB_CONNECTIONS, else 2000)")
    parser.add_argument("--web-server", choices=WEB_SERVERS,
                        help="the HTTP server (default: WEB_SERVER, else gunicorn)")


# Tools that run from a checkout, not from the installed package.
CHECKOUT_TOOLS = {"bench": "python -m bench", "arena": "python -m bench.arena"}


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in CHECKOUT_TOOLS:
        print(f"the {argv[0]} runs from a checkout of the source, at its root: "
              f"{CHECKOUT_TOOLS[argv[0]]} {' '.join(argv[1:])}".rstrip(), file=sys.stderr)
        return 2
    parser = argparse.ArgumentParser(prog="donkeypost", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    commands: dict[str, Command] = {}

    serve = sub.add_parser("serve", help="run the web server and the workers, restarted if "
                                         "they die (embedded Redis unless REDIS_URL is set)")
    _web_options(serve)
    serve.add_argument("--data", help="folder of the embedded Redis's data, AOF on "
                                      "(default: DONKEYPOST_DATA, else ./data)")
    serve.add_argument("--appendfsync", choices=APPENDFSYNC_CHOICES,
                       help="when the embedded Redis flushes its append-only file to disk "
                            "(default: DONKEYPOST_APPENDFSYNC, else everysec; see the README)")
    serve.add_argument("--bot-workers", type=int,
                       help="bot and deadline workers (default: DONKEYPOST_BOT_WORKERS, "
                            "else one per core)")
    serve.add_argument("--reuse-port", action="store_true",
                       help="share the port with servers already listening on it (SO_REUSEPORT) "
                            "instead of refusing to start")
    commands["serve"] = cmd_serve

    web = sub.add_parser("web", help="run the HTTP server alone, in this process (the "
                                     "Procfile's web process; REDIS_URL must be set)")
    _web_options(web)
    commands["web"] = cmd_web

    worker = sub.add_parser("worker", help="run one RQ worker (bot turns, deadlines)")
    worker.add_argument("--burst", action="store_true", help="stop when the queues are empty")
    worker.add_argument("--queues", default=",".join(QUEUES),
                        help=f"comma-separated, of {','.join(QUEUES)} (default: all)")
    commands["worker"] = cmd_worker

    gc = sub.add_parser("gc", help="delete the games nobody started in time (the workers "
                                   "also do it at every sweep)")
    gc.add_argument("--all", action="store_true",
                    help="sweep again until nothing is left (default: one bounded sweep)")
    commands["gc"] = cmd_gc

    export = sub.add_parser("export", help="write everything the service needs to go on "
                                           "(games, players, the service's keys) to a backup "
                                           "file (docs/archive.md); progress on stderr")
    export.add_argument("--output", "-o", default="-",
                        help="the file to write (default: stdout)")
    export.add_argument("--since", type=_when,
                        help="only the games changed since then (a Unix time, or an ISO "
                             "date/time in UTC: 2026-11-27 or 2026-11-27T12:00); players "
                             "and the service's keys are always written whole")
    commands["export"] = cmd_export

    load = sub.add_parser("import", help="load a backup file into the store: the games and "
                                         "players it does not hold, the service's keys it "
                                         "lacks (nothing is duplicated or overwritten)")
    load.add_argument("input", help="the backup file (- for stdin)")
    commands["import"] = cmd_import

    archive = sub.add_parser("archive", help="note every game that is over and not archived "
                                             "as due for its archive (the workers archive "
                                             "them); --now archives them here")
    archive.add_argument("--now", action="store_true",
                         help="archive them in this process, with progress on stderr")
    archive.add_argument("--refused", action="store_true",
                         help="list the games whose archive was refused, and why")
    commands["archive"] = cmd_archive

    spec = sub.add_parser("openapi", help="write (or --check) openapi/openapi.json")
    spec.add_argument("--check", action="store_true", help="fail if the file is out of date")
    spec.add_argument("--output", type=Path, default=OPENAPI_PATH)
    spec.add_argument("--all-games", action="store_true",
                      help="with every installed game, as this installation serves it "
                           "(default: the project's own games, as committed)")
    commands["openapi"] = cmd_openapi

    verify = sub.add_parser("verify", help="check an exported NDJSON log: hash chain; after "
                                           "the end also the seed, every private part "
                                           "against its commitment, and the replay")
    verify.add_argument("log", type=Path)
    commands["verify"] = cmd_verify

    from donkeypost import admin, calibrate
    commands["calibrate"] = calibrate.register(sub)
    commands["admin"] = admin.register(sub)

    args = parser.parse_args(argv)
    try:
        return commands[args.command](args)
    except GameLoadError as err:  # a game that cannot be loaded: one line, no traceback
        print(f"donkeypost: {err}", file=sys.stderr)
        return 2


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
    from donkeypost.serve import options_from, serve

    settings = _settings()
    if settings is None:
        return 2
    installed()  # a game that cannot be loaded stops here, in one line, before any child
    code = serve(settings, options_from(
        settings, host=args.host, port=args.port, web_workers=args.web_workers,
        web_connections=args.web_connections, bot_workers=args.bot_workers, data=args.data,
        appendfsync=args.appendfsync, reuse_port=args.reuse_port,
        web_server=args.web_server))
    # Every child has stopped and said so: the interpreter's teardown of the modules the
    # settings loaded would only add half a second to Ctrl-C on a busy machine.
    _exit_now(code)


def cmd_web(args: argparse.Namespace) -> int:
    from donkeypost.web_servers import missing, web_command

    settings = _settings(needs_redis=True)
    if settings is None:
        return 2
    installed()  # a game that cannot be loaded stops here, in one line
    server = args.web_server or settings.web_server
    unavailable = missing(server)
    if unavailable:
        print(f"donkeypost: {unavailable}", file=sys.stderr)
        return 2
    argv = web_command(server, args.host or settings.host, args.port or settings.port,
                       args.web_workers, args.web_connections or settings.web_connections)
    sys.stdout.flush()
    # The server takes this process's place: the platform's signals reach it directly.
    os.execv(argv[0], argv)


def cmd_worker(args: argparse.Namespace) -> int:
    from donkeypost.bootstrap import bootstrap, rq_worker
    from workers.runner import setup_logging, work_through_outages

    queues = [q.strip() for q in args.queues.split(",") if q.strip()]
    unknown = sorted(set(queues) - set(QUEUES))
    if unknown or not queues:
        print(f"unknown queue(s) {unknown}: use some of {','.join(QUEUES)}", file=sys.stderr)
        return 2
    settings = _settings(needs_redis=True)
    if settings is None:
        return 2
    logs.configure(settings.log_level, settings.log_format, "worker")
    setup_logging(settings.log_level)  # (the handler above, with RQ's outage lines quieter)
    components = bootstrap(settings)
    if args.burst:
        rq_worker(components, queues).work(burst=True, logging_level=settings.log_level)
    else:
        # A Redis outage ends a worker's loop: the process waits and starts a new one.
        work_through_outages(lambda watch: rq_worker(components, queues, watch),
                             logging_level=settings.log_level)
        # Stopped on request, its teardown done: skip the interpreter's (see cmd_serve).
        _exit_now(0)
    return 0


def cmd_gc(args: argparse.Namespace) -> int:
    import time

    from domain.service import NoHooks
    from domain.service.retention import sweep_unstarted
    from donkeypost.bootstrap import bootstrap

    settings = _settings(needs_redis=True)
    if settings is None:
        return 2
    components = bootstrap(settings, hooks=NoHooks())
    policy = settings.retention
    total = 0
    while True:
        swept = sweep_unstarted(components.service.store, components.webhook_store, policy,
                                time.time(), components.service.players)
        total += swept.deleted
        print(f"looked at {swept.looked_at} games listed as open for more than "
              f"{policy.unstarted_ttl_s:g} s: {swept.deleted} deleted, {swept.relisted} "
              f"relisted (they had started), {swept.raced} changed meanwhile", flush=True)
        if not args.all or swept.looked_at < policy.batch or swept.deleted == 0:
            break
    print(f"{total} games deleted")
    return 0


def _when(raw: str) -> float:
    """A time for `--since`: Unix seconds, or an ISO date or date-time (UTC unless it
    says otherwise)."""
    from datetime import UTC, datetime

    try:
        return float(raw)
    except ValueError:
        pass
    try:
        moment = datetime.fromisoformat(raw)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a time: {raw!r}") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


class _Progress:
    """`what: n/total` on stderr, at most every second and at the end."""

    def __init__(self, what: str) -> None:
        import time

        self.what = what
        self.clock = time.monotonic
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        if now - self.last >= 1.0 or (total and done == total):
            self.last = now
            of = f"/{total}" if total else ""
            print(f"{self.what}: {done}{of} games", file=sys.stderr, flush=True)


def _archived_games(settings: Settings) -> tuple[ArchivedGames, Components]:
    from domain.service import NoHooks
    from donkeypost.bootstrap import bootstrap

    components = bootstrap(settings, hooks=NoHooks())
    reading = components.service.store
    assert isinstance(reading, ArchivedGames)
    return reading, components


def cmd_export(args: argparse.Namespace) -> int:
    from domain.archive.backup import export
    from domain.store.redis_backup import RedisBackup

    settings = _settings(needs_redis=True)
    if settings is None:
        return 2
    reading, components = _archived_games(settings)
    keyed = RedisBackup(components.store_redis)
    progress = _Progress("exported")
    if args.output == "-":
        written = export(reading, sys.stdout.buffer, args.since, progress, keyed)
        sys.stdout.buffer.flush()
    else:
        with open(args.output, "wb") as out:
            written = export(reading, out, args.since, progress, keyed)
    print(f"{written.games} games written, {written.players} players, {written.service} of "
          "the service's keys", file=sys.stderr)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from domain.archive.backup import BackupError, load
    from domain.store.redis_backup import RedisBackup

    settings = _settings(needs_redis=True)
    if settings is None:
        return 2
    reading, components = _archived_games(settings)
    games = components.service.games
    keyed = RedisBackup(components.store_redis)
    try:
        if args.input == "-":
            loaded = load(reading, sys.stdin.buffer, games, _Progress("read"), keyed)
        else:
            with open(args.input, "rb") as lines:
                loaded = load(reading, lines, games, _Progress("read"), keyed)
    except (BackupError, OSError) as err:
        print(f"donkeypost import: {err}", file=sys.stderr)
        return 1
    print(f"{loaded.games} games loaded, {loaded.present} already in the store (left as "
          f"they were); {loaded.players} players loaded, {loaded.players_present} already "
          f"there; {loaded.service_added} entries added to the service's keys",
          file=sys.stderr)
    if loaded.names_taken:
        print(f"{loaded.names_taken} players' names are held by another player here: "
              "they sign in with their keys, but are not found by their names",
              file=sys.stderr)
    return 0


def cmd_archive(args: argparse.Namespace) -> int:
    import time

    from domain.archive.archiving import OVER, archive_game

    settings = _settings(needs_redis=True)
    if settings is None:
        return 2
    reading, components = _archived_games(settings)
    archives = components.archives
    if args.refused:
        for game_id, why in sorted(archives.refused_archives().items()):
            print(f"{game_id}\t{why}")
        return 0
    noted = 0
    for status in OVER:
        for game_id in reading.scan_ids(status):
            if archives.archived(game_id) is None:
                archives.archive_due(game_id, 0.0)
                noted += 1
    print(f"{noted} games over and not archived noted as due", file=sys.stderr)
    if not args.now:
        return 0
    due = archives.due_archives(time.time(), 10**9)
    outcomes: dict[str, int] = {}
    progress = _Progress("archived")
    for n, game_id in enumerate(due, 1):
        outcome = archive_game(archives, components.service.games, game_id,
                               settings.read_copies)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        progress(n, len(due))
    print(", ".join(f"{k}: {v}" for k, v in sorted(outcomes.items())) or "nothing to do",
          file=sys.stderr)
    return 0


def _exit_now(code: int) -> NoReturn:
    """Exit without the interpreter's teardown, once the output is out."""
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def openapi_document(all_games: bool = False) -> str:
    """The OpenAPI document of the application (built on a Redis it never reaches) with
    the project's own games, or with every installed game (`all_games`: what this
    installation serves at /openapi.json)."""
    from domain.service import NoHooks
    from donkeypost.bootstrap import bootstrap, web_app

    games = installed() if all_games else installed(distributions=[OWN_DISTRIBUTION])
    app = web_app(bootstrap(Settings(redis_url="redis://localhost:0/0"), hooks=NoHooks(),
                            games=games))
    with app.app_context():
        spec = app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    return json.dumps(spec, indent=2, sort_keys=True) + "\n"


def cmd_openapi(args: argparse.Namespace) -> int:
    document = openapi_document(all_games=args.all_games)
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
    from domain.verify import check_log

    report = check_log(args.log.read_bytes().splitlines(), installed())
    for problem in report.problems:
        print(problem, file=sys.stderr)
    if not report.problems:
        print(f"{args.log} checks out:")
        for checked in report.checked:
            print(f"- {checked}")
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
