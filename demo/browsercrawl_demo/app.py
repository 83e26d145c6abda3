"""The demo community site: an aiohttp app that is hard to crawl in the ways real communities are.

Run it with ``browsercrawl demo serve [--port P] [--seed S] ...``, in-process with
``async with run_demo_site(DemoConfig(port=0)) as site: ...``, or from sync code with
``with demo_site_in_thread(DemoConfig(port=0)) as site: ...``. It listens on 127.0.0.1 only.
Content is generated deterministically from the seed (``content.py``); ``browsercrawl demo truth``
dumps what the site serves (``truth.py``). Full reference: ``docs/demo-site.md``.

URLs (``L`` = login required: logged out, HTML pages 302 to ``/login?next=<path?query>``,
``/api/*`` answers 401 JSON ``{"error": ..., "login": "/login?next=..."}``)::

    /                           public home: welcome, board links, /about, /rules, /login
    /robots.txt                 public; ``Disallow: /admin/``
    /about, /rules              public plain server-rendered pages (the adaptive path skips them)
    /login                      GET form (csrf_token, captcha); POST -> 302 next (default /feed),
                                or for a member with two-factor login on -> 302 /login/otp
    /login/otp                  GET the code form (input autocomplete=one-time-code); POST the
                                member's current TOTP code (pyotp, seed ``auth.totp_secret_for``)
    /captcha.png?r=NONCE        public; same r = same image, new r = new answer
    /logout                     ends the session (recorded as a mutation), 302 /
    /static/site.js, site.css   public
    /admin/...                  403 always (disallowed by robots.txt)
    /__clock                    GET site time; POST /__clock/advance?seconds=N; both need the
                                header ``X-Demo-Admin: <admin token>`` (403 without)
  L /feed                       client-rendered from /api/feed, infinite scroll to a known total
  L /members                    every member in a virtual-scrolled list (#member-scroller): about a
                                dozen a.member-row elements exist, reused as it scrolls
  L /boards                     all 20 boards (plain links)
  L /board/<id>?page=N          thread list rendered from /api/board/<id>/threads?page=N with
                                infinite scroll; plain <a rel=next href="?page=N+1"> links too
  L /boards/cards               a link to every board's card (linked from no other page)
  L /board/<id>/card            client-rendered from /api/board/<id> (the API shortcut's demo)
  L /t/<id>-<slug>              TARGET page: thread; wrong/missing slug -> 301 canonical
  L /files/<thread id>/<name>   attachment (body really has data-size bytes)
  L /u/<name>, /u/<name>/       profile (same page; canonical /u/<name>); tabs load from the API
  L /member?id=<n>              302 -> /u/<name>
  L /tag/<word>?page=N          server-rendered, 20 per page
  L /search?q=...&page=N        server-rendered results over thread titles and bodies (the listed
                                threads and the search-only ones of unlisted.py)
  L /api/search?q=...&page=N    the same as JSON, for the header's quick search (quicksearch.py)
  L /help/<topic>, /legal/<doc> noise pages, 10 each, linking to each other
  L /archive/<year>/<month>     trap: always links to the next month, forever
  L POST /account/delete        ``button.danger`` (form with csrf_token): marks the account deleted
  L /api/feed?cursor=C          {total, items, next_cursor}; 20 per page, cursor null at the end
  L /api/board/<id>                           {id, name, description, url, threads, latest}
  L /api/board/<id>/threads?page=N            {board, page, pages, total, next_page, items}
  L /api/thread/<id>/comments?offset=N        {thread, offset, total, next_offset, items}; 10
  L /api/user/<name>/(posts|following|followers)?page=N   {member, kind, page, pages, ...}; 20
  L POST /api/thread/<id>/like, POST /api/user/<name>/follow   need header X-CSRF-Token

Sessions: cookie ``sid`` (HttpOnly). Logged-in sessions expire after ``session_ttl_seconds``
of wall time or ``session_max_requests`` requests to ``L`` URLs (the next one redirects to
login). Login errors re-show the form (HTTP 200, ``.error``: "wrong captcha", "wrong username or
password", "account locked"; a bad CSRF token gives HTTP 403). Rate limit: more than
``rate_limit`` requests per second from one client IP (static files exempt) get 429 with
``Retry-After``.

Test API (in-process only): ``site.url``, ``site.state.captcha_answer_for(sid | csrf | nonce)``,
``site.clock.advance(seconds)`` (site time), ``site.state.auth.advance(seconds)`` (session/lock
time), ``site.state.mutations`` (every follow/like/delete/logout), ``site.state.content``,
``site.config.admin_token``. Accounts: username = member name, password =
``auth.password_for(name, seed)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import secrets
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlencode

from aiohttp import web

from browsercrawl_demo import api, pages, quicksearch, shared, views
from browsercrawl_demo.config import HOST, DemoConfig
from browsercrawl_demo.content import DemoClock, generate, iso
from browsercrawl_demo.state import DemoState

STATIC_DIR = Path(__file__).parent / "static"
PUBLIC_PATHS = frozenset({"/", "/robots.txt", "/about", "/rules", "/login", "/login/otp", "/captcha.png",
                          "/logout", "/favicon.ico", "/__clock", "/__clock/advance"})
PUBLIC_PREFIXES = ("/static/", "/admin")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
routes = web.RouteTableDef()


class RateLimiter:
    """Token bucket per client IP: ``rate`` requests per second, bursts of up to ``rate``."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.capacity = max(1.0, rate)
        self.buckets: dict[str, tuple[float, float]] = {}

    def retry_after(self, client: str) -> int | None:
        """None if the request may pass, else whole seconds until it would."""
        now = time.monotonic()
        tokens, last = self.buckets.get(client, (self.capacity, now))
        tokens = min(self.capacity, tokens + (now - last) * self.rate)
        if tokens >= 1:
            self.buckets[client] = (tokens - 1, now)
            return None
        self.buckets[client] = (tokens, now)
        return max(1, math.ceil((1 - tokens) / self.rate))


