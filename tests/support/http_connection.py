"""A minimal HTTP/1.1 keep-alive client on asyncio: enough for JSON requests to our server,
and far cheaper per request than a general client (the benchmarks' load generator must
stay light; a test holding thousands of connections at once needs it too)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections.abc import Mapping


class HttpConnection:
    """A minimal HTTP/1.1 keep-alive connection: enough for JSON requests to our server,
    and far cheaper per request than a general client (the generator must stay light)."""

    # gunicorn closes a keep-alive connection idle for 2 s (its default): one idle nearly
    # that long (the other mode's turn) is replaced before it is used, not found closed.
    MAX_IDLE_S = 1.5

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.last_used = 0.0
        self.reconnects = 0

    async def connect(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        self.last_used = time.perf_counter()
        sock = self.writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(OSError):
                await self.writer.wait_closed()
        self.reader = self.writer = None

    async def request(self, method: str, path: str, body: bytes | None = None,
                      headers: Mapping[str, str] | None = None) -> tuple[int, bytes]:
        if self.writer is not None and time.perf_counter() - self.last_used > self.MAX_IDLE_S:
            await self.close()
            self.reconnects += 1
        if self.writer is None:
            await self.connect()
        assert self.reader is not None and self.writer is not None
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        lines.extend(f"{k}: {v}" for k, v in (headers or {}).items())
        if body is not None:
            lines.append("Content-Type: application/json")
            lines.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b""))
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        length: int | None = None
        chunked = close = False
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"transfer-encoding":
                chunked = b"chunked" in value.lower()
            elif name == b"connection":
                close = b"close" in value.lower()
        if chunked:
            data = await self._read_chunked()
        elif length is not None:
            data = await self.reader.readexactly(length)
        elif status in (204, 304):
            data = b""
        else:
            data = await self.reader.read()
            close = True
        self.last_used = time.perf_counter()
        if close:
            await self.close()
        return status, data

    async def _read_chunked(self) -> bytes:
        assert self.reader is not None
        parts: list[bytes] = []
        while True:
            size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
            if size == 0:
                await self.reader.readuntil(b"\r\n")
                return b"".join(parts)
            parts.append(await self.reader.readexactly(size))
            await self.reader.readexactly(2)
