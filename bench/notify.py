"""The notifications, end to end: from a move's acknowledgement to the e-mail at an SMTP
server and to the push at a push service, for many players.

    python -m bench.notify                                   # 10,000 players, 1,000 moves
    python -m bench.notify --players 600 --moves 100         # a quick look

`--players` players (each with a confirmed address, one Web Push subscription, e-mail and
push on, a digest window of `--digest-hours`) sit in `--games-per-player` three-seat Ochs
& Esel games each (no deadlines: nothing but the moves happens). Then one move is made in
each of `--moves` games, `--rate` a second, in this process (the service, as the web
process calls it: its acknowledgement is when `act` returns), and each makes its next
seat's player due. One notifier (`donkeypost worker --queues notifications`, a process of
its own, as in production; `--notifiers N`: N of them, sharing the due players) sends;
the SMTP server (aiosmtpd) and the push service stand-in (which checks the VAPID JWT and
decrypts every payload) run on loopback in this process and note when each message
arrived.

Reported: the time from a move's acknowledgement to its player's e-mail and push (p50,
p99, max; an e-mail only for the first move that reached a player in the window: the
others wait for the window, by design), the e-mails each reached player got in the
window (goal: exactly one), the notifier's CPU per message sent, and, before the notifier
has anything to do, a move's CPU in this thread with and without the player's stream
(`2 × --moves` other games, one with and one without in turn, so that the machine's
drift hits both alike).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec

from api.rate_limits import RateLimits
from bench.stats import percentile
from domain.notify.digest import NotifyState
from domain.notify.links import address_digest
from domain.notify.prefs import Preferences
from domain.notify.records import PushSubscription
from domain.service import NoHooks
from domain.service import create as creating
from domain.service import inbox as inbox_service
from domain.table import to_act
from domain.webhooks.targets import TargetPolicy
from donkeypost.bootstrap import bootstrap
from donkeypost.settings import Settings
from tests.support.redis_process import RedisProcess

GAME = "ochs-und-esel"
SEATS = 3


def _cpu_s(pid: int) -> float:
    """A process's user + system CPU seconds (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _ms(values: list[float]) -> dict[str, float]:
    return {"n": len(values), "p50": round(percentile(values, 50), 1),
            "p99": round(percentile(values, 99), 1),
            "max": round(max(values), 1) if values else float("nan")}


