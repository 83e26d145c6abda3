"""Which fetcher serves a page: the job's rendering mode, and in ``auto`` the router's verdict.

Both fetchers implement one interface (``fetch(request, trace_dir=None) -> FetchResult``) and run
the hooks themselves, so a page's rows are the same whichever path fetched it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from browsercrawl.engine.failures import NeedsHttp
from browsercrawl.engine.http_fetcher import HttpFetcher
from browsercrawl.engine.result import FetchError, FetchResult
from browsercrawl.engine.router import AdaptiveRouter, same_content
from browsercrawl.frontier.base import Request

if TYPE_CHECKING:
    from browsercrawl.engine.api_shortcut import ApiShortcut


class Fetcher(Protocol):
    """A way to fetch one page; its hooks have run on the result it returns."""

    via: str

    async def fetch(
        self, request: Request, *, trace_dir: Path | None = None, settle: bool = False
    ) -> FetchResult: ...


async def _discard(task: asyncio.Task | None) -> None:
    """Cancel a speculative fetch whose result is not wanted, and swallow its outcome."""
    if task is not None:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


class Dispatcher:
    """Fetches each page in the browser, over HTTP, or (``router`` given) as the router decides.

    Without a browser every page goes over HTTP. A URL the browser would download instead of
    render (a file) is fetched over HTTP.
    """

    def __init__(
        self,
        http: HttpFetcher,
        browser: Fetcher | None,
        router: AdaptiveRouter | None = None,
        verdict_recorded: Callable[[], Awaitable[None]] | None = None,
        shortcut: ApiShortcut | None = None,
    ) -> None:
        self.http = http
        self.browser = browser
        self.router = router
        # Told after each rendered comparison's verdict (the on-demand browser may close then).
        self.verdict_recorded = verdict_recorded
        self.shortcut = shortcut  # auto mode: shapes the router renders may be built from JSON

    async def fetch(self, req: Request, *, trace_dir: Path | None = None) -> FetchResult:
        if self.browser is None:
            return await self.http.fetch(req)
        if self.router is not None:
            # While the shape's samples render, this page is fetched over HTTP speculatively;
            # the result is used (and its hooks run) only if the verdict lets HTTP serve it.
            early = asyncio.create_task(self.http.get(req)) if self.router.will_wait(req.url) else None
            try:
                choice = await self.router.choose(req.url)
            except BaseException:
                await _discard(early)
                raise
            if choice == "http":
                return await self.http.finish(req, await early) if early else await self.http.fetch(req)
            if choice == "compare":
                return await self._compare(req, trace_dir, early)
            await _discard(early)
            if self.shortcut is not None:
                try:
                    return await self.shortcut.fetch(req, trace_dir=trace_dir)
                except NeedsHttp:
                    return await self.http.fetch(req)
        try:
            return await self.browser.fetch(req, trace_dir=trace_dir)
        except NeedsHttp:
            return await self.http.fetch(req)

    async def _compare(
        self, req: Request, trace_dir: Path | None, early: asyncio.Task[FetchResult] | None
    ) -> FetchResult:
        """Fetch over HTTP and in the browser; learn whether this URL shape needs rendering."""
        assert self.router is not None and self.browser is not None
        try:
            http_result: FetchResult | None = await self.http.finish(
                req, await early if early is not None else await self.http.get(req)
            )
        except FetchError:
            http_result = None
        if http_result is not None and http_result.html is not None and http_result.scripted is False:
            self.router.record(req.url, True, rendered=False)  # nothing would run: it is the page
            if self.verdict_recorded is not None:
                await self.verdict_recorded()
            return http_result
        try:
            # Compared only once the page is done, whatever goto wait the job names: a snapshot
            # taken earlier looks like the HTTP shell and would pass a JavaScript shape as static.
            rendered = await self.browser.fetch(req, trace_dir=trace_dir, settle=True)
        except NeedsHttp:
            if http_result is None:
                self.router.abandon(req.url)
                raise
            self.router.record(req.url, True)
            return http_result
        except FetchError:
            self.router.abandon(req.url)
            raise
        if http_result is not None and http_result.html is not None and rendered.complete:
            static = same_content(
                http_result.text or "",
                {u for u, _ in http_result.links},
                rendered.text or "",
                {u for u, _ in rendered.links},
            )
            self.router.record(req.url, static)
        else:  # no HTTP version to compare, or a page never done: it needs the browser
            static = False
            self.router.record(req.url, False)
        if self.shortcut is not None:  # a rendered shape's comparisons are the shortcut's first samples
            await self.shortcut.observe(req, http_result, rendered, static)
        if self.verdict_recorded is not None:
            await self.verdict_recorded()
        return rendered
