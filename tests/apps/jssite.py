"""A small JavaScript site with the awkward cases a crawler must handle, and a log of every hit.

- ``/p/<i>``: content and links rendered client-side from ``/api/<i>`` (a plain fetch sees none).
- ``/static/<i>``: the same content server-rendered.
- ``/redirect/<i>`` -> 302 -> ``/p/<i>``; ``/flaky/<i>``: 503 twice, then a page;
  ``/limited``: 429 with Retry-After once, then a page; ``/private/...``: disallowed by robots.txt.
- A link to the same server under the name ``localhost`` (out of scope for same-host crawls).

``hold`` keeps ``/static/0`` unanswered until the test sets it, so a test can have every worker of a
distributed crawl up before the first page lets the crawl spread.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter

from aiohttp import web

PAGE = """<!doctype html><html><head><title>page {i}</title></head><body>
<nav><a href="/">home</a> <a href="/private/secret">private</a></nav>
<main id="c">loading</main>
<script>
fetch('/api/{i}').then(r => r.json()).then(d => {{
  document.getElementById('c').innerHTML =
    d.links.map(j => `<a href="/p/${{j}}">item ${{j}}</a>`).join(' ') + `<p class="body">${{d.text}}</p>`;
}});
</script></body></html>"""


class JsSite:
    def __init__(self, pages: int = 30, crawl_delay: float | None = None, fanout: int = 3,
                 hold: threading.Event | None = None) -> None:
        self.pages = pages
        self.hold = hold
        self.fanout = fanout
        self.crawl_delay = crawl_delay
        self.hits: list[tuple[str, float]] = []
        self.counts: Counter[str] = Counter()

    def links_of(self, i: int) -> list[int]:
        return [(i * self.fanout + k) % self.pages for k in range(1, self.fanout + 1)]

    def text_of(self, i: int) -> str:
        return f"The body text of item {i} is here."

    @web.middleware
    async def _log(self, request: web.Request, handler):
        self.hits.append((request.path_qs, time.monotonic()))
        self.counts[request.path] += 1
        return await handler(request)

    async def index(self, request: web.Request) -> web.Response:
        port = request.url.port
        body = (
            '<html><head><title>home</title></head><body><a href="/p/0">start</a> '
            '<a href="/redirect/1">moved</a> <a href="/flaky/1">flaky</a> <a href="/limited">limited</a> '
            f'<a href="http://localhost:{port}/p/0">other host</a> '
            '<a href="/static/0">static</a></body></html>'
        )
        return web.Response(text=body, content_type="text/html")

    async def page(self, request: web.Request) -> web.Response:
        i = int(request.match_info["i"])
        if not 0 <= i < self.pages:
            raise web.HTTPNotFound()
        return web.Response(text=PAGE.format(i=i), content_type="text/html")

    async def static(self, request: web.Request) -> web.Response:
        i = int(request.match_info["i"])
        while i == 0 and self.hold is not None and not self.hold.is_set():
            await asyncio.sleep(0.02)  # the server's loop runs in its own thread; poll the test's gate
        links = " ".join(f'<a href="/static/{j}">item {j}</a>' for j in self.links_of(i))
        body = (
            f"<html><head><title>static {i}</title></head><body>{links}"
            f'<p class="body">{self.text_of(i)}</p></body></html>'
        )
        return web.Response(text=body, content_type="text/html")

    async def api(self, request: web.Request) -> web.Response:
        i = int(request.match_info["i"])
        return web.json_response({"links": self.links_of(i), "text": self.text_of(i)})

    async def redirect(self, request: web.Request) -> web.Response:
        raise web.HTTPFound(f"/p/{request.match_info['i']}")

    async def flaky(self, request: web.Request) -> web.Response:
        if self.counts[request.path] <= 2:
            return web.Response(status=503, text="try later")
        return web.Response(
            text="<html><title>flaky ok</title><body>recovered</body></html>", content_type="text/html"
        )

    async def limited(self, request: web.Request) -> web.Response:
        if self.counts[request.path] <= 1:
            return web.Response(status=429, text="slow down", headers={"Retry-After": "1"})
        return web.Response(
            text="<html><title>limited ok</title><body>fine now</body></html>", content_type="text/html"
        )

    async def private(self, request: web.Request) -> web.Response:
        return web.Response(text="<html><title>secret</title></html>", content_type="text/html")

    async def robots(self, request: web.Request) -> web.Response:
        lines = ["User-agent: *", "Disallow: /private/"]
        if self.crawl_delay:
            lines.append(f"Crawl-delay: {self.crawl_delay}")
        return web.Response(text="\n".join(lines) + "\n")

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._log])
        app.add_routes(
            [
                web.get("/", self.index),
                web.get("/p/{i}", self.page),
                web.get("/static/{i}", self.static),
                web.get("/api/{i}", self.api),
                web.get("/redirect/{i}", self.redirect),
                web.get("/flaky/{i}", self.flaky),
                web.get("/limited", self.limited),
                web.get("/private/{tail:.*}", self.private),
                web.get("/robots.txt", self.robots),
            ]
        )
        return app
