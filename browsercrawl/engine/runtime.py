"""The browser runtime: one Chromium for a command, its context factory, its tabs, its fetcher.

``crawl``, ``induce``, ``recrawl`` and ``discover`` all render through one of these, so a page
looks the same to each of them: same launch flags, same contexts (logged in when a session part
supplies the factory), same hooks, same snapshot.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from types import TracebackType

from playwright.async_api import Browser, BrowserContext

from browsercrawl.config import JobConfig
from browsercrawl.engine.browser import LaunchOptions, open_browser
from browsercrawl.engine.browser_fetcher import BrowserFetcher
from browsercrawl.engine.hooks import PageHook
from browsercrawl.engine.navigation import NavigationCheck, NavigationGuard
from browsercrawl.engine.tabs import ContextFactory, TabPool, user_agent_context
from browsercrawl.frontier.scope import Scope, origin


def scope_check(job: JobConfig) -> NavigationCheck:
    """Why a navigation or redirect leaves the job's scope (None: it may go). The login page's
    server, and any URL ``[session.logged_out] url_regex`` matches, are always allowed: a lost
    session sends the tab there, and the session part must see it to log in again."""
    scope = Scope(job.scope, job.seeds)
    session = job.session
    login_origin = origin(session.login_url) if session is not None and session.login_url else None
    logged_out = session.logged_out.url_regex if session is not None else None
    logged_out_rx = re.compile(logged_out) if logged_out else None

    async def check(url: str) -> str | None:
        if login_origin is not None and origin(url) == login_origin:
            return None
        if logged_out_rx is not None and logged_out_rx.search(url):
            return None
        return await scope.navigation_refusal(url)

    return check


class BrowserRuntime:
    """Use as ``async with BrowserRuntime(...) as runtime:``; everything closes on the way out."""

    def __init__(
        self,
        job: JobConfig,
        launch: LaunchOptions,
        *,
        hooks: Sequence[PageHook] = (),
        context_factory: ContextFactory | None = None,
        tabs: int | None = None,
    ) -> None:
        self.job = job
        self.launch = launch
        self.hooks = list(hooks)
        self.context_factory = context_factory or user_agent_context(job.rendering.user_agent)
        self.plain_contexts = context_factory is None
        self.tabs = tabs or job.politeness.concurrency
        self._stack: contextlib.AsyncExitStack | None = None
        self._browser: Browser | None = None
        self._pool: TabPool | None = None
        self._fetcher: BrowserFetcher | None = None

    async def __aenter__(self) -> BrowserRuntime:
        stack = contextlib.AsyncExitStack()
        try:
            self._browser = await stack.enter_async_context(open_browser(self.launch))
            scope = self.job.scope
            # With mode "any" and no ip_ranges nothing can leave the scope: no interception at all.
            guard = NavigationGuard(scope_check(self.job)) if scope.mode != "any" or scope.ip_ranges else None
            self._pool = TabPool(self._browser, self.job.rendering, self.tabs, self.hooks,
                                 self.context_factory, guard)
            stack.push_async_callback(self._pool.close)
            self._fetcher = BrowserFetcher(self._pool, self.job.rendering, self.hooks)
        except BaseException:
            await stack.aclose()
            raise
        self._stack = stack
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        stack, self._stack = self._stack, None
        if stack is not None:
            await stack.aclose()
        self._browser = self._pool = self._fetcher = None

    @property
    def browser(self) -> Browser:
        assert self._browser is not None, "the runtime is not started"
        return self._browser

    @property
    def pool(self) -> TabPool:
        assert self._pool is not None, "the runtime is not started"
        return self._pool

    @property
    def fetcher(self) -> BrowserFetcher:
        assert self._fetcher is not None, "the runtime is not started"
        return self._fetcher

    async def new_context(self, previous: BrowserContext | None = None) -> BrowserContext:
        """A context like the crawl's (logged in when a session part supplies the factory)."""
        return await self.pool.new_context(previous)

    async def cookies(self) -> list[dict]:
        """The current context's cookies, for the HTTP path."""
        return await self.pool.cookies()
