"""Renderer memory of long-lived tabs: pages navigated away from must not pile up."""

from __future__ import annotations

import pytest
from aiohttp import web

from browsercrawl.config import RenderingConfig
from browsercrawl.engine.browser_fetcher import BrowserFetcher
from browsercrawl.engine.tabs import TabPool, user_agent_context
from browsercrawl.frontier.base import Request
from tests.apps.server import serve_in_thread

# Each page keeps ~16 MB reachable from its window while it is shown; once the tab moves on it
# is garbage that only a major collection frees.
HEAVY = """<html><body><h1>page {i}</h1><script>
window.keep = Array.from({{length: 4000}}, (_, k) => 'x'.repeat(4000) + k);
</script></body></html>"""


async def _heap_after(browser, port: int, gc_every: int) -> tuple[float, int]:
    async def page(request: web.Request) -> web.Response:
        return web.Response(text=HEAVY.format(i=request.match_info["i"]), content_type="text/html")

    app = web.Application()
    app.router.add_get("/p/{i}", page)
    rendering = RenderingConfig(wait_until="load", gc_every_pages=gc_every)
    with serve_in_thread(app, port) as base:
        pool = TabPool(browser, rendering, 1, [], user_agent_context(None))
        fetcher = BrowserFetcher(pool, rendering, [])
        for i in range(12):
            await fetcher.fetch(Request(url=f"{base}/p/{i}", host=f"127.0.0.1:{port}"))
        await pool.collections_done()  # the tab's last collection runs after its page was returned
        (context,) = browser.contexts
        (tab,) = context.pages  # one tab served all 12 pages
        cdp = await context.new_cdp_session(tab)
        used = (await cdp.send("Runtime.getHeapUsage"))["usedSize"] / 2**20
        await pool.close()
    return used, pool.garbage_collections


@pytest.mark.browser
async def test_collecting_every_few_pages_frees_the_pages_left_behind(browser, port):
    kept, runs_off = await _heap_after(browser, port, gc_every=0)
    freed, runs_on = await _heap_after(browser, port, gc_every=3)
    assert runs_off == 0 and runs_on == 4  # after pages 3, 6, 9 and 12
    # Each page leaves ~16 MiB of garbage; with collections at most what the last page holds
    # remains (measured: 2 MiB). Without them V8 sometimes collects by itself when the machine is
    # busy (measured: 2-20 MiB), so only the collected side has a bound to keep.
    assert freed < 8, (kept, freed)
