"""The frontier's data types and the interface a persistent queue implements.

The SQLite frontier (one file per crawl, same transaction as the pages) is the default; a Redis
frontier for crawls that span machines implements the same interface.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Protocol


@dataclass(slots=True)
class Request:
    """One URL to fetch, as the frontier hands it to the engine."""

    url: str
    host: str
    depth: int = 0
    priority: float = 0.0
    parent: str | None = None
    kind: str | None = None
    attempts: int = 0
    id: int | None = None


@dataclass(slots=True)
class NewUrl:
    """A URL discovered on a page, already canonical and in scope."""

    url: str
    host: str
    depth: int
    priority: float
    parent: str | None
    kind: str | None = None


@dataclass(slots=True)
class Completion:
    """How a claimed request ended; written in the same transaction as its page."""

    request: Request
    state: str  # 'done' | 'failed' | 'retry' | 'skipped'
    error: str | None = None
    not_before: float = 0.0
    finished_at: float = field(default_factory=time.time)


class Frontier(Protocol):
    """A persistent, deduplicated queue of URLs with per-host claiming."""

    async def prepare(self, seeds: list[NewUrl]) -> None:
        """Return interrupted in-flight URLs to the queue and add the seeds (idempotent)."""

    async def claim(self, host: str, limit: int, now: float) -> list[Request]:
        """Mark up to ``limit`` queued URLs of ``host`` in flight and return them, best first."""

    async def hosts_with_work(self, now: float) -> dict[str, float]:
        """Hosts that have queued URLs, with the earliest time one of them may be fetched."""

    async def counts(self) -> dict[str, int]:
        """Number of URLs per state."""
