"""The navigation guard pauses only the documents that might leave the scope: its ``Fetch`` patterns
are the complement of the trusted origins, so the crawl's own pages load without a round trip to
Python while a redirect, a script or a refresh to any other server is still judged and stopped."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from aiohttp import web

from browsercrawl.config import ScopeConfig
from browsercrawl.engine.navigation import NavigationGuard, outside_patterns
from browsercrawl.frontier.scope import Scope
from tests.apps.server import serve_in_thread
from tests.conftest import free_port

STAR, ONE = object(), object()  # a pattern's ``*`` and ``?``, apart from a literal one


def fetch_pattern_matches(pattern: str, url: str) -> bool:
    """Chromium's ``base::MatchPattern`` as the ``Fetch`` domain documents it, written apart from
    the code under test: ``*`` any run, ``?`` one character, a backslash makes the next literal.
    Matched by the usual two-pointer walk (back to the last ``*`` on a miss), which takes time
    linear in pattern times URL; a regular expression of many ``.*`` backtracks for minutes on
    the near misses below."""
    tokens: list[object] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            tokens.append(pattern[i + 1])
            i += 2
            continue
        tokens.append(STAR if c == "*" else ONE if c == "?" else c)
        i += 1
    t = u = 0
    star, resume = -1, 0
    while u < len(url):
        if t < len(tokens) and (tokens[t] is ONE or tokens[t] == url[u]):
            t, u = t + 1, u + 1
        elif t < len(tokens) and tokens[t] is STAR:
            star, resume = t, u
            t += 1
        elif star >= 0:
            resume += 1
            t, u = star + 1, resume
        else:
            return False
    while t < len(tokens) and tokens[t] is STAR:
        t += 1
    return t == len(tokens)


def paused(patterns: list[str], url: str) -> bool:
    return any(fetch_pattern_matches(p, url) for p in patterns)


def near_misses(prefix: str, rng: random.Random) -> list[str]:
    """URLs that share a start with ``prefix`` and then leave it, end early, or stay under it."""
    out = []
    for cut in range(1, len(prefix) + 1):  # a request always has a URL
        out.append(prefix[:cut])
        for _ in range(3):
            out.append(prefix[:cut] + chr(rng.randrange(0x20, 0x7F)) + "tail?q=*\\x")
    out += [prefix + "page?x=1", prefix, prefix.upper(), prefix.replace("http", "https", 1) + "a"]
    return out


@pytest.mark.parametrize("prefixes", [
    ["http://127.0.0.1:8080/"],
    ["http://127.0.0.1:8080/", "http://127.0.0.1:8081/", "https://example.org/"],
    ["http://[::1]:9000/", "http://a*b?c\\d/"],  # wildcard and escape characters stay literal
    ["http://a.test/", "http://a.test/deeper/"],  # a prefix under another adds nothing
])
def test_patterns_pause_exactly_the_urls_outside_every_prefix(prefixes):
    patterns = outside_patterns(prefixes)
    rng = random.Random(7)
    urls = [u for p in prefixes for u in near_misses(p, rng)]
    urls += ["about:blank", "data:text/html,x", "http://other.test/", "http://127.0.0.1:808/",
             "http://127.0.0.1:80800/", "http://127.0.0.1:8080@evil.test/"]
    for url in urls:
        outside = not any(url.startswith(p) for p in prefixes)
        assert paused(patterns, url) == outside, url


@pytest.mark.parametrize(("pattern", "url", "matches"), [
    ("a*c", "abbbc", True), ("a*c", "abbb", False), ("a?c", "abc", True), ("a?c", "ac", False),
    ("a\\*c", "a*c", True), ("a\\*c", "abc", False), ("a\\?", "a?", True), ("a\\?", "ab", False),
    ("*", "", True), ("*b*", "aaab", True), ("*b*c", "abab", False), ("x*y*z", "xyyzz", True),
])
def test_the_reference_matcher_reads_patterns_as_chromium_documents(pattern, url, matches):
    assert fetch_pattern_matches(pattern, url) == matches


def test_no_trusted_origin_pauses_every_document():
    assert outside_patterns([]) == ["*"]


def test_seed_origin_prefixes_are_canonical():
    scope = Scope(ScopeConfig(), ["http://Example.ORG/a", "https://example.org:443/b",
                                  "http://127.0.0.1:8080/x?y", "http://[::1]:9000/"])
    assert scope.seed_origin_prefixes() == ["http://127.0.0.1:8080/", "http://[::1]:9000/",
                                            "http://example.org/", "https://example.org/"]
    for prefix in scope.seed_origin_prefixes():
        assert scope.host_allows(prefix + "any/path")


class Site:
    """A page, a 302 to ``other``, and a script that navigates there; counts what ``other`` sees."""

    def __init__(self) -> None:
        self.other_hits: Counter[str] = Counter()

    def app(self, other: str) -> web.Application:
        async def page(_r: web.Request) -> web.Response:
            return web.Response(text="<title>in</title><p>inside</p>", content_type="text/html")

        async def redirect(_r: web.Request) -> web.Response:
            raise web.HTTPFound(f"{other}/from-302")

        app = web.Application()
        app.add_routes([web.get("/page", page), web.get("/redirect", redirect)])
        return app

    def other_app(self) -> web.Application:
        async def anything(request: web.Request) -> web.Response:
            self.other_hits[request.path] += 1
            return web.Response(text="elsewhere", content_type="text/html")

        app = web.Application()
        app.add_routes([web.get("/{tail:.*}", anything)])
        return app


@pytest.mark.browser
async def test_trusted_documents_load_without_a_pause_and_leaving_is_still_stopped(browser):
    site = Site()
    with serve_in_thread(site.other_app(), free_port()) as other, \
            serve_in_thread(site.app(other), free_port()) as base:
        scope = Scope(ScopeConfig(), [f"{base}/page"])
        guard = NavigationGuard(scope.navigation_refusal, frozenset(), scope.seed_origin_prefixes())
        context = await browser.new_context()
        page = await context.new_page()
        await guard.attach(context, page)

        for _ in range(3):
            guard.reset(page)
            await page.goto(f"{base}/page", timeout=60_000)
            assert await page.text_content("p") == "inside" and guard.stopped(page) is None
        assert guard.documents_judged == 0  # the crawl's own pages never paused

        guard.reset(page)
        with pytest.raises(Exception, match="ERR_BLOCKED_BY_CLIENT"):
            await page.goto(f"{base}/redirect", timeout=60_000)
        left = f"{other}/from-302"
        assert guard.stopped(page) == (left, f"{left} is outside scope (mode same-host)")

        page = await context.new_page()  # the old tab is on its way to Chromium's error page
        await guard.attach(context, page)
        await page.goto(f"{base}/page", timeout=60_000)
        await page.evaluate(f"location.href = {f'{other}/from-script'!r}")
        for _ in range(600):  # the stop is recorded when the paused request is judged
            if guard.stopped(page) is not None:
                break
            await page.wait_for_timeout(50)
        assert guard.stopped(page) is not None and guard.stopped(page)[0] == f"{other}/from-script"
        await context.close()
    assert site.other_hits == Counter()  # not one request reached the other server
    assert guard.documents_judged >= 2


@pytest.mark.browser
async def test_an_origin_the_check_refuses_is_not_trusted(browser):
    """Trust is checked once against the scope: an origin refused (here by ``ip_ranges``) pauses."""
    site = Site()
    with serve_in_thread(site.other_app(), free_port()) as other:
        scope = Scope(ScopeConfig(ip_ranges=["10.0.0.0/8"]), [f"{other}/"])
        guard = NavigationGuard(scope.navigation_refusal, frozenset(), scope.seed_origin_prefixes())
        context = await browser.new_context()
        page = await context.new_page()
        await guard.attach(context, page)
        with pytest.raises(Exception, match="ERR_BLOCKED_BY_CLIENT"):
            await page.goto(f"{other}/x", timeout=60_000)
        await context.close()
    assert guard.documents_judged == 1 and site.other_hits == Counter()
