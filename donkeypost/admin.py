"""`donkeypost admin …`: an operator's commands, each with `--dry-run` (says what it would do,
changes nothing), each action written to the audit stream (`donkeypost:audit`: what, on
what, by whom, why, when).

    donkeypost admin games [--status S] [--type T] [--limit N]   list games, newest first
    donkeypost admin game ID                                    one game: table, seats, chat
    donkeypost admin players [--limit N]                        list players
    donkeypost admin player ID|NAME                             one player: record, games
    donkeypost admin delete-game ID --why W                     the game, its keys everywhere
    donkeypost admin revoke-keys PLAYER --why W                 their key stops working
    donkeypost admin suspend PLAYER --why W [--lift]            refused on create, join, act
                                                                and chat; seats to bots
    donkeypost admin erase PLAYER --why W                       as DELETE /players/me
    donkeypost admin audit [--limit N]                          the audit stream, newest first

`--by` names the operator (default: the user running the command). Output is JSON lines.
An id that starts with `-` goes after `--` (`donkeypost admin game -- -x3Fq…`).
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from domain.errors import DomainError
from domain.players.credentials import is_player_id
from domain.service import NoHooks
from domain.service.erasure import Erased, hand_seats_to_bots
from domain.service.loading import read_latest
from domain.service.players import SUSPENDED, find_by_name, revoke_keys, suspend
from domain.store import keys
from domain.store.redis_erasure import RedisErasure
from domain.table import STATUSES

Command = Callable[[argparse.Namespace], int]


def register(sub: argparse._SubParsersAction) -> Command:
    admin = sub.add_parser("admin", help="an operator's commands (list, inspect, delete a "
                                         "game, revoke, suspend, erase a player; audited)")
    verbs = admin.add_subparsers(dest="verb", required=True)

    games = verbs.add_parser("games", help="list games, newest first")
    games.add_argument("--status", choices=STATUSES)
    games.add_argument("--type")
    games.add_argument("--limit", type=int, default=50)
    verbs.add_parser("game", help="one game").add_argument("game_id")
    players = verbs.add_parser("players", help="list players")
    players.add_argument("--limit", type=int, default=50)
    verbs.add_parser("player", help="one player (by id or name)").add_argument("player")
    audit = verbs.add_parser("audit", help="the audit stream, newest first")
    audit.add_argument("--limit", type=int, default=50)
    for verb, target, what in (
            ("delete-game", "game_id", "delete a game: its keys, listings and streams"),
            ("revoke-keys", "player", "the player's key stops working (a new one is printed)"),
            ("suspend", "player", "refuse the player's key (player_suspended); their seats "
                                  "in games being played go to the basic bot"),
            ("erase", "player", "erase the player, as DELETE /players/me")):
        acting = verbs.add_parser(verb, help=what)
        acting.add_argument(target)
        acting.add_argument("--why", required=True, help="written to the audit stream")
        acting.add_argument("--by", default=_operator(), help="the operator (default: %(default)s)")
        acting.add_argument("--dry-run", action="store_true",
                            help="say what would be done, change nothing")
        if verb == "suspend":
            acting.add_argument("--lift", action="store_true", help="lift a suspension")
    return run


def _operator() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "operator"


def run(args: argparse.Namespace) -> int:
    from donkeypost.bootstrap import bootstrap
    from donkeypost.settings import Settings, SettingsError

    try:
        settings = Settings.from_env()
        settings.store_url  # noqa: B018 - raises SettingsError when unset
    except SettingsError as err:
        print(err, file=sys.stderr)
        return 2
    admin = Admin(bootstrap(settings, hooks=NoHooks()))
    try:
        result = getattr(admin, args.verb.replace("-", "_"))(args)
    except DomainError as err:
        print(json.dumps({"error": err.code, "message": err.message}), file=sys.stderr)
        return 1
    for line in result if isinstance(result, list) else [result]:
        print(json.dumps(line, ensure_ascii=False, default=str))
    return 0


class Admin:
    def __init__(self, components: Any) -> None:
        self.c = components
        self.deps = components.service.deps
        self.redis = components.store_redis
        self.erasure = RedisErasure(self.redis)

    # --- reading -----------------------------------------------------------------------
    def games(self, args: argparse.Namespace) -> list[dict[str, Any]]:
        ids, total = self.deps.store.list_ids(args.status, args.type, 0, args.limit)
        return [self._summary(g) for g in ids] + [{"listed": len(ids), "total": total}]

    def game(self, args: argparse.Namespace) -> dict[str, Any]:
        summary = self._summary(args.game_id)
        summary["chat_entries"] = self.deps.store.chat_version(args.game_id)
        return summary

    def _summary(self, game_id: str) -> dict[str, Any]:
        try:
            table, _, _ = read_latest(self.deps, game_id, None, with_seed=False)
        except DomainError as err:
            return {"id": game_id, "error": err.code}
        return {"id": game_id, "type": table.type, "status": table.status,
                "version": table.version, "created_at": table.created_at,
                "updated_at": table.updated_at, "created_by": table.created_by,
                "seats": [{"seat": i, "name": s.name, "player": s.player, "kind": s.kind,
                           "taken": s.taken, "in_play": s.in_play}
                          for i, s in enumerate(table.seats)]}

    def players(self, args: argparse.Namespace) -> list[dict[str, Any]]:
        ids = []
        for _name, player_id in self.redis.hscan_iter(keys.PLAYER_NAMES, count=500):
            ids.append(player_id.decode())
            if len(ids) >= args.limit:
                break
        return [self._player(p) for p in ids]

    def player(self, args: argparse.Namespace) -> dict[str, Any]:
        return self._player(self._player_id(args.player))

    def _player(self, player_id: str) -> dict[str, Any]:
        found = self.deps.players.with_key_hash(player_id)
        if found is None:
            return {"id": player_id, "error": "unknown_player"}
        player, key_hash = found
        return {"id": player.id, "name": player.name, "created_at": player.created_at,
                "bot": player.bot, "suspended": key_hash.startswith(SUSPENDED),
                "games": len(self.erasure.games_of(player.id))}

    def _player_id(self, given: str) -> str:
        if is_player_id(given) and self.deps.players.player(given) is not None:
            return given
        return find_by_name(self.deps, given).id

    def audit(self, args: argparse.Namespace) -> list[dict[str, Any]]:
        return [{"id": i.decode(), **{k.decode(): v.decode() for k, v in f.items()}}
                for i, f in self.redis.xrevrange(keys.AUDIT, count=args.limit)]

    # --- acting (audited) ----------------------------------------------------------------
    def _audit(self, args: argparse.Namespace, action: str, target: str,
               result: dict[str, Any]) -> dict[str, Any]:
        entry = {"action": action, "target": target, "by": args.by, "why": args.why,
                 "at": repr(time.time())}
        if args.dry_run:
            return {**result, "dry_run": True, "would_audit": entry}
        self.redis.xadd(keys.AUDIT, entry)
        return {**result, "audited": entry}

    def delete_game(self, args: argparse.Namespace) -> dict[str, Any]:
        found = self.erasure.game_keys(args.game_id)
        summary = self._summary(args.game_id)
        if not found and "error" in summary:
            return {"id": args.game_id, "error": "unknown_game"}
        players = [s["player"] for s in summary.get("seats", []) if s["player"]]
        if not args.dry_run:
            self.erasure.delete_game(args.game_id, found, summary.get("type"), players)
            self.deps.store.unlist(args.game_id, summary.get("type"))
            for reg in self.c.webhook_store.registrations(args.game_id):
                self.c.webhook_store.remove(args.game_id, reg.id)
        return self._audit(args, "delete-game", args.game_id,
                           {"id": args.game_id, "keys": len(found), "players": players})

    def revoke_keys(self, args: argparse.Namespace) -> dict[str, Any]:
        player_id = self._player_id(args.player)
        result: dict[str, Any] = {"player": player_id}
        if not args.dry_run:
            result["new_key"] = revoke_keys(self.deps, player_id)
        return self._audit(args, "revoke-keys", player_id, result)

    def suspend(self, args: argparse.Namespace) -> dict[str, Any]:
        player_id = self._player_id(args.player)
        games = self.erasure.games_of(player_id)
        handed: list[tuple[str, int]] = []
        changed = True
        if not args.dry_run:
            changed = suspend(self.deps, player_id, not args.lift)
        if not args.lift:
            handed = hand_seats_to_bots(self.deps, games, player_id, args.dry_run)
        return self._audit(args, "lift-suspension" if args.lift else "suspend", player_id,
                           {"player": player_id, "changed": changed,
                            "seats_handed_to_bots": handed})

    def erase(self, args: argparse.Namespace) -> dict[str, Any]:
        player_id = self._player_id(args.player)
        report = self.erase_now(player_id, args.dry_run)
        return self._audit(args, "erase", player_id, {
            "player": player_id, "games": len(report.games),
            "seats_handed_to_bots": report.seats_handed_to_bots})

    def erase_now(self, player_id: str, dry_run: bool = False) -> Erased:
        from donkeypost.bootstrap import eraser

        return eraser(self.c)(player_id, dry_run)

