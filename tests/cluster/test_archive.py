"""The archive on a Redis Cluster of three masters: archiving, reading, restoring for a
rematch, the export and import, the memory report — every script and command legal there
(one game's keys in its slot), every answer the one given before archiving."""

from __future__ import annotations

import io

import msgspec

import domain.store.keys as keys
from domain.archive.archiving import archive_game
from domain.archive.backup import export, load
from domain.archive.reading import ArchivedGames
from domain.service import NoHooks
from domain.store.redis_backup import RedisBackup
from donkeypost.bootstrap import bootstrap
from tests.archive_kit import play


def view(service, game_id: str) -> bytes:
    """The spectator's view, but for the server's time."""
    return msgspec.json.encode({**service.view(service.load(game_id)[0], None),
                                "server_time": 0})


def test_games_archive_read_restore_and_back_up_on_a_cluster(cluster_settings, cluster_client):
    components = bootstrap(cluster_settings, hooks=NoHooks())
    service = components.service
    games = [play(service, "ochs-und-esel", 3, {"rounds": 1}, seed=n, people=1)[0]
             for n in range(6)]
    logs = {t.id: [msgspec.json.encode(e) for e in service.store.read(t.id)] for t in games}
    views = {t.id: view(service, t.id) for t in games}
    for table in games:
        assert archive_game(components.archives, service.games, table.id) == "archived"
        assert cluster_client.exists(keys.events(table.id)) == 0
    fresh = bootstrap(cluster_settings, hooks=NoHooks())
    reading = fresh.service.store
    assert isinstance(reading, ArchivedGames)
    for table in games:
        assert [msgspec.json.encode(e) for e in reading.read(table.id)] == logs[table.id]
        assert view(fresh.service, table.id) == views[table.id]
    assert len(reading.snapshots([t.id for t in games])) == len(games)
    rematch = fresh.service.rematch(games[0].id, 0)  # restores the archived game first
    assert rematch.created and cluster_client.exists(keys.events(games[0].id)) == 1
    used, _limit = components.archives.used_memory()
    assert used > 0
    player, key = fresh.service.register_player("ann")
    table, _ = fresh.service.load(games[1].id)
    fresh.service.post_message(table, 0, "good game")
    chat = fresh.service.messages(games[1].id, 0, 10)
    keyed = RedisBackup(cluster_client)
    backup = io.BytesIO()
    written = export(reading, backup, keyed=keyed)
    assert written.games == len(games) + 1 and written.players == 1 and written.service
    cluster_client.flushall()
    loaded = load(reading, backup.getvalue().splitlines(), fresh.service.games, keyed=keyed)
    assert loaded.games == len(games) + 1 and loaded.players == 1
    assert fresh.service.authenticate(key).id == player.id
    assert fresh.service.messages(games[1].id, 0, 10) == chat
    again = bootstrap(cluster_settings, hooks=NoHooks())
    for table in games[1:]:
        assert [msgspec.json.encode(e) for e in again.service.store.read(table.id)] == \
            logs[table.id]