LIMITER: web.AppKey[RateLimiter | None] = web.AppKey("demo_limiter")


def _is_public(path: str) -> bool:
    return path in PUBLIC_PATHS or path.startswith(PUBLIC_PREFIXES)


def login_url(next_path: str) -> str:
    return "/login?next=" + quote(next_path, safe="/")


@web.middleware
async def rate_limit_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    limiter: RateLimiter | None = request.app[LIMITER]
    if limiter and not request.path.startswith("/static/"):
        wait = limiter.retry_after(request.remote or "?")
        if wait is not None:
            return web.Response(status=429, text="Too many requests; slow down.\n",
                                headers={"Retry-After": str(wait)})
    return await handler(request)


@web.middleware
async def auth_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Public paths see the session if any; every other path needs a live logged-in session."""
    state = shared.state(request)
    sid = request.cookies.get(shared.COOKIE)
    if _is_public(request.path):
        request[shared.SESSION] = state.auth.get(sid)
        return await handler(request)
    session = state.auth.user_session(sid)
    if session is None:
        target = login_url(request.path_qs)
        if request.path.startswith("/api/"):
            return web.json_response({"error": "login required", "login": target}, status=401)
        raise web.HTTPFound(target)
    request[shared.SESSION] = session
    return await handler(request)




def _html(text: str, status: int = 200) -> web.Response:
    return web.Response(text=text, status=status, content_type="text/html")


def _viewer(request: web.Request) -> str | None:
    s = shared.session(request)
    return s.user if s else None


@routes.get("/")
async def home(request: web.Request) -> web.Response:
    return _html(pages.home(shared.state(request).content.boards, _viewer(request)))


@routes.get("/robots.txt")
async def robots(request: web.Request) -> web.Response:
    return web.Response(text=pages.robots_txt(), content_type="text/plain")


@routes.get("/about")
async def about(request: web.Request) -> web.Response:
    return _html(pages.static_page("about", _viewer(request)))


@routes.get("/rules")
async def rules(request: web.Request) -> web.Response:
    return _html(pages.static_page("rules", _viewer(request)))


def _safe_next(raw: str | None) -> str:
    """Only local paths; never back to the login or logout pages (an open-redirect guard)."""
    if not raw or not raw.startswith("/") or raw.startswith("//") or "\\" in raw:
        return "/feed"
    if raw.split("?")[0] in ("/login", "/login/otp", "/logout"):
        return "/feed"
    return raw


def _login_form(request: web.Request, next_path: str, error: str = "", username: str = "",
                status: int = 200) -> web.Response:
    state = shared.state(request)
    s = shared.session(request)
    if s is None or s.user is not None:
        s = state.auth.new_session()
    nonce = state.auth.new_captcha(s) if state.auth.require_captcha else None
    response = _html(pages.login_form(csrf=s.csrf, next_path=next_path, captcha_nonce=nonce,
                                      error=error, username=username), status=status)
    shared.set_session_cookie(response, s)
    return response


@routes.get("/login")
async def login_get(request: web.Request) -> web.Response:
    next_path = _safe_next(request.query.get("next"))
    s = shared.session(request)
    if s is not None and s.user is not None:
        raise web.HTTPFound(next_path)
    return _login_form(request, next_path)


@routes.post("/login")
async def login_post(request: web.Request) -> web.Response:
    state = shared.state(request)
    form = await request.post()
    next_path = _safe_next(str(form.get("next") or request.query.get("next") or ""))
    s = shared.session(request)
    username = str(form.get("username", "")).strip()
    result = state.auth.attempt(
        s if s is not None and s.user is None else None,
        str(form.get("csrf_token", "")), username, str(form.get("password", "")),
        str(form.get("captcha", "")),
    )
    if result.needs_code:
        raise web.HTTPFound("/login/otp?" + urlencode({"next": next_path}))
    if not result.ok:
        status = 403 if "CSRF" in result.error else 200
        return _login_form(request, next_path, result.error, username, status)
    response = web.HTTPFound(next_path)
    assert result.session is not None
    shared.set_session_cookie(response, result.session)
    raise response


@routes.get("/login/otp")
async def otp_get(request: web.Request) -> web.Response:
    next_path = _safe_next(request.query.get("next"))
    s = shared.session(request)
    if s is None or s.otp_pending is None:
        raise web.HTTPFound(login_url(next_path))
    return _html(pages.otp_form(csrf=s.csrf, next_path=next_path))


@routes.post("/login/otp")
async def otp_post(request: web.Request) -> web.Response:
    state = shared.state(request)
    form = await request.post()
    next_path = _safe_next(str(form.get("next") or request.query.get("next") or ""))
    s = shared.session(request)
    result = state.auth.attempt_code(s, str(form.get("csrf_token", "")), str(form.get("otp", "")))
    if not result.ok:
        if s is None or s.otp_pending is None:  # expired, or locked: start again
            return _login_form(request, next_path, result.error, "", 403 if "CSRF" in result.error else 200)
        return _html(pages.otp_form(csrf=s.csrf, next_path=next_path, error=result.error))
    response = web.HTTPFound(next_path)
    assert result.session is not None
    shared.set_session_cookie(response, result.session)
    raise response


@routes.get("/captcha.png")
async def captcha(request: web.Request) -> web.Response:
    state = shared.state(request)
    s = shared.session(request)
    fresh = s is None or s.user is not None
    if fresh:
        s = state.auth.new_session()
    assert s is not None
    png = await state.auth.captcha_png(s, request.query.get("r") or secrets.token_hex(6))
    response = web.Response(body=png, content_type="image/png",
                            headers={"Cache-Control": "no-store"})
    if fresh:
        shared.set_session_cookie(response, s)
    return response


@routes.get("/logout")
async def logout(request: web.Request) -> web.Response:
    state, s = shared.state(request), shared.session(request)
    if s is not None and s.user is not None:
        state.record("logout", s.user, "/logout")
        state.auth.end(s.sid)
    response = web.HTTPFound("/")
    response.del_cookie(shared.COOKIE, path="/")
    raise response


@routes.route("*", "/admin{tail:.*}")
async def admin(request: web.Request) -> web.Response:
    return _html(pages.error_page(403, "Forbidden.", _viewer(request)), status=403)


def _admin_ok(request: web.Request) -> bool:
    token = request.headers.get("X-Demo-Admin", "")
    return bool(token) and secrets.compare_digest(token, shared.state(request).config.admin_token)


@routes.get("/__clock")
async def clock_get(request: web.Request) -> web.Response:
    if not _admin_ok(request):
        return web.json_response({"error": "X-Demo-Admin header missing or wrong"}, status=403)
    return web.json_response({"now": iso(shared.state(request).clock.now())})


@routes.post("/__clock/advance")
async def clock_advance(request: web.Request) -> web.Response:
    if not _admin_ok(request):
        return web.json_response({"error": "X-Demo-Admin header missing or wrong"}, status=403)
    try:
        seconds = float(request.query.get("seconds", ""))
    except ValueError:
        seconds = -1.0
    if not (math.isfinite(seconds) and seconds >= 0):
        return web.json_response({"error": "seconds must be a number >= 0"}, status=400)
    return web.json_response({"now": iso(shared.state(request).clock.advance(seconds))})


@web.middleware
async def not_found_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Site-styled 404 pages (JSON under /api/) instead of aiohttp's plain text."""
    try:
        return await handler(request)
    except web.HTTPNotFound:
        if request.path.startswith("/api/"):
            return web.json_response({"error": "not found"}, status=404)
        return views.not_found(request, "There is no such page.")


