"""Progress on long work: one line per step, with a bar, a count and the time spent."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)


class Step:
    def __init__(self, progress: Progress, task: TaskID) -> None:
        self._progress = progress
        self._task = task

    def advance(self, n: int = 1) -> None:
        self._progress.advance(self._task, n)

    def describe(self, text: str) -> None:
        self._progress.update(self._task, description=text)


class Steps:
    """The steps of a run; `quiet` shows nothing (tests, scripts)."""

    def __init__(self, console: Console, quiet: bool = False) -> None:
        self._progress = Progress(TextColumn("[bold]{task.description}"), BarColumn(),
                                  MofNCompleteColumn(), TimeElapsedColumn(), console=console,
                                  disable=quiet)

    def __enter__(self) -> Steps:
        self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._progress.stop()

    @contextmanager
    def step(self, description: str, total: int) -> Iterator[Step]:
        task = self._progress.add_task(description, total=total)
        yield Step(self._progress, task)
        self._progress.update(task, completed=total)
