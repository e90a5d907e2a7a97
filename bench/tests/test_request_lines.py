"""A benchmark that silences the request lines gives the logger back as it found it."""

from __future__ import annotations

import logging

from bench.request_lines import request_lines_to_nowhere


def test_the_request_lines_are_given_back_after_a_run() -> None:
    lines = logging.getLogger("donkeypost.requests")
    before = (list(lines.handlers), lines.level, lines.propagate)
    with request_lines_to_nowhere() as silenced:
        assert silenced is lines and not lines.propagate
        assert lines.isEnabledFor(logging.INFO)
        silenced.info("POST /games/{game_id}/actions 200 1.0 ms")
    assert (list(lines.handlers), lines.level, lines.propagate) == before
