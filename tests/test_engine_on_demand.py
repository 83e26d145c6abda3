"""Auto mode pays for the browser only while a URL shape needs it.

A shape whose HTML runs no script is judged without rendering; a scripted shape is compared, then
the browser closes once every shape is decided for HTTP, and opens again for a new shape that needs
it. Cookies the browser held (set by a page's script, or a login) survive the close.
"""

from __future__ import annotations

import asyncio
import sqlite3

import pytest
from aiohttp import web

from browsercrawl.config import parse_job
from browsercrawl.engine.crawler import Crawler
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.engine.parse import parse_page
from browsercrawl.engine.parts import SimplePart
from browsercrawl.engine.router import AdaptiveRouter
from tests.apps.server import serve_in_thread

CHAIN = 8  # /a/0 -> /a/1 -> ... -> /a/7 -> /b/0 -> ... -> /b/3

# Runs in the browser but changes nothing the snapshot reads: the /a/ shape is static.
_COOKIE_SCRIPT = '<script>document.cookie = "js=1; path=/";</script>'
# Fills the page from data only the script has: the /b/ shape needs the browser.
_FILL_SCRIPT = ("<script>document.getElementById('c').innerHTML = "
                "'<p>filled by script {i}</p>{link}';</script>")


class ChainSite:
    """A chain of pages (each links to the next only), so the order of fetches is known."""

    def __init__(self, scripted_a: bool, members_only: bool = False) -> None:
        self.scripted_a = scripted_a
        self.members_only = members_only
        self.cookies: dict[str, dict[str, str]] = {}  # path -> cookies of its last request

    def app(self) -> web.Application:
        async def page(request: web.Request) -> web.Response:
            self.cookies[request.path] = dict(request.cookies)
            if self.members_only and request.cookies.get("member") != "yes":
                return web.Response(text="<html><title>login</title><body>please log in</body></html>",
                                    content_type="text/html")
            kind, i = request.match_info["kind"], int(request.match_info["i"])
            if kind == "a":
                nxt = f'<a href="/a/{i + 1}">next</a>' if i + 1 < CHAIN else '<a href="/b/0">next</a>'
                script = _COOKIE_SCRIPT if self.scripted_a else ""
                body = f"<p>static page {i}</p>{nxt}{script}"
            else:
                link = f'<a href="/b/{i + 1}">next</a>' if i < 3 else ""
                body = '<div id="c">loading</div>' + _FILL_SCRIPT.format(i=i, link=link.replace("'", "\\'"))
            return web.Response(text=f"<html><title>{kind}{i}</title><body>{body}</body></html>",
                                content_type="text/html")

        app = web.Application()
        app.add_routes([web.get("/{kind:[ab]}/{i:\\d+}", page)])
        return app


def run(tmp_path, base: str, parts=()) -> dict:
    job = parse_job({
        "seeds": [f"{base}/a/0"],
        "output": {"database": str(tmp_path / "crawl.db")},
        "rendering": {"mode": "auto", "auto_sample_pages": 2, "auto_recheck_every": 0},
        "politeness": {"concurrency": 2, "per_host_concurrency": 2, "obey_robots": False},
    }, tmp_path / "job.toml")
    return asyncio.run(Crawler(job, CrawlOptions(quiet=True), list(parts)).run()).as_dict()


def stored(tmp_path) -> dict[str, tuple[str, str, str]]:
    with sqlite3.connect(tmp_path / "crawl.db") as conn:
        return {u.rsplit(":", 1)[1].split("/", 1)[1]: (via, title, text)
                for u, via, title, text in conn.execute("SELECT url, via, title, text FROM pages")}


def test_a_page_that_runs_no_script_is_known_static_from_its_html():
    plain = parse_page("<html><body><p>hi</p><script type='application/ld+json'>{}</script></body></html>",
                       "http://x/")
    assert plain.scripted is False and plain.text == "hi"
    assert parse_page("<html><head><script src='/a.js'></script></head><body>x</body></html>", "http://x/").scripted
    assert parse_page("<html><body><script type=module>x()</script></body></html>", "http://x/").scripted
    assert parse_page("<html><body><img src=x onerror='go()'></body></html>", "http://x/").scripted


