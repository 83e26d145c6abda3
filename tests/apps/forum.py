"""A small logged-in forum whose sessions die after a few requests and that says so in one of the
quiet ways real sites do (no redirect to the login page, nothing configured on the crawler's side).

``gone`` picks what a protected URL answers once the session is gone:

- ``"403"``: HTTP 403 "Forbidden" with neither a login form nor a sign-in link;
- ``"signin"``: HTTP 200, a guest version of the page with a "Sign in" link in the header;
- ``"plain"``: HTTP 200, a page that only lacks the logged-in header (no logout link).

Logged-in pages carry ``<a id="logout" href="/logout">Log out</a>``, except ``/print/<i>``, which
never has a header. ``/t/13`` is forbidden to everyone (403, logged-in header shown). People
``/u/<i>`` list whom they follow through ``/api/u/<i>/follows?page=N`` (JSON, 403 when the session
is gone); ``always_refuse`` names people whose list is refused even to a live session.
"""

from __future__ import annotations

import secrets
from collections import Counter
from dataclasses import dataclass, field

from aiohttp import web

PASSWORD = "correct horse forum"
USER = "ann"
THREADS = 24
PEOPLE = 8


def follows_of(i: int) -> list[int]:
    return sorted({(i + 1) % PEOPLE, (i + 3) % PEOPLE} - {i})


@dataclass
class Forum:
    gone: str = "403"
    max_requests: int = 7  # protected requests one session may make
    always_refuse: set[int] = field(default_factory=set)
    sessions: dict[str, int] = field(default_factory=dict)  # sid -> requests made
    logins: int = 0
    counts: Counter[str] = field(default_factory=Counter)

    # -- sessions ------------------------------------------------------------------------------
    def _live(self, request: web.Request) -> bool:
        sid = request.cookies.get("sid")
        if sid not in self.sessions or self.sessions[sid] >= self.max_requests:
            return False
        self.sessions[sid] += 1
        return True

    def _page(self, title: str, body: str, *, signed: bool = True, status: int = 200) -> web.Response:
        head = ('<header><span class="me">ann</span> <a id="logout" href="/logout">Log out</a></header>'
                if signed else "")
        html = f"<!doctype html><html><head><title>{title}</title></head><body>{head}{body}</body></html>"
        return web.Response(text=html, content_type="text/html", status=status)

    def _gone_page(self, title: str) -> web.Response:
        if self.gone == "403":
            return self._page("Forbidden", "<h1>Forbidden</h1><p>You may not see this.</p>",
                              signed=False, status=403)
        if self.gone == "signin":
            return self._page(title, '<header><a href="/login">Sign in</a></header><p>Hello, guest.</p>',
                              signed=False)
        return self._page(title, "<p>This content is not available.</p>", signed=False)

    # -- handlers ------------------------------------------------------------------------------
    async def login_form(self, request: web.Request) -> web.Response:
        return self._page("Log in", '<form method="post" action="/login"><input name="username">'
                                    '<input type="password" name="password"><button>Log in</button></form>',
                          signed=False)

    async def login(self, request: web.Request) -> web.Response:
        form = await request.post()
        if form.get("username") != USER or form.get("password") != PASSWORD:
            return self._page("Log in", '<p class="error">wrong username or password</p>', signed=False)
        sid = secrets.token_hex(8)
        self.sessions[sid] = 0
        self.logins += 1
        resp = web.HTTPFound("/home")
        resp.set_cookie("sid", sid, httponly=True)
        raise resp

    async def home(self, request: web.Request) -> web.Response:
        if not self._live(request):
            return self._gone_page("home")
        threads = " ".join(f'<a href="/t/{i}">thread {i}</a>' for i in range(1, THREADS + 1))
        people = " ".join(f'<a href="/u/{i}">person {i}</a>' for i in range(PEOPLE))
        return self._page("home", f"<main>{threads} {people} <a href='/print/1'>print</a></main>")

    async def thread(self, request: web.Request) -> web.Response:
        i = int(request.match_info["i"])
        if not self._live(request):
            return self._gone_page(f"thread {i}")
        if i == 13:
            return self._page("Forbidden", "<p>This board is for moderators.</p>", status=403)
        return self._page(f"thread {i}", f'<main><p class="post">Post of thread {i}.</p>'
                                          f'<a href="/print/{i}">print</a></main>')

    async def printable(self, request: web.Request) -> web.Response:
        i = int(request.match_info["i"])
        if not self._live(request):
            return self._gone_page(f"print {i}")
        return self._page(f"print {i}", f"<p>Printable thread {i}.</p>", signed=False)

    async def person(self, request: web.Request) -> web.Response:
        i = int(request.match_info["i"])
        if not self._live(request):
            return self._gone_page(f"person {i}")
        return self._page(f"person {i}", f'<h1 class="name">person {i}</h1>')

    async def follows(self, request: web.Request) -> web.Response:
        i = int(request.match_info["i"])
        if not self._live(request) or i in self.always_refuse:
            return web.json_response({"error": "forbidden"}, status=403)
        page = int(request.query.get("page", "1"))
        entries = [{"url": f"/u/{j}"} for j in follows_of(i)] if page == 1 else []
        return web.json_response({"items": entries, "next": None})

    @web.middleware
    async def _count(self, request: web.Request, handler):
        self.counts[request.path] += 1
        return await handler(request)

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._count])
        app.add_routes([
            web.get("/login", self.login_form), web.post("/login", self.login),
            web.get("/home", self.home), web.get("/t/{i:\\d+}", self.thread),
            web.get("/print/{i:\\d+}", self.printable), web.get("/u/{i:\\d+}", self.person),
            web.get("/api/u/{i:\\d+}/follows", self.follows),
        ])
        return app
