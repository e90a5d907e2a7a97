"""A real SMTP server for the tests (aiosmtpd on loopback) that keeps what it receives,
parsed: the MIME as a mail client would read it."""

from __future__ import annotations

import asyncio
import email
import email.policy
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller


@dataclass
class Received:
    to: list[str]
    message: EmailMessage
    at: float  # time.time() when the server had it


@dataclass
class Mailbox:
    # Each recipient takes this long to accept (a slow server), before the message is
    # sent: a client that dies meanwhile has sent nothing.
    delay_s: float = 0.0
    received: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any,
                          address: str, options: list[str]) -> str:
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.lock:
            self.received.append(Received(list(envelope.rcpt_tos), message, time.time()))
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        with self.lock:
            return [r.message for r in self.received if address in r.to]

    def wait_for(self, count: int, timeout_s: float = 10.0) -> list[Received]:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.received) >= count:
                    return list(self.received)
            time.sleep(0.02)
        with self.lock:
            return list(self.received)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def smtp_server(delay_s: float = 0.0) -> Iterator[tuple[str, Mailbox]]:
    """An SMTP server on loopback; yields its `SMTP_URL` and its mailbox."""
    box = Mailbox(delay_s=delay_s)
    port = free_port()  # (port=0 fails: the controller checks it started by connecting)
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield f"smtp://127.0.0.1:{port}", box
    finally:
        controller.stop()


def text_of(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


def html_of(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("html",))
    assert part is not None
    return str(part.get_content())
