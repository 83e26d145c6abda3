"""Engine behaviour that parts rely on: refused pages, cookies shared with the HTTP path, goto overrides."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest
from aiohttp import web

from browsercrawl.config import parse_job
from browsercrawl.engine.crawler import Crawler
from browsercrawl.engine.hooks import PageContext, PageHook
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.engine.parts import SimplePart
from tests.apps.jssite import JsSite
from tests.apps.server import serve_in_thread


class RefuseEverything(PageHook):
    async def after_snapshot(self, ctx: PageContext) -> None:
        assert ctx.result is not None
        ctx.result.store = False


def job_for(tmp_path, seed: str, **sections):
    data = {"seeds": [seed], "output": {"database": str(tmp_path / "crawl.db")}, **sections}
    return parse_job(data, tmp_path / "job.toml")


def test_a_page_always_refused_by_a_hook_fails_after_max_retries(tmp_path, port):
    site = JsSite(pages=3)
    with serve_in_thread(site.app(), port) as base:
        job = job_for(
            tmp_path,
            f"{base}/static/0",
            rendering={"mode": "http"},
            politeness={"max_retries": 2, "retry_backoff_seconds": 0.05},
        )
        crawler = Crawler(job, CrawlOptions(quiet=True), [SimplePart(hooks=[RefuseEverything()])])
        summary = asyncio.run(crawler.run())
    assert site.counts["/static/0"] == 3  # first try + 2 retries, then given up
    assert summary.failed == 1 and summary.pages_total == 0
    with sqlite3.connect(tmp_path / "crawl.db") as conn:
        state, attempts, error = conn.execute("SELECT state, attempts, error FROM frontier").fetchone()
    assert (state, attempts) == ("failed", 3) and error.startswith("page refused by a hook")


def members_only_app(pages: int) -> web.Application:
    """Static pages that need the cookie ``member=yes``; without it they redirect to /login."""

    async def page(request: web.Request) -> web.Response:
        if request.cookies.get("member") != "yes":
            raise web.HTTPFound("/login")
        i = int(request.match_info["i"])
        links = " ".join(f'<a href="/s/{j}">s{j}</a>' for j in range(pages))
        return web.Response(
            text=f"<html><title>s{i}</title><body>member page {i} {links}</body></html>",
            content_type="text/html",
        )

    async def login(request: web.Request) -> web.Response:
        return web.Response(
            text="<html><title>login</title><body>please log in</body></html>", content_type="text/html"
        )

    app = web.Application()
    app.add_routes([web.get("/s/{i}", page), web.get("/login", login)])
    return app


@pytest.mark.browser
def test_http_path_always_carries_the_browser_cookies(tmp_path, port):
    with serve_in_thread(members_only_app(16), port) as base:
        job = job_for(
            tmp_path,
            f"{base}/s/0",
            rendering={"mode": "auto", "auto_sample_pages": 1},
            politeness={"concurrency": 8, "per_host_concurrency": 8, "obey_robots": False},
        )
        async def factory(browser, previous):
            ctx = await browser.new_context()
            await ctx.add_cookies([{"name": "member", "value": "yes", "url": base}])
            return ctx

        crawler = Crawler(job, CrawlOptions(quiet=True), [SimplePart(context_factory=factory)])
        summary = asyncio.run(crawler.run())
    assert summary.via_http > 0
    with sqlite3.connect(tmp_path / "crawl.db") as conn:
        titles = [t for (t,) in conn.execute("SELECT title FROM pages")]
    assert sorted(titles) == sorted(f"s{i}" for i in range(16))  # never the login page


def slow_script_app() -> web.Application:
    """A page whose load event waits 1.5 s for a script."""

    async def page(request: web.Request) -> web.Response:
        return web.Response(
            text='<html><title>slow</title><body>x<script src="/slow.js"></script></body></html>',
            content_type="text/html",
        )

    async def script(request: web.Request) -> web.Response:
        await asyncio.sleep(1.5)
        return web.Response(text="window.done = 1;", content_type="application/javascript")

    app = web.Application()
    app.add_routes([web.get("/", page), web.get("/slow.js", script)])
    return app


@pytest.mark.browser
@pytest.mark.parametrize(("override", "expect_complete"), [(None, True), ("commit", False)])
def test_a_hook_can_choose_the_goto_wait_for_one_url(tmp_path, port, override, expect_complete):
    seen: list[str] = []

    class EarlyWait(PageHook):
        async def before_navigation(self, ctx: PageContext) -> None:
            if override:
                ctx.wait_until = override

        async def after_navigation(self, ctx: PageContext) -> None:
            assert ctx.page is not None
            seen.append(await ctx.page.evaluate("document.readyState"))

    with serve_in_thread(slow_script_app(), port) as base:
        job = job_for(
            tmp_path,
            f"{base}/",
            rendering={"wait_until": "load"},
            scope={"max_depth": 0},
            politeness={"obey_robots": False},
        )
        asyncio.run(Crawler(job, CrawlOptions(quiet=True), [SimplePart(hooks=[EarlyWait()])]).run())
    assert len(seen) == 1
    assert (seen[0] == "complete") is expect_complete
