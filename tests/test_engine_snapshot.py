"""The snapshot goes through the function each tab installs, and still works in a document without it."""

from __future__ import annotations

import asyncio

import pytest
from aiohttp import web

from browsercrawl.engine.browser import LaunchOptions, open_browser
from browsercrawl.engine.browser_fetcher import _snapshot
from browsercrawl.engine.tabs import TAB_INIT_JS
from tests.apps.server import serve_in_thread

HTML = "<html><head><title>t</title></head><body><p>hello there</p><a href='http://h/x'>x</a></body></html>"


@pytest.mark.browser
def test_snapshot_with_and_without_the_installed_function(port):
    async def page(request: web.Request) -> web.Response:
        return web.Response(text=HTML, content_type="text/html")

    app = web.Application()
    app.add_routes([web.get("/", page)])

    async def run(base: str) -> tuple[dict, dict, bool, bool]:
        async with open_browser(LaunchOptions()) as browser:
            ctx = await browser.new_context()
            with_init = await ctx.new_page()
            await with_init.add_init_script(TAB_INIT_JS)
            await with_init.goto(base + "/")
            bare = await ctx.new_page()  # no init script: the fetcher sends the whole function
            await bare.goto(base + "/")
            installed = await with_init.evaluate("() => typeof window.__bcSnapshot === 'function'")
            missing = await bare.evaluate("() => window.__bcSnapshot === undefined")
            return await _snapshot(with_init, None), await _snapshot(bare, None), installed, missing

    with serve_in_thread(app, port) as base:
        a, b, installed, missing = asyncio.run(run(base))
    assert installed and missing
    for snap in (a, b):
        assert snap["title"] == "t" and "hello there" in snap["text"]
        assert [h for h, _ in snap["links"]] == ["http://h/x"]
