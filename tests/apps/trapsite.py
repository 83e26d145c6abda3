"""A site with the crawler traps of real sites around a small set of real pages.

- ``/calendar?month=YYYY-MM``: a month with links to the previous and the next month, forever;
  months of 2024 list the events of that month.
- ``/list?offset=N``: a listing whose "more" link always adds 10 to the offset, forever.
- ``/docs/``: a page whose relative link ``more/`` gives ``/docs/more/more/...`` forever.
- ``/shop``: every link carries a fresh ``PHPSESSID``, so each visit looks like new pages.
- The real pages: ``/``, ``/about``, ``/articles/<i>``, ``/events/<i>`` and ``/shop/item/<i>``;
  :attr:`TrapSite.real_paths` lists them.
"""

from __future__ import annotations

import secrets
from collections import Counter

from aiohttp import web

ARTICLES = 12
EVENTS = {i: f"2024-{(i % 6) + 1:02d}" for i in range(8)}  # event -> month
ITEMS = 5


def _page(title: str, body: str) -> web.Response:
    html = f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>"
    return web.Response(text=html, content_type="text/html")


def _shift(month: str, by: int) -> str:
    year, mon = (int(x) for x in month.split("-"))
    n = year * 12 + (mon - 1) + by
    return f"{n // 12:04d}-{n % 12 + 1:02d}"


class TrapSite:
    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()

    @property
    def real_paths(self) -> set[str]:
        return ({"/", "/about", "/docs/", "/shop"} | {f"/articles/{i}" for i in range(ARTICLES)}
                | {f"/events/{i}" for i in EVENTS} | {f"/shop/item/{i}" for i in range(ITEMS)})

    @web.middleware
    async def _count(self, request: web.Request, handler):
        self.counts[request.path_qs] += 1
        return await handler(request)

    async def index(self, request: web.Request) -> web.Response:
        links = " ".join(f'<a href="/articles/{i}">article {i}</a>' for i in range(0, ARTICLES, 3))
        return _page("home", f'<a href="/about">about</a> <a href="/calendar?month=2024-03">calendar</a> '
                             f'<a href="/list?offset=0">all articles</a> <a href="/docs/">docs</a> '
                             f'<a href="/shop">shop</a> {links}')

    async def about(self, request: web.Request) -> web.Response:
        return _page("about", '<a href="/">home</a> <p>About this site.</p>')

    async def article(self, request: web.Request) -> web.Response:
        i = int(request.match_info["i"])
        if not 0 <= i < ARTICLES:
            raise web.HTTPNotFound()
        nxt = f'<a href="/articles/{i + 1}">next</a>' if i + 1 < ARTICLES else ""
        return _page(f"article {i}", f'<a href="/">home</a> {nxt} <p>Article {i} text.</p>')

    async def event(self, request: web.Request) -> web.Response:
        i = int(request.match_info["i"])
        if i not in EVENTS:
            raise web.HTTPNotFound()
        return _page(f"event {i}", f'<a href="/calendar?month={EVENTS[i]}">its month</a> <p>Event {i}.</p>')

    async def calendar(self, request: web.Request) -> web.Response:
        month = request.query.get("month", "2024-03")
        events = " ".join(f'<a href="/events/{i}">event {i}</a>' for i, m in EVENTS.items() if m == month)
        return _page(f"calendar {month}",
                     f'<a href="/calendar?month={_shift(month, -1)}">previous</a> '
                     f'<a href="/calendar?month={_shift(month, 1)}">next</a> {events or "no events"}')

    async def listing(self, request: web.Request) -> web.Response:
        offset = int(request.query.get("offset", "0"))
        shown = " ".join(f'<a href="/articles/{i}">article {i}</a>'
                         for i in range(offset, min(offset + 10, ARTICLES)))
        return _page(f"list {offset}", f'{shown} <a href="/list?offset={offset + 10}">more</a>')

    async def docs(self, request: web.Request) -> web.Response:
        return _page("docs", '<a href="more/">more docs</a> <a href="/">home</a>')

    async def shop(self, request: web.Request) -> web.Response:
        sid = secrets.token_hex(13)
        items = " ".join(f'<a href="/shop/item/{i}?PHPSESSID={sid}">item {i}</a>' for i in range(ITEMS))
        return _page("shop", f'{items} <a href="/shop?PHPSESSID={sid}">shop home</a>')

    async def item(self, request: web.Request) -> web.Response:
        i = int(request.match_info["i"])
        sid = secrets.token_hex(13)
        return _page(f"item {i}", f'<a href="/shop/item/{(i + 1) % ITEMS}?PHPSESSID={sid}">next item</a> '
                                  f'<a href="/shop?PHPSESSID={sid}">shop</a>')

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._count])
        app.add_routes([
            web.get("/", self.index), web.get("/about", self.about),
            web.get("/articles/{i:\\d+}", self.article), web.get("/events/{i:\\d+}", self.event),
            web.get("/calendar", self.calendar), web.get("/list", self.listing),
            web.get("/docs/{rest:.*}", self.docs), web.get("/shop", self.shop),
            web.get("/shop/item/{i:\\d+}", self.item),
        ])
        return app
