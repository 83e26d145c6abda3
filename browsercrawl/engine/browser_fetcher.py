"""The browser path: render a page in a pooled tab, run the hooks, take one snapshot.

Measured on this machine (docs/benchmarks.md), the cost of a browser crawl is mostly what the
crawler asks the browser to do besides rendering: so the title, text, HTML and links come back in
a single ``evaluate`` (``snapshot.js``). Given ``wait_for_selector``, the same evaluate first waits
for it in the page (a MutationObserver, plus a 100 ms re-check for changes that are not DOM
mutations, such as a stylesheet arriving). Why not Playwright's ``wait_for_selector``: it polls from
the driver at 0, 20, 50, 100, 100 ms and then every 500 ms, so an item rendered from a JSON
response a moment after DOMContentLoaded was seen on average ~0.5 s late - more than the whole
render - and it costs a round trip of its own.

Without a wait named in the job, the same evaluate waits until the page is done (``settle.py``);
the snapshot says whether it was (``FetchResult.complete``, stored as ``pages.complete``).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Sequence
from pathlib import Path

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, Response
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from browsercrawl.config import RenderingConfig
from browsercrawl.engine.failures import classify, tab_survives
from browsercrawl.engine.hooks import PageContext, PageHook, overrides
from browsercrawl.engine.http_fetcher import check_status
from browsercrawl.engine.result import FetchError, FetchResult, LeftScope
from browsercrawl.engine.settle import SHAPE_WAITS, SettleLearner
from browsercrawl.engine.tabs import SNAPSHOT_CALL, SNAPSHOT_JS, TAB_INIT_JS, TabPool
from browsercrawl.engine.traces import save_trace
from browsercrawl.frontier.base import Request
from browsercrawl.frontier.pacing import paced

log = logging.getLogger(__name__)



async def _paced_goto(page: Page, url: str, wait_until: str, timeout_ms: float) -> Response | None:
    """``page.goto`` sent at the host's pace; the turn ends when the document's response arrives."""
    async with paced() as turn:
        if not turn.paced:
            # No listener: a response listener costs two protocol calls to (un)subscribe and an
            # event per response of the page, in the driver and here.
            return await page.goto(url, wait_until=wait_until, timeout=timeout_ms)

        def _arrived(response: Response) -> None:
            if response.frame == page.main_frame and response.request.is_navigation_request():
                turn.reached()

        page.on("response", _arrived)
        try:
            return await page.goto(url, wait_until=wait_until, timeout=timeout_ms)
        finally:
            page.remove_listener("response", _arrived)


async def _snapshot(page: Page, arg: dict | None) -> dict:
    """The snapshot (after its wait, given ``arg``), through the function the tab installed."""
    snap = await page.evaluate(SNAPSHOT_CALL, arg)
    if snap is None:
        snap = await page.evaluate(SNAPSHOT_JS, arg)
    return snap


async def wait_until_done(page: Page, cap_ms: float, quiet_ms: int) -> bool:
    """Wait in ``page`` until it is done by the crawl's own rule (``settle.py``), at most ``cap_ms``;
    True when it finished before the cap.

    For a part's own tab (a probe, say) that must tell "not there" from "not there yet" without
    waiting out a fixed timeout on every page. Requests in flight are seen only in a tab given
    ``TAB_INIT_JS`` before it navigated; without it the wait is the DOM's quiet alone.
    """
    settle = {"capMs": cap_ms, "quietMs": quiet_ms, "requestCapMs": None, "learn": False}
    snap = await _snapshot(page, {"settle": settle, "waitOnly": True})
    return bool((snap.get("settled") or {}).get("done"))


def _css_like(selector: str) -> bool:
    """Could ``selector`` be plain CSS (not Playwright's ``text=``, ``xpath=`` or ``>>`` chains)?"""
    return ">>" not in selector and not selector.startswith(("text=", "xpath=", "css=", "//", "id=",
                                                            "data-testid=", "role=", "internal:"))


class BrowserFetcher:
    """Renders pages in the tabs of a :class:`TabPool`."""

    via = "browser"

    def __init__(self, pool: TabPool, rendering: RenderingConfig, hooks: Sequence[PageHook]) -> None:
        self.pool = pool
        self.cfg = rendering
        self.hooks = list(hooks)
        self._hooks_before_snapshot = overrides(self.hooks, "before_snapshot")
        self._hooks_after_navigation = overrides(self.hooks, "after_navigation")
        self.rendered = 0
        self.waits = SettleLearner(rendering)

    # -- fetching ---------------------------------------------------------------------------
    async def fetch(
        self, request: Request, *, trace_dir: Path | None = None, settle: bool = False
    ) -> FetchResult:
        """Render ``request`` (in a traced throw-away context when ``trace_dir`` is given).

        ``settle`` asks for the wait until the page is done even when the job names a goto wait
        (auto mode's comparisons must not judge a page from a snapshot taken before that).
        """
        if trace_dir is not None:
            return await self._fetch_traced(request, trace_dir, settle)
        tab = await self.pool.acquire()
        healthy = True
        try:
            result = await self._render(tab.page, request, settle)
            self.rendered += 1
            return result
        except FetchError:
            raise
        except PlaywrightError as exc:
            healthy = tab_survives(exc, tab.page.is_closed())
            raise classify(exc) from None
        finally:
            await self.pool.release(tab, healthy)

    async def _fetch_traced(self, request: Request, trace_dir: Path, settle: bool) -> FetchResult:
        """Fetch in a throw-away traced context; used for a page's last attempt with --trace."""
        ctx = await self.pool.new_context(None)
        await ctx.tracing.start(screenshots=True, snapshots=True)
        page = await ctx.new_page()
        if self.pool.guard is not None:
            await self.pool.guard.attach(ctx, page)
        await page.add_init_script(TAB_INIT_JS)
        failed = True
        try:
            result = await self._render(page, request, settle)
            failed = False
            self.rendered += 1
            return result
        except PlaywrightError as exc:
            raise classify(exc) from None
        finally:
            trace_dir.mkdir(parents=True, exist_ok=True)
            name = f"{int(time.time())}-{request.id or 0}.zip"
            if failed:
                await save_trace(ctx, trace_dir / name)  # secrets scrubbed, mode 600
                log.info("trace of failed page %s saved to %s", request.url, trace_dir / name)
            else:
                await ctx.tracing.stop()
            await ctx.close()

    async def _render(self, page: Page, request: Request, settle: bool = False) -> FetchResult:
        guard = self.pool.guard
        if guard is None:
            return await self._render_page(page, request, settle)
        if not guard.stop:  # nothing was stopped on the way: judge where the page landed
            result = await self._render_page(page, request, settle)
            if (reason := await guard.landed(result.final_url)) is not None:
                raise LeftScope(result.final_url, reason, landed=True)
            return result
        guard.reset(page)
        try:
            result = await self._render_page(page, request, settle)
        except (PlaywrightError, FetchError):
            if (stopped := guard.stopped(page)) is not None:  # e.g. a 302 out: ERR_BLOCKED_BY_CLIENT
                raise LeftScope(*stopped) from None
            raise
        if (stopped := guard.stopped(page)) is not None:  # a script or meta refresh tried to leave
            raise LeftScope(*stopped)
        return result

    async def _render_page(self, page: Page, request: Request, settle: bool = False) -> FetchResult:
        timeout_ms = self.cfg.timeout_seconds * 1000
        ctx = PageContext(request=request, page=page, response=None)
        for hook in self.hooks:
            await hook.before_navigation(ctx)
        t0 = time.perf_counter()
        ready_state = self._ready_state_in_page(ctx)
        try:
            # A hook may ask for an earlier goto wait for this URL (its own wait follows).
            wait_until = "commit" if ready_state else (ctx.wait_until or self.cfg.goto_wait)
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
        settles = ctx.settle and ((settle and not self.cfg.wait_for_selector) or self.cfg.settles)
        left_ms = timeout_ms - (t1 - t0) * 1000
        snap = await self._wait_and_snapshot(page, ctx, left_ms, settles, ready_state)
        t2 = time.perf_counter()
        settled = snap.get("settled")
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
            complete=self._complete(snap, settled),
        )
        if settled is not None and "by" in settled:
            row = self.waits.record(request.url, settled)
            if row is not None:
                result.extra_rows[SHAPE_WAITS] = [row]
        ctx.result = result
        for hook in self.hooks:
            await hook.after_snapshot(ctx)
        return result

    def _ready_state_in_page(self, ctx: PageContext) -> str | None:
        """The goto's wait to do inside the snapshot's evaluate instead ('interactive' for
        DOMContentLoaded, 'complete' for load), or None to let ``goto`` wait.

        When the job names a CSS selector to wait for, ``goto`` returns at commit and the snapshot's
        evaluate, sent at once, waits for the goto's event and then for the selector in the page:
        the same snapshot, one round trip through the driver fewer per page (what the minimal
        Playwright loop does). Not when a hook acts after the navigation or before the snapshot
        (it expects the goto's wait done), nor when a hook chose this page's goto wait.
        """
        selector = self.cfg.wait_for_selector
        if (not selector or ctx.wait_until is not None or self._hooks_after_navigation
                or self._hooks_before_snapshot or not _css_like(selector)):
            return None
        return {"domcontentloaded": "interactive", "load": "complete"}.get(self.cfg.goto_wait)

    def _complete(self, snap: dict, settled: dict | None) -> bool:
        """Was the page done when its snapshot was taken?

        After the default wait, its verdict; in any case no fetch/XHR may be in flight at the
        snapshot. Under a goto wait the job named (no selector), a short timer still pending means
        content may yet come, too; a ``wait_for_selector`` says itself what done means.
        """
        if snap.get("inflight"):
            return False
        if settled is not None:
            return bool(settled.get("done"))
        return bool(self.cfg.wait_for_selector) or not snap.get("timers")

    async def _wait_and_snapshot(
        self, page: Page, ctx: PageContext, left_ms: float, settles: bool, ready_state: str | None = None
    ) -> dict:
        """Wait (for ``wait_for_selector``, or until the page is done), run ``before_snapshot``
        hooks, take the snapshot. ``ready_state``: the goto returned at commit and its wait
        (DOMContentLoaded or load) comes first, in the same evaluate.

        Without hooks that act before the snapshot, the wait and the snapshot are one evaluate.
        Selectors that are not CSS (Playwright's text=, xpath=, >> chains) and pages that navigate
        while we wait fall back to Playwright's own ``wait_for_selector``; a page that navigates
        while it settles is waited for once more in its new document.
        """
        selector = self.cfg.wait_for_selector
        settle = self.waits.plan(ctx.request.url, left_ms) if settles else None
        settled = None
        if selector or settle:
            merged = not self._hooks_before_snapshot
            arg = {"selector": selector, "timeoutMs": left_ms, "waitOnly": not merged, "settle": settle,
                   "readyState": ready_state}
            snap = await self._evaluate_wait(page, arg)
            if snap.get("navigated") and settle is not None:
                with contextlib.suppress(PlaywrightError):
                    await page.wait_for_load_state("domcontentloaded", timeout=max(1.0, settle["capMs"]))
                snap = await self._evaluate_wait(page, arg)
            if snap.get("timedOut"):
                if snap.get("readyState") is not None:  # the goto's own wait, done in the page
                    raise FetchError(f"timeout after {self.cfg.timeout_seconds:.0f}s", retryable=True)
                raise FetchError(f"selector {selector!r} never appeared", retryable=True)
            if "badSelector" in snap:
                try:
                    if ready_state is not None:  # the goto returned at commit: its wait first
                        state = "load" if ready_state == "complete" else "domcontentloaded"
                        await page.wait_for_load_state(state, timeout=left_ms)
                    await page.wait_for_selector(selector, timeout=left_ms)
                except PlaywrightTimeoutError:
                    raise FetchError(f"selector {selector!r} never appeared", retryable=True) from None
                merged = False
            settled = snap.get("settled")
            if snap.get("navigated"):
                settled = {"done": False}
                merged = False
            if merged:
                return snap
        for hook in self.hooks:
            await hook.before_snapshot(ctx)
        snap = await _snapshot(page, None)
        snap["settled"] = settled
        return snap

    @staticmethod
    async def _evaluate_wait(page: Page, arg: dict) -> dict:
        """The waiting evaluate; ``{"navigated": True}`` when the page went elsewhere meanwhile."""
        try:
            return await _snapshot(page, arg)
        except PlaywrightError as exc:
            if "Execution context was destroyed" not in str(exc):
                raise
            if arg.get("selector"):
                return {"badSelector": "navigated while waiting"}
            return {"navigated": True}
