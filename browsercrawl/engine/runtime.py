"""The browser runtime: one Chromium for a command, its context factory, its tabs, its fetcher.

``crawl``, ``induce``, ``recrawl`` and ``discover`` all render through one of these, so a page
looks the same to each of them: same launch flags, same contexts (logged in when a session part
supplies the factory), same hooks, same snapshot.

In ``auto`` mode the runtime is *on demand* (``on_demand=True``): Chromium is launched only when a
page has to be rendered (or a session has to log in), and closed again as soon as nothing wants it
(``wanted``, the router's say) and no render is in flight, so a crawl whose pages need no browser
pays neither its CPU nor its memory. Its cookies and local storage survive the close: the HTTP
path reads the parked cookies, a plain context of the next browser starts from the parked
storage, and a session's contexts hand their state to the session part (its context factory,
given the context it replaces) before they close.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from types import TracebackType

from playwright.async_api import Browser, BrowserContext
from playwright.async_api import Error as PlaywrightError

from browsercrawl.config import JobConfig
from browsercrawl.engine.browser import BLOCKED_BY_SETTINGS, LaunchOptions, open_browser
from browsercrawl.engine.browser_fetcher import BrowserFetcher
from browsercrawl.engine.hooks import PageHook
from browsercrawl.engine.navigation import NavigationCheck, NavigationGuard
from browsercrawl.engine.result import FetchResult
from browsercrawl.engine.tabs import CDP_BLOCK_TYPES, ContextFactory, TabPool, user_agent_context
from browsercrawl.frontier.base import Request
from browsercrawl.frontier.scope import Scope, origin

log = logging.getLogger(__name__)


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


def intercepted_types(job: JobConfig, stops: bool) -> frozenset[str]:
    """The CDP resource types a tab's interception fails. Interception costs the same whatever it
    matches (navigation.py), so once a tab has it, to stop navigations or for a type no browser
    setting blocks (media), it fails every blocked type; otherwise the settings block images and
    fonts (``browser.launch_args_for``) and nothing is intercepted."""
    kinds = [t for t in job.rendering.block if t in CDP_BLOCK_TYPES]
    if stops or any(t not in BLOCKED_BY_SETTINGS for t in kinds):
        return frozenset(CDP_BLOCK_TYPES[t] for t in kinds)
    return frozenset()


class BrowserRuntime:
    """Use as ``async with BrowserRuntime(...) as runtime:``; everything closes on the way out.

    It is also a fetcher (``fetch``) for the dispatcher: on demand, that is what launches it.
    """

    via = "browser"

    def __init__(
        self,
        job: JobConfig,
        launch: LaunchOptions,
        *,
        hooks: Sequence[PageHook] = (),
        context_factory: ContextFactory | None = None,
        tabs: int | None = None,
        on_demand: bool = False,
    ) -> None:
        self.job = job
        self.launch = launch
        self.hooks = list(hooks)
        self.plain_contexts = context_factory is None
        self.context_factory = context_factory or user_agent_context(
            job.rendering.user_agent, lambda: self._parked_state)
        self.tabs = tabs or job.politeness.concurrency
        self.on_demand = on_demand
        # Whether anything still wants the browser (auto mode: the router); unwanted and idle, an
        # on-demand browser closes.
        self.wanted: Callable[[], bool] = lambda: True
        self.on_close: list[Callable[[], None]] = []  # told when an on-demand close parked cookies
        self.launches = 0
        self.closes = 0
        self._stack: contextlib.AsyncExitStack | None = None
        self._browser_stack: contextlib.AsyncExitStack | None = None
        self._browser: Browser | None = None
        self._pool: TabPool | None = None
        self._fetcher: BrowserFetcher | None = None
        self._lock = asyncio.Lock()
        self._busy = 0  # renders (and cookie reads) using the browser right now
        self._parked_cookies: list[dict] | None = None  # the closed browser's cookies
        self._parked_state: dict | None = None  # ... and its storage (plain contexts)

    async def __aenter__(self) -> BrowserRuntime:
        stack = contextlib.AsyncExitStack()
        try:
            scope = self.job.scope
            # With mode "any" and no ip_ranges nothing can leave the scope: no check at all.
            check = scope_check(self.job) if scope.mode != "any" or scope.ip_ranges else None
            stops = check is not None and scope.stop_navigations
            trusted = Scope(scope, self.job.seeds).seed_origin_prefixes() if stops else []
            blocked = intercepted_types(self.job, stops)
            guard = (NavigationGuard(check, blocked, trusted, stop=scope.stop_navigations)
                     if check is not None or blocked else None)
            self._pool = TabPool(None, self.job.rendering, self.tabs, self.hooks, self.context_factory, guard)
            self._fetcher = BrowserFetcher(self._pool, self.job.rendering, self.hooks)
            stack.push_async_callback(self._close_browser)
            if not self.on_demand:
                await self._launch()
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

    # -- the browser, launched and closed on demand ------------------------------------------
    @property
    def is_open(self) -> bool:
        return self._browser is not None

    async def _launch(self) -> None:
        stack = contextlib.AsyncExitStack()
        try:
            self._browser = await stack.enter_async_context(open_browser(self.launch))
        except BaseException:
            await stack.aclose()
            raise
        self._browser_stack = stack
        assert self._pool is not None
        self._pool.browser = self._browser
        self.launches += 1

    async def _close_browser(self, park: bool = False) -> None:
        """Close every context and Chromium; ``park``: keep their cookies and storage for later."""
        if self._browser is None or self._pool is None:
            return
        browser, pool = self._browser, self._pool
        contexts = pool.current_contexts()
        if park and contexts:
            with contextlib.suppress(PlaywrightError):
                self._parked_cookies = await pool.cookies()
                if self.plain_contexts:
                    self._parked_state = await contexts[0].storage_state()
                else:
                    # The factory, given the context it replaces, keeps that context's state (the
                    # session part stores it in the account's slot); the new context is not needed.
                    for ctx in contexts:
                        replacement = await self.context_factory(browser, ctx)
                        await replacement.close()
        await pool.close()
        pool.browser = None
        self._browser = None
        stack, self._browser_stack = self._browser_stack, None
        if stack is not None:
            await stack.aclose()
        self.closes += 1

    @contextlib.asynccontextmanager
    async def in_use(self) -> AsyncIterator[BrowserRuntime]:
        """Hold the browser open (launching it if it is closed) for the duration of the block."""
        self._busy += 1
        try:
            # Locked: a launch or a close is under way (a closing browser still looks open).
            if self._browser is None or self._lock.locked():
                async with self._lock:
                    if self._browser is None:
                        await self._launch()
            yield self
        finally:
            self._busy -= 1

    async def close_if_unwanted(self) -> None:
        """On demand: close the browser when nothing wants it and nothing is using it."""
        if not self.on_demand or self._browser is None or self._busy or self.wanted():
            return
        async with self._lock:
            if self._browser is not None and not self._busy and not self.wanted():
                log.debug("no URL shape needs the browser: closing it")
                await self._close_browser(park=True)
                for told in self.on_close:
                    told()

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
        """The browser fetcher (its counters and learned waits outlive an on-demand close)."""
        assert self._fetcher is not None, "the runtime is not started"
        return self._fetcher

    async def fetch(
        self, request: Request, *, trace_dir: Path | None = None, settle: bool = False
    ) -> FetchResult:
        """Render a page, launching the browser first if it is closed (then close it if unwanted)."""
        try:
            async with self.in_use():
                return await self.fetcher.fetch(request, trace_dir=trace_dir, settle=settle)
        finally:
            await self.close_if_unwanted()

    async def new_context(self, previous: BrowserContext | None = None) -> BrowserContext:
        """A context like the crawl's (logged in when a session part supplies the factory)."""
        return await self.pool.new_context(previous)

    async def cookies(self) -> list[dict]:
        """The current context's cookies, for the HTTP path.

        A closed on-demand browser answers with the cookies it had when it closed; one that never
        ran is launched for a session's contexts (they log in), and has none otherwise.
        """
        if self._browser is None and (self._parked_cookies is not None or self.plain_contexts):
            return list(self._parked_cookies or [])
        try:
            async with self.in_use():
                return await self.pool.cookies()
        finally:
            await self.close_if_unwanted()
