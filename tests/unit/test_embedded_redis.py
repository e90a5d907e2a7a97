"""The embedded Redis's configuration: the chosen fsync, the AOF as the one copy, every file
in the data folder (the socket too, unless its path would be too long)."""

from __future__ import annotations

import pytest

from donkeypost.embedded_redis import MAX_SOCKET_PATH, EmbeddedRedis


def settings_of(config: str) -> dict[str, str]:
    pairs = (line.split(" ", 1) for line in config.splitlines() if line and line[0] != "#")
    return dict(pairs)


@pytest.mark.parametrize("appendfsync", ["always", "everysec"])
def test_the_aof_is_on_with_the_chosen_fsync_and_no_rdb_snapshots(tmp_path, appendfsync):
    config = settings_of(EmbeddedRedis(tmp_path, appendfsync).config())
    assert config["appendonly"] == "yes" and config["appendfsync"] == appendfsync
    assert config["save"] == '""'
    assert config["auto-aof-rewrite-percentage"] == "100"
    assert config["daemonize"] == "no" and config["port"] == "0"
    assert config["dir"] == f'"{tmp_path}"'
    assert config["unixsocket"] == f'"{tmp_path / "redis.sock"}"'
    assert config["logfile"] == f'"{tmp_path / "redis.log"}"'


def test_another_fsync_is_refused(tmp_path):
    with pytest.raises(ValueError, match="appendfsync"):
        EmbeddedRedis(tmp_path, "no")  # type: ignore[arg-type]


def test_a_socket_path_too_long_for_unix_goes_to_the_temporary_folder(tmp_path):
    deep = tmp_path / ("d" * MAX_SOCKET_PATH)
    server = EmbeddedRedis(deep)
    assert len(str(server.socket_path)) <= MAX_SOCKET_PATH
    assert server.socket_path != EmbeddedRedis(tmp_path / ("e" * MAX_SOCKET_PATH)).socket_path
    assert server.url == f"unix://{server.socket_path}"
