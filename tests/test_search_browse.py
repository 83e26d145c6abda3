"""``browsercrawl browse``: Datasette on loopback over a crawl, used in headless Chromium - search
finds the page, facets and canned queries are there, the stored HTML opens from its link."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

import pytest

from browsercrawl.engine.browser import LaunchOptions, open_browser
from tests.apps.server import serve_in_thread
from tests.apps.textsite import TextSite, unique_word
from tests.conftest import free_port
from tests.test_engine_crawl import make_job

pytestmark = pytest.mark.browser

BC = [sys.executable, "-m", "browsercrawl"]


def _wait_up(url: str, proc: subprocess.Popen, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, "browse exited early"
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"{url} never answered")


@pytest.fixture
def crawled(tmp_path: Path, port: int) -> tuple[Path, str, TextSite]:
    site = TextSite(pages=30)
    with serve_in_thread(site.app(), port) as base:
        job = make_job(tmp_path, base + "/p/0", rendering={"mode": "http"})
        job.write_text(job.read_text().replace('/p/0/"', '/p/0"'))
        done = subprocess.run([*BC, "crawl", str(job), "--quiet"], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    return tmp_path / "crawl.db", base, site


def test_browse_page_searches_facets_and_shows_html_in_headless_chromium(crawled):
    db, base, site = crawled
    web_port = free_port()
    proc = subprocess.Popen([*BC, "browse", str(db), "--port", str(web_port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    root = f"http://127.0.0.1:{web_port}/crawl"
    try:
        _wait_up(root + ".json", proc)
        asyncio.run(_drive(root, base, site))
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(30)


async def _drive(root: str, base: str, site: TextSite) -> None:
    async with open_browser(LaunchOptions()) as browser:
        page = await browser.new_page()
        page.set_default_timeout(60_000)
        # Search through the table page's own search box, as a person would.
        await page.goto(f"{root}/pages_browse")
        await page.fill("input[name=_search]", unique_word(7))
        await page.press("input[name=_search]", "Enter")
        await page.wait_for_url("**_search=*")
        table = await page.inner_text("table.rows-and-columns")
        assert f"{base}/p/7" in table
        assert f"{base}/p/8" not in table
        # Facets on host, status, kind and via.
        facets = await page.inner_text(".facet-results")
        assert "127.0.0.1" in facets and "200" in facets and "http" in facets
        # The stored HTML is a link that opens the page (decompressed), not a blob.
        await page.goto(f"{root}/pages?url={quote(base + '/p/7', safe='')}")
        link = page.locator("a[href*='/-/browsercrawl-html/']").first
        href = await link.get_attribute("href")
        assert href
        await page.goto(root.rsplit("/", 1)[0] + href)
        assert await page.title() == site.title_of(7)
        # Canned queries: pages per host per minute, Chinese words the trigram index cannot find.
        await page.goto(f"{root}/pages_per_host_per_minute")
        assert "127.0.0.1" in await page.inner_text("table.rows-and-columns")
        await page.goto(f"{root}/search_chinese_words?word=天气")
        rows = await page.locator("table.rows-and-columns tbody tr").count()
        assert rows == sum(1 for i in range(30) if "天气" in site.cjk_words_of(i))
        for name in ("failed_pages", "login_pages", "error_status_pages"):
            response = await page.goto(f"{root}/{name}")
            assert response is not None and response.ok, name
        # The database page shows the index figures.
        await page.goto(root)
        assert "index_bytes" in await page.inner_text("body")
