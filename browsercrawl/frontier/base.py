"""The frontier's data types and the interface a persistent queue implements.

The SQL frontier (a table of the crawl database, SQLite or PostgreSQL, written in the same
transaction as the pages) is the default; the Redis frontier, shared by workers on several
machines, implements the same interface and records completions right after the store commits.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from browsercrawl.storage.base import PageTx


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


class SeenSet(Protocol):
    """URLs the frontier already holds (a Bloom filter may answer; it never forgets one)."""

    def __contains__(self, url: object) -> bool: ...

    def add(self, url: str) -> None: ...


class Frontier(Protocol):
    """A persistent, deduplicated queue of URLs with per-host claiming."""

    seen: SeenSet

    async def prepare(self, seeds: list[NewUrl]) -> None:
        """Return interrupted in-flight URLs to the queue and add the seeds (idempotent)."""

    async def claim(self, host: str, limit: int, now: float) -> list[Request]:
        """Mark up to ``limit`` queued URLs of ``host`` in flight and return them, best first."""

    async def hosts_with_work(self, now: float) -> dict[str, float]:
        """Hosts that have queued URLs, with the earliest time one of them may be fetched."""

    async def unclaim(self, requests: list[Request]) -> None:
        """Put claimed requests that were never fetched back in the queue."""

    async def add(self, urls: list[NewUrl]) -> set[str]:
        """Queue URLs outside a page's transaction (known ones are ignored); the hosts that gained work."""

    async def counts(self) -> dict[str, int]:
        """Number of URLs per state."""

    def record(self, tx: PageTx, new_urls: list[NewUrl], completions: list[Completion]) -> set[str] | None:
        """Inside the store's transaction: queue new URLs and mark requests finished; the hosts
        that gained URLs. None when this frontier records after the commit instead (:meth:`settle`)."""

    def requeue(self, tx: PageTx, urls: list[NewUrl]) -> set[str] | None:
        """Inside the store's transaction: queue again URLs fetched already (their stored pages
        are to be replaced, e.g. built from JSON by a recipe a check found wrong); the hosts that
        gained URLs. None when this frontier queues them after the commit instead (:meth:`settle`)."""

    async def settle(self, new_urls: list[NewUrl], completions: list[Completion]) -> set[str]:
        """After the store committed a batch: what :meth:`record` did not do (see there)."""
