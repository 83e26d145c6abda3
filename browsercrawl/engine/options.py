"""What the command line adds to a job file for one run."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass
class CrawlOptions:
    """Command-line choices that override or add to the job file."""

    headed: bool = False
    slow_mo_ms: float | None = None
    trace_dir: Path | None = None
    max_pages: int | None = None
    fresh: bool = False
    quiet: bool = False
    pause_on_error: bool = False  # with headed: a failing login stops with its browser tab open