def make_app(state: DemoState) -> web.Application:
    """The aiohttp application for an already-built state."""
    app = web.Application(middlewares=[rate_limit_middleware, auth_middleware,
                                       not_found_middleware])
    app[shared.STATE] = state
    app[LIMITER] = RateLimiter(state.config.rate_limit) if state.config.rate_limit else None
    app.add_routes(routes)
    app.add_routes(views.routes)
    app.add_routes(api.routes)
    app.add_routes(quicksearch.routes)
    app.router.add_static("/static/", STATIC_DIR)
    return app


@dataclass
class DemoSite:
    """A running demo site. ``url`` ends without a slash: ``site.url + "/login"``."""

    url: str
    port: int
    config: DemoConfig
    state: DemoState
    runner: web.AppRunner

    @property
    def clock(self) -> DemoClock:
        return self.state.clock

    async def stop(self) -> None:
        await self.runner.cleanup()


async def start_demo_site(config: DemoConfig) -> DemoSite:
    """Generate the content (in a worker thread) and start serving on 127.0.0.1."""
    config.validate()
    content = await asyncio.to_thread(generate, config.seed, config.members, config.threads)
    state = DemoState.build(config, content)
    log_kwargs = {} if config.log_requests else {"access_log": None}  # no per-request logging
    runner = web.AppRunner(make_app(state), handle_signals=False, **log_kwargs)
    await runner.setup()
    site = web.TCPSite(runner, HOST, config.port, reuse_address=True)
    try:
        await site.start()
    except OSError as exc:
        await runner.cleanup()
        from browsercrawl.errors import UserError

        raise UserError(f"cannot listen on {HOST}:{config.port}: {exc.strerror}") from exc
    server = site._server
    assert server is not None and server.sockets
    port = server.sockets[0].getsockname()[1]
    return DemoSite(f"http://{HOST}:{port}", port, config, state, runner)


