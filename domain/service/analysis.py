"""A finished game's analysis (`domain.bots.analysis`): read it, and make it (the analysis
job's command).

One analysis per game: the job makes it from the whole log (the game is over, every part
is revealed) and the store keeps the first one made (`EventStore.keep_analysis`), so a job
that runs twice, or two at once, leaves one. Asking before the end is refused: the
analysis reads hands that were hidden until then.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable

import msgspec

from domain.bots.analysis import AnalysisBudget, analyse
from domain.errors import GameNotFinished
from domain.service.deps import Deps
from domain.service.loading import load

READ_CHUNK = 1000


def analysis(deps: Deps, game_id: str) -> bytes | None:
    """The game's analysis (JSON) once made, else None; GameNotFinished before the end
    (UnknownGame for no such game)."""
    table, _ = load(deps, game_id)
    if table.status != "finished":
        raise GameNotFinished("a game is analysed once it is over: its hands are hidden "
                              "until then", code="game_not_finished")
    return deps.store.analysis(game_id)


def analyse_game(deps: Deps, game_id: str, budget: AnalysisBudget,
                 on_progress: Callable[[int, int], None] | None = None) -> str:
    """Make and keep the analysis of finished game `game_id`: "analysed", "already" (one
    was kept before, or meanwhile) or "not_finished"."""
    table, _ = load(deps, game_id)
    if table.status != "finished":
        return "not_finished"
    if deps.store.analysis(game_id) is not None:
        return "already"
    events = []
    while True:
        chunk = deps.store.read(game_id, after=events[-1].seq if events else 0,
                                count=READ_CHUNK)
        if not chunk:
            break
        events += chunk
    game = deps.games.game(table.type)
    # The samples' randomness: any, but the same for a game, so a rerun says the same.
    document = analyse(game, events, budget, random.Random(game_id), time.process_time,
                       on_progress)
    document = {"game": game_id, "type": table.type, "version": table.version,
                "budget": dataclasses.asdict(budget), **document}
    kept = deps.store.keep_analysis(game_id, msgspec.json.encode(document))
    return "analysed" if kept else "already"
