"""The log of a donkeypost process: plain lines, or JSON lines (`LOG_FORMAT=json`).

Every line written while a request is answered carries its id (`X-Request-ID`, see
`api.observe`), and the line each request leaves (`donkeypost.requests`) its route
template, status, duration and game. A JSON line is one object:

    {"time": "2026-11-30T10:00:00.123Z", "level": "INFO", "process": "web",
     "logger": "donkeypost.requests", "message": "POST /games/{game_id}/actions 200 2.1 ms",
     "request_id": "…", "method": "POST", "route": "/games/{game_id}/actions",
     "status": 200, "duration_ms": 2.104, "game_id": "…"}

plus `exception` (the traceback) when there is one. What goes in is chosen where a line is
written: a route's template, never its URL (a stream's ticket is in a query) and never a
header (tokens and keys are in `Authorization`).
"""

from __future__ import annotations

import json
import logging
import sys
import time
from collections.abc import Sequence
from typing import Literal

from api.observe import current

LogFormat = Literal["text", "json"]
LOG_FORMATS: tuple[LogFormat, ...] = ("text", "json")
# The request's fields a record may carry (`extra=`), in the order a JSON line gives them.
FIELDS = ("request_id", "method", "route", "status", "duration_ms", "game_id")


class RequestIdFilter(logging.Filter):
    """Gives each record the id of the request being answered (None outside one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "request_id", None) is None:
            info = current.get()
            record.request_id = info.request_id if info is not None else None
        return True


class JsonFormatter(logging.Formatter):
    def __init__(self, process: str) -> None:
        super().__init__()
        self.process = process

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": _utc(record.created), "level": record.levelname,
            "process": self.process, "logger": record.name,
            "message": record.getMessage()}
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    def __init__(self, process: str) -> None:
        super().__init__(f"%(asctime)s {process} %(levelname)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        rid = getattr(record, "request_id", None)
        return f"{text} [request {rid}]" if rid else text


def _utc(created: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(created)) + \
        f".{int(created % 1 * 1000):03d}Z"


def configure(level: str, fmt: LogFormat, process: str,
              filters: Sequence[logging.Filter] = ()) -> None:
    """The root logger of this process: `level`, one handler on stderr in `fmt`, the
    request's id on every record, and `filters`. (Called once, when the process starts.)"""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter(process) if fmt == "json" else TextFormatter(process))
    handler.addFilter(RequestIdFilter())
    for extra in filters:
        handler.addFilter(extra)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