def run(players: int, games_per_player: int, moves: int, rate: float,
        digest_hours: int, seed: int = 7, notifiers: int = 1) -> dict[str, Any]:
    # The stand-ins are the tests' own (a checkout runs this benchmark).
    from tests.support.push_service import push_service
    from tests.support.smtp import smtp_server

    rng = random.Random(seed)
    folder = Path(tempfile.mkdtemp(prefix="donkeypost-notify-bench-"))
    out: dict[str, Any] = {"players": players, "games_per_player": games_per_player,
                           "moves": moves, "rate_per_s": rate, "digest_hours": digest_hours,
                           "notifiers": notifiers}
    with RedisProcess(folder) as redis_server, smtp_server() as (smtp_url, box), \
            push_service() as pusher:
        targets = TargetPolicy.allowing("127.0.0.0/8", "1024-65535")
        settings = Settings(redis_url=redis_server.server.url, smtp_url=smtp_url,
                            rate_limits=RateLimits.off(), health_workers=(),
                            webhook_targets=targets, public_url="http://play.test")
        components = bootstrap(settings, hooks=NoHooks())
        service, store = components.service, components.notifications.store
        started = time.perf_counter()
        people = [service.register_player(f"P{n}")[0] for n in range(players)]
        out["setup_players_s"] = round(time.perf_counter() - started, 1)
        # Seats round-robin over a shuffled order: every player in `games_per_player` games.
        order = [p for _ in range(games_per_player) for p in people]
        rng.shuffle(order)
        tables = []
        started = time.perf_counter()
        for n in range(0, len(order) - SEATS + 1, SEATS):
            seated = order[n:n + SEATS]
            if len({p.id for p in seated}) < SEATS:
                continue
            tables.append(creating.create(
                service.deps, GAME, {"rounds": 1, "first_player": 0},
                [{"kind": "human", "player": p} for p in seated], deadline_s=None))
        out["games"] = len(tables)
        out["setup_games_s"] = round(time.perf_counter() - started, 1)
        # A move's CPU with and without the player's stream, while nothing else runs (before
        # anyone's preferences: what these moves note is passed over below).
        rng.shuffle(tables)
        game = service.games.game(GAME)
        out.update(_cpu_ab(service, game, tables[:2 * moves]))
        # Everyone: e-mail and push, a confirmed address, a subscription; from now on.
        started = time.perf_counter()
        prefs = Preferences(channels=("email", "push"), kinds=("my_turn",),
                            digest_hours=digest_hours)
        address: dict[str, str] = {}
        endpoint_of: dict[str, str] = {}
        for n, p in enumerate(people):
            address[f"p{n}@example.org"] = p.id
            last = service.players.last_player_event(p.id)
            store.save_prefs(p.id, prefs, NotifyState(push_after=last, email_after=last))
            store.set_address(p.id, f"p{n}@example.org")
            store.confirm_address(p.id, address_digest(f"p{n}@example.org"))
            sub = pusher.subscribe(p.id).as_json()
            endpoint_of[f"/push/{p.id}"] = p.id
            store.subscribe(p.id, PushSubscription(
                id=f"push_{n}", endpoint=sub["endpoint"], p256dh=sub["keys"]["p256dh"],
                auth=sub["keys"]["auth"], created_at=time.time()), 10)
        components.store_redis.delete("notify:due")
        out["setup_notify_s"] = round(time.perf_counter() - started, 1)

        env = {**os.environ, "REDIS_URL": redis_server.server.url, "SMTP_URL": smtp_url,
               "PUBLIC_URL": "http://play.test", "WEBHOOK_ALLOWED_NETWORKS": "127.0.0.0/8",
               "WEBHOOK_ALLOWED_PORTS": "1024-65535", "DONKEYPOST_SWEEP_S": "3600",
               "DONKEYPOST_LOG_LEVEL": "WARNING"}
        procs = [subprocess.Popen([sys.executable, "-m", "donkeypost.cli", "worker",
                                   "--queues", "notifications"], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                 for _ in range(notifiers)]
        try:
            time.sleep(3.0)  # started, its rebuild done, idle
            out.update(_moves(service, game, tables[2 * moves:3 * moves], moves, rate, box,
                              pusher, address, endpoint_of, [p.pid for p in procs]))
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                proc.wait(timeout=30)
    return out


def _move(service: Any, game: Any, table: Any) -> tuple[float, Any, float]:
    """One legal move of the seat to act: when it was acknowledged, the table after it and
    the CPU this thread spent on it (the stand-ins run in other threads)."""
    seat = min(to_act(table, game))
    action = msgspec.to_builtins(game.legal_actions(table.game, seat)[0])
    cpu = time.thread_time()
    after = service.act(table.id, seat, action).table
    return time.time(), after, time.thread_time() - cpu


def _cpu_ab(service: Any, game: Any, tables: list[Any]) -> dict[str, Any]:
    """A move's CPU with the player's stream (its notes and moves written with the inbox)
    and without (the notes switched off), one game each in turn."""
    on: list[float] = []
    off: list[float] = []
    real = (inbox_service.notes.after_append, inbox_service.notes.movers)
    for n, table in enumerate(tables):
        if n % 2:
            inbox_service.notes.after_append = lambda *a: []  # type: ignore[assignment]
            inbox_service.notes.movers = lambda *a: []  # type: ignore[assignment]
        try:
            (off if n % 2 else on).append(_move(service, game, table)[2] * 1000)
        finally:
            inbox_service.notes.after_append, inbox_service.notes.movers = real
    return {"move_cpu_ms_with_stream": _ms(on), "move_cpu_ms_without": _ms(off),
            "move_cpu_ms_mean_with_without": [round(sum(on) / len(on), 3),
                                              round(sum(off) / len(off), 3)]}


def _moves(service: Any, game: Any, told: list[Any], moves: int, rate: float, box: Any,
           pusher: Any, address: dict[str, str], endpoint_of: dict[str, str],
           notifier_pids: list[int]) -> dict[str, Any]:
    acks: list[tuple[str, str, float]] = []  # (player told, game, acknowledged at)
    cpu_before = sum(_cpu_s(pid) for pid in notifier_pids)
    started = time.monotonic()
    for n, table in enumerate(told):
        wait = started + n / rate - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        at, after, _cpu = _move(service, game, table)
        for seat in sorted(to_act(after, game)):
            player = after.seats[seat].player
            if player is not None:
                acks.append((player, after.id, at))
    moved_s = time.monotonic() - started
    reached = {player for player, _g, _a in acks}
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        mailed = {address[r.to[0]] for r in box.received if r.to[0] in address}
        pushed = {(endpoint_of.get(p.path), (p.payload or {}).get("game"))
                  for p in pusher.pushes}
        if reached <= mailed and all((p, g) in pushed for p, g, _a in acks):
            break
        time.sleep(0.2)
    time.sleep(2.0)  # anything sent twice would come now
    cpu_used = sum(_cpu_s(pid) for pid in notifier_pids) - cpu_before
    # Latencies: each push against its move; each player's e-mail against the first move
    # that reached them (the window holds the others, by design).
    push_at = {(endpoint_of.get(p.path), (p.payload or {}).get("game")): p.at
               for p in pusher.pushes}
    push_ms = [(push_at[(p, g)] - a) * 1000 for p, g, a in acks if (p, g) in push_at]
    first_ack: dict[str, float] = {}
    for player, _g, at in acks:
        first_ack.setdefault(player, at)
    mail_at: dict[str, float] = {}
    for r in box.received:
        mail_at.setdefault(address[r.to[0]], r.at)
    mail_ms = [(mail_at[p] - a) * 1000 for p, a in first_ack.items() if p in mail_at]
    per_player = Counter(address[r.to[0]] for r in box.received)
    undecrypted = sum(1 for p in pusher.pushes if p.payload is None or p.claims is None)
    sent = len(box.received) + len(pusher.pushes)
    return {
        "moved_s": round(moved_s, 1), "players_reached": len(reached),
        "push_ms": _ms(push_ms), "email_ms": _ms(mail_ms),
        "pushes_sent": len(pusher.pushes), "pushes_not_checked": undecrypted,
        "emails_sent": len(box.received),
        "emails_per_reached_player": dict(sorted(Counter(
            per_player.get(p, 0) for p in reached).items())),
        "notifier_cpu_s": round(cpu_used, 2),
        "notifier_cpu_ms_per_message": round(cpu_used * 1000 / sent, 3) if sent else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="notifications end to end")
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--games-per-player", type=int, default=5)
    parser.add_argument("--moves", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=50.0, help="moves a second")
    parser.add_argument("--digest-hours", type=int, default=1)
    parser.add_argument("--notifiers", type=int, default=1,
                        help="notifier processes (donkeypost worker --queues notifications)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    result = run(args.players, args.games_per_player, args.moves, args.rate,
                 args.digest_hours, notifiers=args.notifiers)
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