def test_one_mismatch_decides_a_shape_but_a_match_needs_every_sample():
    router = AdaptiveRouter(sample_pages=3)
    assert asyncio.run(router.choose("http://h/x/1")) == "compare"
    router.record("http://h/x/1", False)
    assert router.summary() == {"h/x/{id}": "browser"} and router.browser_needed()
    assert asyncio.run(router.choose("http://h/y/1")) == "compare"
    router.record("http://h/y/1", True, rendered=False)
    assert router.summary()["h/y/{id}"] == "undecided"
    assert router.browser_needed()  # /x/ renders


@pytest.mark.browser
def test_auto_mode_never_launches_the_browser_for_pages_without_scripts(tmp_path, port):
    site = ChainSite(scripted_a=False)
    with serve_in_thread(site.app(), port) as base:
        summary = run(tmp_path, base)
    pages = stored(tmp_path)
    assert all(pages[f"a/{i}"][0] == "http" for i in range(CHAIN))
    # The /b/ pages need the script: the browser opened for them only.
    assert all(pages[f"b/{i}"][0] == "browser" and f"filled by script {i}" in pages[f"b/{i}"][2]
               for i in range(4))
    assert summary["browser_launches"] == 1
    assert summary["adaptive"][f"127.0.0.1:{port}/a/{{id}}"] == "http"


@pytest.mark.browser
def test_auto_mode_closes_the_browser_after_the_verdict_and_keeps_its_cookies(tmp_path, port):
    site = ChainSite(scripted_a=True)
    with serve_in_thread(site.app(), port) as base:
        summary = run(tmp_path, base)
    pages = stored(tmp_path)
    assert len(pages) == CHAIN + 4
    # Two samples of /a/ rendered; the browser then closed (nothing needed it) and opened again
    # for /b/, whose pages need the script.
    assert summary["adaptive"][f"127.0.0.1:{port}/a/{{id}}"] == "http"
    assert summary["adaptive"][f"127.0.0.1:{port}/b/{{id}}"] == "browser"
    assert summary["browser_launches"] == 2
    assert all(pages[f"a/{i}"][0] == "http" for i in range(2, CHAIN))
    assert all(f"filled by script {i}" in pages[f"b/{i}"][2] for i in range(4))
    # The cookie the samples' script set in the browser reached the HTTP path after the close.
    assert all(site.cookies[f"/a/{i}"].get("js") == "1" for i in range(2, CHAIN)), site.cookies


class LoginOnce:
    """A context factory like the session part's: logs in once, then hands the state on."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.logins = 0
        self.state: dict | None = None

    async def __call__(self, browser, previous):
        if previous is not None:
            self.state = await previous.storage_state()
        if self.state is not None:
            return await browser.new_context(storage_state=self.state)
        ctx = await browser.new_context()
        await ctx.add_cookies([{"name": "member", "value": "yes", "url": self.base}])
        self.logins += 1
        return ctx


@pytest.mark.browser
def test_a_login_survives_closing_and_reopening_the_browser(tmp_path, port):
    site = ChainSite(scripted_a=True, members_only=True)
    with serve_in_thread(site.app(), port) as base:
        factory = LoginOnce(base)
        summary = run(tmp_path, base, [SimplePart(context_factory=factory)])
    pages = stored(tmp_path)
    assert sorted(title for _, title, _ in pages.values()) == sorted(
        [f"a{i}" for i in range(CHAIN)] + [f"b{i}" for i in range(4)])  # never the login page
    assert summary["browser_launches"] == 2
    assert factory.logins == 1  # the reopened browser's context came from the kept state
    assert all(pages[f"a/{i}"][0] == "http" for i in range(2, CHAIN))
