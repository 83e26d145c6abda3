"""The browser path: long-lived tabs over a few contexts, one snapshot round trip per page.

Measured on this machine (../shared/PERFORMANCE.md), the cost of a browser crawl is mostly what
the crawler asks the browser to do besides rendering: a new tab per URL doubles CPU per page, and
any Playwright route turns the HTTP cache off. So tabs are reused ``uses_per_page`` times,
images are blocked by a launch flag and fonts/media by CDP URL patterns (no route), and the
title, text, HTML and links come back in a single ``evaluate``. Contexts are recycled after
``pages_per_context`` pages because Chromium frees a context's memory only when it closes.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from playwright.async_api import Browser, BrowserContext, CDPSession, Page
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from browsercrawl.config import RenderingConfig
from browsercrawl.engine.hooks import PageContext, PageHook
from browsercrawl.engine.http_fetcher import check_status
from browsercrawl.engine.result import FetchError, FetchResult
from browsercrawl.frontier.base import Request

log = logging.getLogger(__name__)

# One round trip returns everything the engine stores about a rendered page. Given a selector, the
# same evaluate first waits for it in the page (a MutationObserver, plus a 100 ms re-check for
# changes that are not DOM mutations, such as a stylesheet arriving). Why not Playwright's
# wait_for_selector: it polls from the driver at 0, 20, 50, 100, 100 ms and then every 500 ms, so
# an item rendered from a JSON response a moment after DOMContentLoaded was seen on average ~0.5 s
# late - more than the whole render - and it costs a round trip of its own.
SNAPSHOT_JS = """async (arg) => {
  const sel = arg && arg.selector;
  if (sel) {
    const visible = (el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    const ready = () => { const el = document.querySelector(sel); return !!el && visible(el); };
    let ok;
    try { ok = ready(); } catch (e) { return {badSelector: String(e)}; }
    if (!ok) {
      ok = await new Promise((resolve) => {
        let done = false, obs = null, iv = 0, to = 0;
        const finish = (v) => {
          if (done) return;
          done = true; if (obs) obs.disconnect(); clearInterval(iv); clearTimeout(to); resolve(v);
        };
        const check = () => { if (ready()) finish(true); };
        obs = new MutationObserver(check);
        obs.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
        iv = setInterval(check, 100);
        to = setTimeout(() => finish(false), arg.timeoutMs);
      });
      if (!ok) return {timedOut: true};
    }
  }
  if (arg && arg.waitOnly) return {ready: true};
  const links = [];
  const seen = new Set();
  for (const a of document.querySelectorAll('a[href]')) {
    const href = a.href;
    if (typeof href !== 'string' || !href.startsWith('http') || seen.has(href)) continue;
    seen.add(href);
    links.push([href, (a.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 200)]);
  }
  const body = document.body;
  return {
    url: location.href,
    title: document.title || '',
    html: document.documentElement ? document.documentElement.outerHTML : '',
    text: body ? body.innerText : '',
    links,
  };
}"""

# URL patterns for CDP Network.setBlockedURLs, per resource type that has telling extensions.
_BLOCK_PATTERNS = {
    "image": [
        "*.png*",
        "*.jpg*",
        "*.jpeg*",
        "*.gif*",
        "*.webp*",
        "*.svg*",
        "*.ico*",
        "*.avif*",
        "*.bmp*",
    ],
    "font": ["*.woff*", "*.woff2*", "*.ttf*", "*.otf*", "*.eot*"],
    "media": ["*.mp4*", "*.webm*", "*.mp3*", "*.ogg*", "*.wav*", "*.m4a*", "*.mov*", "*.m3u8*"],
}
# Types only a route can block (costs the HTTP cache; see module docstring).
_ROUTE_ONLY = {"stylesheet", "script", "xhr", "fetch", "websocket"}

ContextFactory = Callable[[BrowserContext | None], Awaitable[BrowserContext]]


def launch_args_for(rendering: RenderingConfig) -> list[str]:
    """Extra Chromium flags implied by the rendering section (image blocking without a route)."""
    return ["--blink-settings=imagesEnabled=false"] if "image" in rendering.block else []


@dataclass(eq=False)
class _Context:
    context: BrowserContext
    served: int = 0
    open_tabs: int = 0
    draining: bool = False


@dataclass(eq=False)
class _Tab:
    page: Page
    owner: _Context
    uses: int = 0
    cdp: CDPSession | None = None


class BrowserFetcher:
    """Renders pages in a pool of reusable tabs."""

    def __init__(
        self,
        browser: Browser,
        rendering: RenderingConfig,
        concurrency: int,
        hooks: list[PageHook] | None = None,
        context_factory: ContextFactory | None = None,
    ) -> None:
        self.browser = browser
        self.cfg = rendering
        self.hooks = hooks or []
        self._hooks_before_snapshot = any(
            type(h).before_snapshot is not PageHook.before_snapshot for h in self.hooks
        )
        self._factory = context_factory or self._default_context
        # Up to `concurrency` tabs. An idle open tab is always taken before a new one is opened
        # (a crawl that renders now and then, as in auto mode, keeps one or two warm tabs rather
        # than a renderer per render), and idle tabs are taken oldest first, so the load rotates
        # over every context, hence over every account of a session.
        self._idle: collections.deque[_Tab] = collections.deque()
        self._unopened = concurrency
        self._pool_changed = asyncio.Condition()
        self._active: list[_Context] = []
        self._all: list[_Context] = []
        self._ctx_lock = asyncio.Lock()
        self._patterns = [p for t in rendering.block for p in _BLOCK_PATTERNS.get(t, [])]
        self._route_types = {t for t in rendering.block if t in _ROUTE_ONLY}
        self.contexts_opened = 0
        self.tabs_opened = 0
        self.garbage_collections = 0
        self._warming: asyncio.Future[None] | None = None

    # -- contexts and tabs -------------------------------------------------------------------
    async def _default_context(self, previous: BrowserContext | None) -> BrowserContext:
        state = await previous.storage_state() if previous is not None else None
        return await self.browser.new_context(
            user_agent=self.cfg.user_agent, storage_state=state, service_workers="block"
        )

    async def _new_context(self, previous: BrowserContext | None) -> _Context:
        ctx = await self._factory(previous)
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

    async def _open_tab(self) -> _Tab:
        owner = await self._pick_context(for_new_tab=True)
        try:
            page = await owner.context.new_page()
        except BaseException:
            owner.open_tabs -= 1
            raise
        self.tabs_opened += 1
        for hook in self.hooks:
            await hook.on_page_created(page)
        cdp = None
        if self._patterns:
            cdp = await owner.context.new_cdp_session(page)
            await cdp.send("Network.enable")
            await cdp.send("Network.setBlockedURLs", {"urls": self._patterns})
        return _Tab(page, owner, cdp=cdp)

    async def _close_tab(self, tab: _Tab) -> None:
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

    async def _acquire(self) -> _Tab:
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

    async def _take(self) -> _Tab | None:
        """The oldest idle tab, or None: the caller may open a new one (a slot is reserved)."""
        async with self._pool_changed:
            await self._pool_changed.wait_for(lambda: bool(self._idle) or self._unopened > 0)
            if self._idle:
                return self._idle.popleft()
            self._unopened -= 1
            return None

    async def _give(self, tab: _Tab | None) -> None:
        """Return a tab to the pool, or (None) the slot of a tab that was closed or never opened."""
        async with self._pool_changed:
            if tab is None:
                self._unopened += 1
            else:
                self._idle.append(tab)
            self._pool_changed.notify()

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

    async def _release(self, tab: _Tab, healthy: bool) -> None:
        tab.uses += 1
        if healthy and self.cfg.gc_every_pages and tab.uses % self.cfg.gc_every_pages == 0:
            await self._collect_garbage(tab)
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
        else:
            await self._give(tab)

    async def _collect_garbage(self, tab: _Tab) -> None:
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

    async def recycle_all(self) -> None:
        """Retire every context (e.g. after a re-login) so new tabs start from fresh state."""
        async with self._ctx_lock:
            for c in self._active:
                c.draining = True
            self._active = []

    async def cookies(self) -> list[dict]:
        """Cookies of the current context, for the HTTP path."""
        ctx = await self._pick_context()
        return await ctx.context.cookies()

    async def close(self) -> None:
        for c in list(self._all):
            with contextlib.suppress(PlaywrightError):
                await c.context.close()
        self._all.clear()
        self._active.clear()

    # -- fetching ---------------------------------------------------------------------------
    async def fetch(self, request: Request, trace_dir: Path | None = None) -> FetchResult:
        tab = await self._acquire()
        healthy = True
        try:
            if trace_dir is not None:
                return await self._fetch_traced(request, trace_dir)
            return await self._render(tab.page, request)
        except FetchError:
            raise
        except PlaywrightError as exc:
            healthy = not tab.page.is_closed() and "crash" not in str(exc).lower()
            raise _classify(exc) from None
        finally:
            await self._release(tab, healthy)

    async def _fetch_traced(self, request: Request, trace_dir: Path) -> FetchResult:
        """Fetch in a throw-away traced context; used for a page's last attempt with --trace."""
        ctx = await self._factory(None)
        await ctx.tracing.start(screenshots=True, snapshots=True)
        page = await ctx.new_page()
        failed = True
        try:
            result = await self._render(page, request)
            failed = False
            return result
        except PlaywrightError as exc:
            raise _classify(exc) from None
        finally:
            trace_dir.mkdir(parents=True, exist_ok=True)
            name = f"{int(time.time())}-{request.id or 0}.zip"
            if failed:
                await ctx.tracing.stop(path=str(trace_dir / name))
                log.info("trace of failed page %s saved to %s", request.url, trace_dir / name)
            else:
                await ctx.tracing.stop()
            await ctx.close()

    async def _render(self, page: Page, request: Request) -> FetchResult:
        timeout_ms = self.cfg.timeout_seconds * 1000
        ctx = PageContext(request=request, page=page, response=None)
        for hook in self.hooks:
            await hook.before_navigation(ctx)
        t0 = time.perf_counter()
        try:
            # A hook may ask for an earlier goto wait for this URL (its own wait follows).
            wait_until = ctx.state.get("wait_until", self.cfg.wait_until)
            response = await page.goto(request.url, wait_until=wait_until, timeout=timeout_ms)
        except PlaywrightTimeoutError:
            raise FetchError(f"timeout after {self.cfg.timeout_seconds:.0f}s", retryable=True) from None
        except PlaywrightError as exc:
            if "interrupted by another navigation" not in str(exc):
                raise
            # The page's own script went elsewhere before the wait ended (to the login page when
            # the session is gone, or a client-side redirect): go on from where it landed and let
            # the hooks judge that page (the session hook logs in again and reloads).
            response = None
            with contextlib.suppress(PlaywrightError):
                state = "load" if wait_until == "load" else "domcontentloaded"
                await page.wait_for_load_state(state, timeout=timeout_ms)
        ctx.response = response
        for hook in self.hooks:
            await hook.after_navigation(ctx)  # may log in again and re-navigate (ctx.response changes)
        response = ctx.response
        t1 = time.perf_counter()
        status = response.status if response is not None else 0
        headers = response.headers if response is not None else {}
        check_status(status, headers)
        snap = await self._wait_and_snapshot(page, ctx, timeout_ms)
        t2 = time.perf_counter()
        result = FetchResult(
            requested_url=request.url,
            final_url=snap["url"],
            status=status,
            content_type=headers.get("content-type", ""),
            via="browser",
            html=snap["html"],
            text=snap["text"],
            title=snap["title"],
            links=[(h, t) for h, t in snap["links"]],
            fetch_ms=(t1 - t0) * 1000,
            render_ms=(t2 - t1) * 1000,
            headers=headers,
        )
        ctx.result = result
        for hook in self.hooks:
            await hook.after_snapshot(ctx)
        return result

    async def _wait_and_snapshot(self, page: Page, ctx: PageContext, timeout_ms: float) -> dict:
        """Wait for ``wait_for_selector`` (if set), run ``before_snapshot`` hooks, take the snapshot.

        Without hooks that act before the snapshot, the wait and the snapshot are one evaluate.
        Selectors that are not CSS (Playwright's text=, xpath=, >> chains) and pages that navigate
        while we wait fall back to Playwright's own ``wait_for_selector``.
        """
        selector = self.cfg.wait_for_selector
        if selector:
            merged = not self._hooks_before_snapshot
            arg = {"selector": selector, "timeoutMs": timeout_ms, "waitOnly": not merged}
            try:
                snap = await page.evaluate(SNAPSHOT_JS, arg)
            except PlaywrightError as exc:
                if "Execution context was destroyed" not in str(exc):
                    raise
                snap = {"badSelector": "navigated while waiting"}
            if snap.get("timedOut"):
                raise FetchError(f"selector {selector!r} never appeared", retryable=True)
            if "badSelector" in snap:
                try:
                    await page.wait_for_selector(selector, timeout=timeout_ms)
                except PlaywrightTimeoutError:
                    raise FetchError(f"selector {selector!r} never appeared", retryable=True) from None
                merged = False
            if merged:
                return snap
        for hook in self.hooks:
            await hook.before_snapshot(ctx)
        return await page.evaluate(SNAPSHOT_JS, None)


class NeedsHttp(FetchError):
    """The browser would download this URL instead of rendering it: fetch it over HTTP."""

    def __init__(self) -> None:
        super().__init__("download, not a page", retryable=False)


def _classify(exc: PlaywrightError) -> FetchError:
    msg = str(exc).split("\n", 1)[0]
    if "Download is starting" in msg:
        return NeedsHttp()
    # "Execution context was destroyed": the page navigated while it was being read (its own script
    # went elsewhere, e.g. to the login page when a session ended mid-page); a new try reads it whole.
    transient = ("net::ERR_", "Target crashed", "Navigation failed", "closed",
                 "Execution context was destroyed", "Frame was detached", "interrupted by another navigation")
    retryable = any(s in msg for s in transient)
    permanent = any(s in msg for s in ("ERR_NAME_NOT_RESOLVED", "ERR_INVALID_URL", "ERR_UNSAFE"))
    return FetchError(msg, retryable=retryable and not permanent)