@contextlib.asynccontextmanager
async def run_demo_site(config: DemoConfig) -> AsyncIterator[DemoSite]:
    """``async with run_demo_site(DemoConfig(port=0)) as site:`` - stopped on exit."""
    site = await start_demo_site(config)
    try:
        yield site
    finally:
        await site.stop()


@contextlib.contextmanager
def demo_site_in_thread(config: DemoConfig) -> Iterator[DemoSite]:
    """For sync code (e.g. tests that run the crawler CLI in a subprocess against the site).

    The site runs on its own event loop in a daemon thread; ``site.state`` may be read from the
    caller's thread (``captcha_answer_for``, ``mutations``); advance the clock with
    ``site.clock.advance`` only while no request is in flight, or use ``POST /__clock/advance``.
    """
    loop = asyncio.new_event_loop()
    ready: dict[str, object] = {}
    started = threading.Event()

    async def main() -> None:
        try:
            ready["site"] = await start_demo_site(config)
        except BaseException as exc:  # reported to the caller's thread below
            ready["error"] = exc
        finally:
            started.set()

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(main())
        if "site" in ready:
            loop.run_forever()
        loop.close()

    thread = threading.Thread(target=run, name="demo-site", daemon=True)
    thread.start()
    started.wait()
    if "error" in ready:
        thread.join()
        raise ready["error"]  # type: ignore[misc]
    site = ready["site"]
    assert isinstance(site, DemoSite)
    try:
        yield site
    finally:
        asyncio.run_coroutine_threadsafe(site.stop(), loop).result(timeout=30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=30)
