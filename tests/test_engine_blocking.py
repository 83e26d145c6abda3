"""``rendering.block``: the blocked resource types never reach the server; the rest loads, cached."""

from __future__ import annotations

import asyncio
import collections
import sqlite3

import pytest
from aiohttp import web

from browsercrawl.config import parse_job
from browsercrawl.engine.browser import launch_args_for
from browsercrawl.engine.crawler import Crawler
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.engine.runtime import intercepted_types
from tests.apps.server import serve_in_thread

PAGE = """<html><head><title>page {i}</title><link rel="stylesheet" href="/style.css">
<style>@font-face {{ font-family: F; src: url(/font.woff2) format("woff2"); }} body {{ font-family: F; }}
.bg {{ background-image: url(/bg.png); }}</style></head>
<body><p class="bg">text of page {i}</p><img src="/pic.png?{i}"><video src="/clip.mp4" autoplay muted></video>
<p id="done"></p><script>document.getElementById('done').textContent = 'script ran on ' + {i};</script>
<a href="/p/{next}">next</a></body></html>"""


def app(hits: collections.Counter) -> web.Application:
    async def page(request: web.Request) -> web.Response:
        hits["page"] += 1
        i = int(request.match_info["i"])
        return web.Response(text=PAGE.format(i=i, next=(i + 1) % 4), content_type="text/html")

    def asset(kind: str, body: bytes, ctype: str):
        async def handler(request: web.Request) -> web.Response:
            hits[kind] += 1
            return web.Response(body=body, content_type=ctype, headers={"Cache-Control": "max-age=3600"})
        return handler

    a = web.Application()
    a.add_routes([
        web.get("/p/{i}", page),
        web.get("/style.css", asset("css", b"p { color: black }", "text/css")),
        web.get("/font.woff2", asset("font", b"wOF2", "font/woff2")),
        web.get("/bg.png", asset("image", b"\x89PNG", "image/png")),
        web.get("/pic.png", asset("image", b"\x89PNG", "image/png")),
        web.get("/clip.mp4", asset("media", b"\x00", "video/mp4")),
    ])
    return a


def _job(tmp_path, base: str, scope: dict, block: list[str]):
    return parse_job({
        "seeds": [f"{base}/p/0"],
        "scope": scope,
        "output": {"database": str(tmp_path / "crawl.db")},
        "rendering": {"mode": "browser", "block": block},
        "politeness": {"concurrency": 1, "per_host_concurrency": 1, "obey_robots": False},
    }, tmp_path / "job.toml")


@pytest.mark.browser
@pytest.mark.parametrize("scope_mode", ["same-host", "any"])
def test_blocked_types_never_reach_the_server(tmp_path, port, scope_mode):
    hits: collections.Counter[str] = collections.Counter()
    with serve_in_thread(app(hits), port) as base:
        job = _job(tmp_path, base, {"mode": scope_mode}, ["image", "font", "media"])
        asyncio.run(Crawler(job, CrawlOptions(quiet=True)).run())
    with sqlite3.connect(tmp_path / "crawl.db") as conn:
        texts = [t for (t,) in conn.execute("SELECT text FROM pages")]
    assert len(texts) == 4 and all("script ran on" in t for t in texts)
    assert hits["page"] == 4
    assert hits["image"] == hits["font"] == hits["media"] == 0, hits
    assert hits["css"] == 1  # not blocked, and served from the browser's cache after the first page


def test_interception_only_where_something_needs_it(tmp_path):
    """Interception costs the same whatever it matches: a tab gets it to stop navigations or to
    block media, and then fails every blocked type; images and fonts alone need none."""
    base = "http://127.0.0.1:9"
    everything = {"Image", "Font", "Media"}
    cases = [
        ({}, ["image", "font", "media"], True, everything),
        ({"mode": "any"}, ["image", "font", "media"], False, everything),
        ({"mode": "any"}, ["image", "font"], False, set()),
        ({"stop_navigations": False}, ["image", "font"], False, set()),
        ({"stop_navigations": False}, ["media"], False, {"Media"}),
        ({}, ["image"], True, {"Image"}),
    ]
    for scope, block, stops, expected in cases:
        job = _job(tmp_path, base, scope, block)
        assert intercepted_types(job, stops) == expected, (scope, block)
        assert ("--disable-remote-fonts" in launch_args_for(job.rendering)) == ("font" in block)


@pytest.mark.browser
def test_images_and_fonts_are_blocked_by_the_browser_without_interception(tmp_path, port):
    hits: collections.Counter[str] = collections.Counter()
    with serve_in_thread(app(hits), port) as base:
        job = _job(tmp_path, base, {"mode": "any"}, ["image", "font"])
        assert intercepted_types(job, stops=False) == frozenset()
        asyncio.run(Crawler(job, CrawlOptions(quiet=True)).run())
    with sqlite3.connect(tmp_path / "crawl.db") as conn:
        texts = [t for (t,) in conn.execute("SELECT text FROM pages")]
    assert len(texts) == 4 and all("script ran on" in t for t in texts)
    assert hits["image"] == hits["font"] == 0, hits
    assert hits["media"] >= 1  # not blocked here: nothing but interception blocks media
