"""The request lines as production writes them (JSON), sent to /dev/null for a timed run.

The logger is given back as it was afterwards: a benchmark run inside the test suite must
not leave `donkeypost.requests` cut off from the handlers the tests read it with.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager

from donkeypost.logs import JsonFormatter, RequestIdFilter


@contextmanager
def request_lines_to_nowhere() -> Iterator[logging.Logger]:
    """`donkeypost.requests` formatted in JSON into /dev/null for the block's length."""
    lines = logging.getLogger("donkeypost.requests")
    before = (list(lines.handlers), lines.level, lines.propagate)
    with open(os.devnull, "w") as sink:
        handler = logging.StreamHandler(sink)
        handler.setFormatter(JsonFormatter("web"))
        handler.addFilter(RequestIdFilter())
        lines.handlers[:] = [handler]
        lines.setLevel(logging.INFO)
        lines.propagate = False
        try:
            yield lines
        finally:
            lines.handlers[:], level, lines.propagate = before
            lines.setLevel(level)
