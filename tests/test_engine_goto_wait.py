"""With a selector to wait for, the goto's own wait (DOMContentLoaded or load) is done inside the
snapshot's evaluate, sent at commit: the snapshot must still see everything the goto's wait promised."""

from __future__ import annotations

import asyncio

import pytest
from aiohttp import web

from browsercrawl.config import RenderingConfig
from browsercrawl.engine import browser_fetcher
from browsercrawl.engine.browser_fetcher import BrowserFetcher
from browsercrawl.engine.hooks import PageContext, PageHook
from browsercrawl.engine.result import FetchError
from browsercrawl.engine.tabs import TabPool, user_agent_context
from browsercrawl.frontier.base import Request
from tests.apps.server import serve_in_thread

# The element waited for is in the HTML before a slow blocking script; the paragraph after the
# script exists only once the parser got past it, i.e. at DOMContentLoaded.
BLOCKING = """<html><body><div id="item">the item</div>
<script src="/slow.js"></script>
<p>written after the slow script</p></body></html>"""
# An async script delays the load event, not DOMContentLoaded; what it adds is there at load.
ASYNC = """<html><body><div id="item">the item</div>
<script async src="/slow-add.js"></script></body></html>"""
NEVER = """<html><body><div id="item">the item</div><script src="/never.js"></script></body></html>"""


def _app() -> web.Application:
    def html(body: str):
        async def handler(request: web.Request) -> web.Response:
            return web.Response(text=body, content_type="text/html")

        return handler

    async def slow(request: web.Request) -> web.Response:
        await asyncio.sleep(0.8)
        return web.Response(text="window.ranSlow = true;", content_type="application/javascript")

    async def slow_add(request: web.Request) -> web.Response:
        await asyncio.sleep(0.8)
        js = "const p = document.createElement('p'); p.textContent = 'added by the async script';" \
             "document.body.appendChild(p);"
        return web.Response(text=js, content_type="application/javascript")

    async def never(request: web.Request) -> web.Response:
        await asyncio.sleep(6)
        return web.Response(text="", content_type="application/javascript")

    app = web.Application()
    app.router.add_get("/blocking", html(BLOCKING))
    app.router.add_get("/async", html(ASYNC))
    app.router.add_get("/never", html(NEVER))
    app.router.add_get("/slow.js", slow)
    app.router.add_get("/slow-add.js", slow_add)
    app.router.add_get("/never.js", never)
    return app


@pytest.fixture
def goto_waits(monkeypatch) -> list[str]:
    """The wait each goto was sent with (the real goto runs)."""
    seen: list[str] = []
    real = browser_fetcher._paced_goto

    async def spy(page, url, wait_until, timeout_ms):
        seen.append(wait_until)
        return await real(page, url, wait_until, timeout_ms)

    monkeypatch.setattr(browser_fetcher, "_paced_goto", spy)
    return seen


async def _fetch(browser, base: str, path: str, rendering: RenderingConfig, hooks=()) -> object:
    pool = TabPool(browser, rendering, 1, list(hooks), user_agent_context(None))
    fetcher = BrowserFetcher(pool, rendering, list(hooks))
    try:
        return await fetcher.fetch(Request(url=base + path, host=base.split("//")[1]))
    finally:
        await pool.close()


@pytest.mark.browser
async def test_domcontentloaded_is_waited_for_in_the_page(browser, port, goto_waits):
    rendering = RenderingConfig(wait_until="domcontentloaded", wait_for_selector="#item")
    with serve_in_thread(_app(), port) as base:
        result = await _fetch(browser, base, "/blocking", rendering)
    assert goto_waits == ["commit"]
    assert "the item" in result.text and "written after the slow script" in result.text


@pytest.mark.browser
async def test_load_is_waited_for_in_the_page(browser, port, goto_waits):
    rendering = RenderingConfig(wait_for_selector="#item")  # a selector alone: goto waits for load
    assert rendering.goto_wait == "load"
    with serve_in_thread(_app(), port) as base:
        result = await _fetch(browser, base, "/async", rendering)
    assert goto_waits == ["commit"]
    assert "added by the async script" in result.text


@pytest.mark.browser
async def test_a_hook_after_navigation_keeps_the_goto_wait(browser, port, goto_waits):
    class Looks(PageHook):
        def __init__(self) -> None:
            self.texts: list[str] = []

        async def after_navigation(self, ctx: PageContext) -> None:
            self.texts.append(await ctx.page.inner_text("body"))

    hook = Looks()
    rendering = RenderingConfig(wait_until="domcontentloaded", wait_for_selector="#item")
    with serve_in_thread(_app(), port) as base:
        result = await _fetch(browser, base, "/blocking", rendering, hooks=[hook])
    assert goto_waits == ["domcontentloaded"]
    assert "written after the slow script" in hook.texts[0]  # the hook saw the page after its wait
    assert "written after the slow script" in result.text


@pytest.mark.browser
async def test_a_goto_wait_that_never_ends_is_a_timeout(browser, port, goto_waits):
    rendering = RenderingConfig(wait_until="domcontentloaded", wait_for_selector="#item", timeout_seconds=2)
    with serve_in_thread(_app(), port) as base, pytest.raises(FetchError, match="timeout") as caught:
        await _fetch(browser, base, "/never", rendering)
    assert caught.value.retryable
    assert goto_waits == ["commit"]
