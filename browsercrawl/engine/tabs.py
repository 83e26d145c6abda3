"""Long-lived tabs over a few recycled browser contexts.

Measured on this machine (docs/benchmarks.md), a new tab per URL doubles the CPU per page, so
tabs are reused ``uses_per_page`` times. Chromium frees a context's memory only when the context
closes, so contexts are retired after ``pages_per_context`` pages (their tabs finish first) and a
new one takes over, carrying the old one's state through the context factory. A busy headless
renderer gets no idle time for full garbage collections, so one is forced every
``gc_every_pages`` pages of a tab.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from playwright.async_api import Browser, BrowserContext, CDPSession, Page
from playwright.async_api import Error as PlaywrightError

from browsercrawl.config import RenderingConfig
from browsercrawl.engine.hooks import PageHook
from browsercrawl.engine.navigation import NavigationGuard

PAGE_WATCH_JS = resources.files("browsercrawl.engine").joinpath("page_watch.js").read_text("utf-8")
SNAPSHOT_JS = resources.files("browsercrawl.engine").joinpath("snapshot.js").read_text("utf-8")
# Every document of a tab gets page_watch.js and the snapshot function before its own scripts, so
# each page's snapshot is a short call (SNAPSHOT_CALL) instead of the function's 6.5 KB source sent
# through the driver and compiled again for every page.
TAB_INIT_JS = (
    PAGE_WATCH_JS
    + "\n;(() => {\n  if (window.__bcSnapshot) return;\n  const snapshot = (\n"
    + SNAPSHOT_JS
    + "\n  );\n  Object.defineProperty(window, '__bcSnapshot', {value: snapshot});\n})();\n"
)
# The snapshot through the installed function; None when the document has none (an error page,
# a document the init scripts did not reach): the fetcher then sends SNAPSHOT_JS itself.
SNAPSHOT_CALL = "(arg) => window.__bcSnapshot ? window.__bcSnapshot(arg) : null"

log = logging.getLogger(__name__)

# A browser context for the crawl, given the browser and the context it replaces (None at first);
# the session part's factory logs each context in as one of its accounts.
ContextFactory = Callable[[Browser, BrowserContext | None], Awaitable[BrowserContext]]

# The CDP resource types blocked through the Fetch domain (navigation.py), not a Playwright route:
# any route turns Chromium's HTTP cache off.
CDP_BLOCK_TYPES = {"image": "Image", "font": "Font", "media": "Media"}
# Types only a route can block (they cost the HTTP cache).
_ROUTE_ONLY = {"stylesheet", "script", "xhr", "fetch", "websocket"}


def user_agent_context(
    user_agent: str | None, parked: Callable[[], dict[str, Any] | None] | None = None
) -> ContextFactory:
    """The default factory: a fresh context, carrying over the replaced context's storage.

    ``parked`` gives the storage a closed browser's last context held (cookies and local storage
    kept when auto mode closes the browser), for the first context of the next browser.
    """

    async def factory(browser: Browser, previous: BrowserContext | None) -> BrowserContext:
        if previous is not None:
            state = await previous.storage_state()
        else:
            state = parked() if parked is not None else None
        return await browser.new_context(user_agent=user_agent, storage_state=state, service_workers="block")

    return factory


@dataclass(eq=False)
class _Context:
    context: BrowserContext
    served: int = 0
    open_tabs: int = 0
    draining: bool = False


@dataclass(eq=False)
class Tab:
    """A reusable tab and the context it belongs to."""

    page: Page
    owner: _Context
    uses: int = 0
    cdp: CDPSession | None = None


class TabPool:
    """Up to ``size`` tabs; an idle tab is always taken before a new one is opened.

    A crawl that renders now and then (auto mode) so keeps one or two warm tabs rather than a
    renderer per render, and idle tabs are taken oldest first, so the load rotates over every
    context, hence over every account of a session.
    """

    def __init__(
        self,
        browser: Browser | None,
        rendering: RenderingConfig,
        size: int,
        hooks: Sequence[PageHook],
        context_factory: ContextFactory,
        guard: NavigationGuard | None = None,
    ) -> None:
        self.browser = browser  # None while auto mode has the browser closed (runtime.py)
        self.guard = guard  # stops navigations out of the crawl's scope in every tab
        self.cfg = rendering
        self.hooks = list(hooks)
        self._factory = context_factory
        self._idle: collections.deque[Tab] = collections.deque()
        self._unopened = size
        self._pool_changed = asyncio.Condition()
        self._active: list[_Context] = []
        self._all: list[_Context] = []
        self._ctx_lock = asyncio.Lock()
        self._route_types = {t for t in rendering.block if t in _ROUTE_ONLY}
        self.contexts_opened = 0
        self.tabs_opened = 0
        self.garbage_collections = 0
        self._warming: asyncio.Future[None] | None = None
        self._collecting: set[asyncio.Task[None]] = set()  # tabs in a garbage collection

    # -- contexts ------------------------------------------------------------------------------
    async def new_context(self, previous: BrowserContext | None = None) -> BrowserContext:
        """A context from the factory (logged in, when a session part supplies the factory)."""
        assert self.browser is not None, "the browser is closed"
        return await self._factory(self.browser, previous)

    async def _new_context(self, previous: BrowserContext | None) -> _Context:
        ctx = await self.new_context(previous)
        if self._route_types:
            blocked = self._route_types

            async def _route(route):
                if route.request.resource_type in blocked:
                    await route.abort()
                else:
                    await route.continue_()

            await ctx.route("**/*", _route)
        holder = _Context(ctx)
        self._all.append(holder)
        self.contexts_opened += 1
        return holder

    async def _pick_context(self, *, for_new_tab: bool = False) -> _Context:
        async with self._ctx_lock:
            while len(self._active) < self.cfg.contexts:
                self._active.append(await self._new_context(None))
            owner = min(self._active, key=lambda c: c.open_tabs)
            if for_new_tab:
                # Counted before the lock is let go: tabs opening at once would otherwise all see
                # the same counts and land in one context (one account carried a whole crawl).
                owner.open_tabs += 1
            return owner

    async def cookies(self) -> list[dict]:
        """Cookies of the current context, for the HTTP path."""
        return await (await self.cookie_context()).cookies()

    async def cookie_context(self) -> BrowserContext:
        """The context the HTTP path takes its cookies from (opened if there is none yet)."""
        return (await self._pick_context()).context

    def current_contexts(self) -> list[BrowserContext]:
        """The contexts new tabs open in (none before the first tab or cookie read)."""
        return [c.context for c in self._active]

    async def recycle_all(self) -> None:
        """Retire every context (e.g. after a re-login) so new tabs start from fresh state."""
        async with self._ctx_lock:
            for c in self._active:
                c.draining = True
            self._active = []

    # -- tabs ----------------------------------------------------------------------------------
    async def _open_tab(self) -> Tab:
        owner = await self._pick_context(for_new_tab=True)
        try:
            page = await owner.context.new_page()
        except BaseException:
            owner.open_tabs -= 1
            raise
        self.tabs_opened += 1
        await page.add_init_script(TAB_INIT_JS)  # what the snapshot's wait counts (settle.py), the snapshot
        for hook in self.hooks:
            await hook.on_page_created(page)
        cdp = await self.guard.attach(owner.context, page) if self.guard is not None else None
        return Tab(page, owner, cdp=cdp)

    async def _close_tab(self, tab: Tab) -> None:
        owner = tab.owner
        owner.open_tabs -= 1
        # Decide before any await: two tabs of a draining context can close concurrently, and
        # only the last one may retire the context.
        retire = owner.draining and owner.open_tabs == 0 and owner in self._all
        if retire:
            self._all.remove(owner)
        with contextlib.suppress(PlaywrightError):
            await tab.page.close()
        if retire:
            with contextlib.suppress(PlaywrightError):
                await owner.context.close()

    async def acquire(self) -> Tab:
        """A tab to render in: an idle one, or a new one when none is idle and the pool has room."""
        if self._warming is not None:  # take the warm tab rather than open a second one beside it
            await asyncio.shield(self._warming)
        tab = await self._take()
        try:
            if tab is not None and (
                tab.uses >= self.cfg.uses_per_page or tab.owner.draining or tab.page.is_closed()
            ):
                await self._close_tab(tab)
                tab = None
            if tab is None:
                tab = await self._open_tab()
        except BaseException:
            await self._give(None)
            raise
        return tab

    async def _take(self) -> Tab | None:
        """The oldest idle tab, or None: the caller may open a new one (a slot is reserved)."""
        async with self._pool_changed:
            await self._pool_changed.wait_for(lambda: bool(self._idle) or self._unopened > 0)
            if self._idle:
                return self._idle.popleft()
            self._unopened -= 1
            return None

    async def _give(self, tab: Tab | None) -> None:
        """Return a tab to the pool, or (None) the slot of a tab that was closed or never opened."""
        async with self._pool_changed:
            if tab is None:
                self._unopened += 1
            else:
                self._idle.append(tab)
            self._pool_changed.notify()

    async def release(self, tab: Tab, healthy: bool) -> None:
        """Give a tab back after a page; an unhealthy tab is closed, a context may be recycled.

        A tab due for a garbage collection is given back when it is done, in the background: the
        caller (a worker with the page's outcome still to build) does not wait for the renderer.
        """
        tab.uses += 1
        collect = healthy and self.cfg.gc_every_pages and tab.uses % self.cfg.gc_every_pages == 0
        owner = tab.owner
        owner.served += 1
        if owner.served >= self.cfg.pages_per_context and not owner.draining:
            async with self._ctx_lock:
                if owner in self._active:
                    owner.draining = True
                    self._active.remove(owner)
                    self._active.append(await self._new_context(owner.context))
        if not healthy:
            await self._close_tab(tab)
            await self._give(None)
        elif collect:
            task = asyncio.create_task(self._collect_and_give(tab))
            self._collecting.add(task)
            task.add_done_callback(self._collecting.discard)
        else:
            await self._give(tab)

    async def _collect_and_give(self, tab: Tab) -> None:
        try:
            await self._collect_garbage(tab)
        finally:
            await self._give(tab)

    async def collections_done(self) -> None:
        """Wait for the garbage collections under way (their tabs are back in the pool after)."""
        await asyncio.gather(*self._collecting, return_exceptions=True)

    async def _collect_garbage(self, tab: Tab) -> None:
        """Run a full GC in the tab's renderer.

        A busy headless renderer gets no idle time for major collections, so the V8 contexts and
        DOMs of pages it navigated away from pile up: measured on the 500-page bench, 8 tabs'
        renderers grew to 717 MiB of PSS (380 MiB with a collection every 10 pages, for ~5% CPU).
        Reopening tabs instead cost more CPU and saved less.
        """
        with contextlib.suppress(PlaywrightError):
            if tab.cdp is None:
                tab.cdp = await tab.owner.context.new_cdp_session(tab.page)
            await tab.cdp.send("HeapProfiler.collectGarbage")
            self.garbage_collections += 1

    # -- warming and closing ---------------------------------------------------------------------
    def start_warming(self) -> asyncio.Task[None]:
        """Open the first context and tab ahead of the first render, off its critical path.

        Only for plain contexts: a session's context factory logs in, and a failed login must
        surface (and count against the account) once, in the fetch that needs it. The flag is set
        here, not when the task first runs, so a render that starts first waits for the warm tab.
        """
        warming = self._warming = asyncio.get_running_loop().create_future()
        task = asyncio.create_task(self._warm())
        # Even a task cancelled before it ran must not leave renders waiting on the flag.
        task.add_done_callback(lambda _: warming.done() or warming.set_result(None))
        return task

    async def _warm(self) -> None:
        tab = await self._take()
        try:
            if tab is None:
                tab = await self._open_tab()
        except PlaywrightError as exc:
            log.debug("warming the browser failed (the first render will retry): %s", exc)
        finally:
            await self._give(tab)
            if self._warming is not None and not self._warming.done():
                self._warming.set_result(None)
            self._warming = None

    async def close(self) -> None:
        """Close every context; the pool can serve again once given a browser (no tab may be in use)."""
        await self.collections_done()
        for c in list(self._all):
            with contextlib.suppress(PlaywrightError):
                await c.context.close()
        self._all.clear()
        self._active.clear()
        async with self._pool_changed:
            self._unopened += len(self._idle)  # their slots are free again
            self._idle.clear()
            self._pool_changed.notify_all()
