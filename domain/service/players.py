"""The players' commands: register, check a key, rotate it, read a profile."""

from __future__ import annotations

from typing import Any

from domain.errors import BadCredentials, BadName, NameTaken, NotAllowed, UnknownPlayer
from domain.players.credentials import (
    is_player_id,
    new_player_id,
    new_player_key,
    player_of,
)
from domain.players.names import clean_name, name_key
from domain.players.records import Player
from domain.ratings.standing import Standing
from domain.service.deps import Deps
from domain.service.tokens import hash_token, matches


def register(deps: Deps, name: str, bot: bool = False) -> tuple[Player, str]:
    """A new player and their key (shown this once: only its hash is kept); `bot`: a bot
    account."""
    shown = clean_name(name)
    player = Player(id=new_player_id(), name=shown, created_at=deps.clock(), bot=bot)
    key = new_player_key(player.id)
    if not deps.players.add(player, name_key(shown), hash_token(key)):
        raise NameTaken(f"the name {shown!r} is taken (names are the same whatever their "
                        "case or Unicode form)")
    return player, key


def authenticate(deps: Deps, key: str) -> Player:
    """The player whose current key this is (one read), or BadCredentials."""
    player_id = player_of(key)
    return checked(deps, deps.players.with_key_hash(player_id) if player_id else None, key)


# A suspended player's key hash is kept behind this mark: their key is refused with its own
# code (`player_suspended`), and works again once the mark is gone (`suspend`).
SUSPENDED = "suspended:"


def checked(deps: Deps, found: tuple[Player, str] | None, key: str) -> Player:
    """The player read with their key hash, if `key` is their current key."""
    if found is not None and found[1].startswith(SUSPENDED) and \
            matches(found[1][len(SUSPENDED):], key):
        raise NotAllowed("this player is suspended by the service's operator: they may not "
                         "create, join, play or chat", code="player_suspended")
    if found is None or not matches(found[1], key):
        raise BadCredentials("this player key is not valid (unknown, or replaced by a newer "
                             "one)")
    deps.remembered.player_keys.put(found[1], found[0].id)
    return found[0]


def suspend(deps: Deps, player_id: str, suspended: bool) -> bool:
    """Suspend a player (their key refused with `player_suspended`), or lift it; False if
    it already was so."""
    found = deps.players.with_key_hash(player_id)
    if found is None:
        raise UnknownPlayer(f"no player {player_id!r}")
    current = found[1]
    if current.startswith(SUSPENDED) == suspended:
        return False
    new = SUSPENDED + current if suspended else current[len(SUSPENDED):]
    return deps.players.set_key_hash(player_id, new)


def revoke_keys(deps: Deps, player_id: str) -> str:
    """A new key for the player, the one before refused at once (an operator hands the new
    one over, or keeps it: the player has no key then)."""
    if deps.players.player(player_id) is None:
        raise UnknownPlayer(f"no player {player_id!r}")
    key = new_player_key(player_id)
    if not deps.players.set_key_hash(player_id, hash_token(key)):
        raise UnknownPlayer(f"no player {player_id!r}")
    return key


def known_key(deps: Deps, key: str) -> bool:
    """Was `key` found valid by this process? (Not a guess; it may have been rotated.)"""
    return deps.remembered.player_keys.get(hash_token(key)) is not None


def rotate_key(deps: Deps, player: Player) -> str:
    """A new key for the player; the one before stops working at once."""
    key = new_player_key(player.id)
    if not deps.players.set_key_hash(player.id, hash_token(key)):
        raise UnknownPlayer(f"no player {player.id!r}")
    return key


def find_by_name(deps: Deps, name: str) -> Player:
    """The player called `name` (whatever its case or Unicode form)."""
    try:
        player_id = deps.players.named(name_key(clean_name(name)))
    except BadName:
        player_id = None  # nobody can be called that
    player = deps.players.player(player_id) if player_id is not None else None
    if player is None:
        raise UnknownPlayer(f"no player named {name!r}")
    return player


def profile(deps: Deps, player_id: str) -> dict[str, Any]:
    """The public profile: name, since when, and per game type the games played and won
    and the rating."""
    player = deps.players.player(player_id) if is_player_id(player_id) else None
    if player is None:
        raise UnknownPlayer(f"no player {player_id!r}")
    return {"id": player.id, "name": player.name, "created_at": player.created_at,
            "bot": player.bot, "games": [standing_view(game_type, s)
                      for game_type, s in deps.ratings.all_standings(player.id).items()]}


def standing_view(game_type: str, standing: Standing) -> dict[str, Any]:
    return {"type": game_type, "played": standing.games, "won": standing.wins,
            "rating": standing.rating, "deviation": standing.deviation,
            "provisional": standing.provisional}
