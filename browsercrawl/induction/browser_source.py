"""A :class:`~browsercrawl.induction.precrawl.PageSource` over the crawl's own browser fetcher.

The pre-crawl must see pages exactly as the supervised crawl will: rendered by the same
:class:`BrowserFetcher` with the same hooks and browser contexts (so logged in once a session part
supplies them), within the job's scope and robots.txt, at the job's per-host pace. A URL the crawl
would never fetch (out of scope, disallowed) fails here like a 404, which the pre-crawl records
instead of fetching it; such URLs are still counted on the pages linking to them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable

from browsercrawl.engine.browser_fetcher import BrowserFetcher
from browsercrawl.engine.result import FetchError
from browsercrawl.frontier.base import Request
from browsercrawl.frontier.robots import RobotsCache
from browsercrawl.frontier.scope import Scope
from browsercrawl.frontier.urls import canonical_url, host_key
from browsercrawl.induction.precrawl import FetchedPage


class NotFetched(Exception):
    """The crawl would not fetch this URL (scope, robots, a hook refused the page)."""


class BrowserPageSource:
    """Fetches pre-crawl pages in the browser; keeps the pages named in ``keep`` for reuse.

    ``keep`` holds the sample target URLs: ``induce`` fetches them again for the wrapper after the
    pre-crawl, and a browser render is the expensive part, so their first fetch is remembered.
    """

    def __init__(
        self,
        fetcher: BrowserFetcher,
        scope: Scope,
        robots: RobotsCache | None = None,
        *,
        delay_seconds: float = 0.0,
        retries: int = 2,
        keep: Iterable[str] = (),
    ) -> None:
        self.fetcher = fetcher
        self.scope = scope
        self.robots = robots
        self.delay = delay_seconds
        self.retries = retries
        self._keep = {canonical_url(u) for u in keep}
        self._kept: dict[str, FetchedPage] = {}
        self._next_at: dict[str, float] = {}
        self._host_locks: dict[str, asyncio.Lock] = {}
        self.fetched = 0

    async def _pace(self, host: str) -> None:
        """Keep ``delay_seconds`` between requests to one host, like the crawl's scheduler."""
        if self.delay <= 0:
            return
        lock = self._host_locks.setdefault(host, asyncio.Lock())
        async with lock:
            wait = self._next_at.get(host, 0.0) - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self._next_at[host] = time.monotonic() + self.delay

    async def fetch(self, url: str) -> FetchedPage:
        canon = canonical_url(url)
        if canon in self._kept:
            return self._kept[canon]
        if not self.scope.allows(canon, 0):
            raise NotFetched("outside the job's scope")
        if self.robots is not None and not await self.robots.allowed(canon):
            raise NotFetched("disallowed by robots.txt")
        host = host_key(canon)
        attempt = 0
        while True:
            await self._pace(host)
            try:
                result = await self.fetcher.fetch(Request(url=canon, host=host, attempts=attempt))
                break
            except FetchError as exc:
                if not exc.retryable or attempt >= self.retries:
                    raise
                attempt += 1
                await asyncio.sleep(min(exc.retry_after or 2.0**attempt, 30.0))
        if not result.store:
            raise NotFetched(f"a page hook refused the page ({result.title or 'no title'})")
        self.fetched += 1
        final = result.final_url or canon
        page = FetchedPage(canon, final, result.html or "", result.text or "", result.links)
        if canon in self._keep:
            self._kept[canon] = page
        return page
