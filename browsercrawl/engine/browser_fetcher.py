"""The browser path: render a page in a pooled tab, run the hooks, take one snapshot.

Measured on this machine (docs/benchmarks.md), the cost of a browser crawl is mostly what the
crawler asks the browser to do besides rendering: so the title, text, HTML and links come back in
a single ``evaluate`` (``snapshot.js``). Given ``wait_for_selector``, the same evaluate first waits
for it in the page (a MutationObserver, plus a 100 ms re-check for changes that are not DOM
mutations, such as a stylesheet arriving). Why not Playwright's ``wait_for_selector``: it polls from
the driver at 0, 20, 50, 100, 100 ms and then every 500 ms, so an item rendered from a JSON
response a moment after DOMContentLoaded was seen on average ~0.5 s late - more than the whole
render - and it costs a round trip of its own.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, Response
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from browsercrawl.config import RenderingConfig
from browsercrawl.engine.failures import classify, tab_survives
from browsercrawl.engine.hooks import PageContext, PageHook, overrides
from browsercrawl.engine.http_fetcher import check_status
from browsercrawl.engine.result import FetchError, FetchResult
from browsercrawl.engine.tabs import TabPool
from browsercrawl.frontier.base import Request
from browsercrawl.frontier.pacing import paced

log = logging.getLogger(__name__)

SNAPSHOT_JS = resources.files("browsercrawl.engine").joinpath("snapshot.js").read_text("utf-8")


async def _paced_goto(page: Page, url: str, wait_until: str, timeout_ms: float) -> Response | None:
    """``page.goto`` sent at the host's pace; the turn ends when the document's response arrives."""
    async with paced() as turn:

        def _arrived(response: Response) -> None:
            if response.frame == page.main_frame and response.request.is_navigation_request():
                turn.reached()

        page.on("response", _arrived)
        try:
            return await page.goto(url, wait_until=wait_until, timeout=timeout_ms)
        finally:
            page.remove_listener("response", _arrived)


class BrowserFetcher:
    """Renders pages in the tabs of a :class:`TabPool`."""

    via = "browser"

    def __init__(self, pool: TabPool, rendering: RenderingConfig, hooks: Sequence[PageHook]) -> None:
        self.pool = pool
        self.cfg = rendering
        self.hooks = list(hooks)
        self._hooks_before_snapshot = overrides(self.hooks, "before_snapshot")
        self.rendered = 0

    # -- fetching ---------------------------------------------------------------------------
    async def fetch(self, request: Request, *, trace_dir: Path | None = None) -> FetchResult:
        """Render ``request`` (in a traced throw-away context when ``trace_dir`` is given)."""
        if trace_dir is not None:
            return await self._fetch_traced(request, trace_dir)
        tab = await self.pool.acquire()
        healthy = True
        try:
            result = await self._render(tab.page, request)
            self.rendered += 1
            return result
        except FetchError:
            raise
        except PlaywrightError as exc:
            healthy = tab_survives(exc, tab.page.is_closed())
            raise classify(exc) from None
        finally:
            await self.pool.release(tab, healthy)

    async def _fetch_traced(self, request: Request, trace_dir: Path) -> FetchResult:
        """Fetch in a throw-away traced context; used for a page's last attempt with --trace."""
        ctx = await self.pool.new_context(None)
        await ctx.tracing.start(screenshots=True, snapshots=True)
        page = await ctx.new_page()
        failed = True
        try:
            result = await self._render(page, request)
            failed = False
            self.rendered += 1
            return result
        except PlaywrightError as exc:
            raise classify(exc) from None
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
            wait_until = ctx.wait_until or self.cfg.wait_until
            response = await _paced_goto(page, request.url, wait_until, timeout_ms)
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
