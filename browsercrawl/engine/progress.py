"""Progress output: a rich bar on a terminal, plain periodic lines otherwise (CI, pipes, --quiet)."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn


@dataclass
class CrawlCounters:
    started: float = field(default_factory=time.monotonic)
    pages: int = 0
    failed: int = 0
    retried: int = 0
    skipped: int = 0
    queued: int = 0

    def rate(self) -> float:
        elapsed = time.monotonic() - self.started
        return self.pages / elapsed if elapsed > 0 else 0.0


class ProgressReporter:
    """Shows counters while the crawl runs; never writes to stdout (stdout carries the summary)."""

    def __init__(self, counters: CrawlCounters, quiet: bool, interval: float = 5.0) -> None:
        self.c = counters
        self._console = Console(stderr=True)
        self._rich = not quiet and sys.stderr.isatty()
        self._quiet = quiet
        self._interval = interval
        self._last = 0.0
        self._progress: Progress | None = None
        self._task = None

    def start(self) -> None:
        if self._rich:
            self._progress = Progress(
                TextColumn("[bold]crawling"),
                BarColumn(),
                TextColumn("{task.description}"),
                TimeElapsedColumn(),
                console=self._console,
                transient=True,
            )
            self._progress.start()
            self._task = self._progress.add_task("", total=None)

    def _line(self) -> str:
        c = self.c
        return (
            f"pages={c.pages} queued={c.queued} failed={c.failed} retried={c.retried} "
            f"skipped={c.skipped} pages/s={c.rate():.1f}"
        )

    def update(self) -> None:
        if self._progress is not None:
            self._progress.update(self._task, description=self._line())
            return
        now = time.monotonic()
        if not self._quiet and now - self._last >= self._interval:
            self._last = now
            print(f"browsercrawl: {self._line()}", file=sys.stderr, flush=True)

    def stop(self) -> None:
        if self._progress is not None:
            self._progress.stop()
