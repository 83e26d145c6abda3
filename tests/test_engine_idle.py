"""A part may queue more work when the crawl runs dry (``Part.when_idle``); the crawl ends when none does."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Sequence

from aiohttp import web

from browsercrawl.config import parse_job
from browsercrawl.engine.crawler import Crawler
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.engine.parts import FollowUp, Part
from tests.apps.server import serve_in_thread


class Later(Part):
    """Queues one unlinked page per idle moment, for ``rounds`` moments, then lets the crawl end."""

    name = "later"

    def __init__(self, base: str, rounds: int) -> None:
        self.base = base
        self.left = rounds
        self.calls = 0

    async def when_idle(self) -> Sequence[FollowUp]:
        self.calls += 1
        if self.left == 0:
            return ()
        self.left -= 1
        # One new page, one page already crawled (ignored), one out of scope (ignored).
        return (FollowUp(f"{self.base}/hidden/{self.left}", kind="later"), FollowUp(f"{self.base}/"),
                FollowUp("http://elsewhere.test/x"))


def test_parts_extend_a_crawl_that_ran_dry(tmp_path, port) -> None:
    async def page(request: web.Request) -> web.Response:
        return web.Response(text=f"<html><body><p>{request.path}</p></body></html>", content_type="text/html")

    app = web.Application()
    app.router.add_get("/{tail:.*}", page)
    with serve_in_thread(app, port) as base:
        db = tmp_path / "c.db"
        job = parse_job({"seeds": [f"{base}/"], "rendering": {"mode": "http"},
                         "output": {"database": str(db)}}, tmp_path / "job.toml")
        part = Later(base, rounds=2)
        summary = asyncio.run(Crawler(job, CrawlOptions(quiet=True), [part]).run())
    with sqlite3.connect(db) as conn:
        rows = dict(conn.execute("SELECT url, kind FROM frontier WHERE state = 'done'").fetchall())
    assert rows == {f"{base}/": None, f"{base}/hidden/1": "later", f"{base}/hidden/0": "later"}
    assert part.calls == 3 and summary.pages_stored == 3
