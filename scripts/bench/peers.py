"""The other crawlers the bench runs, each as a script run in a subprocess.

Crawlee and Scrapy are installed into their own venvs under /tmp on first use (never as
browsercrawl dependencies). The two minimal baselines (raw Playwright loop, aiohttp + lxml loop)
run on browsercrawl's venv, which already has playwright, aiohttp and lxml. Every script takes
``SEED OUT CONCURRENCY`` and writes one JSON line per item it extracted (title, price, sku, url),
which the bench checks against the generated site.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags Chromium stalls on this closed network (see session/browser.py).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]

VENVS = {
    "crawlee": (Path("/tmp/bc-bench-crawlee"), ["crawlee[playwright]"], "crawlee.crawlers"),
    "scrapy": (Path("/tmp/bc-bench-scrapy"), ["scrapy", "scrapy-playwright"], "scrapy_playwright"),
}

# Shared by the browser peers: read the rendered item and the links in one evaluate.
ITEM_JS = r"""() => {
  const q = (s) => { const e = document.querySelector(s); return e ? e.textContent.trim() : null; };
  return {url: location.href, title: q('#item .title'), price: q('#item .price'), sku: q('#item .sku'),
          links: Array.from(document.querySelectorAll('a.rel'), (a) => a.href)};
}"""

_COMMON = f"""
import asyncio, json, sys
SEED, OUT, CONC = sys.argv[1], sys.argv[2], int(sys.argv[3])
CHROMIUM = {CHROMIUM!r}
ARGS = {CHROMIUM_ARGS!r}
ITEM_JS = {ITEM_JS!r}
"""

RAW_PLAYWRIGHT = r'''
# The minimal loop of the issue: one context, CONC long-lived pages, images blocked, and the wait
# for the rendered item folded into the single evaluate that reads it.
from playwright.async_api import async_playwright

WAIT_AND_READ = """async () => {
  const sel = '#item[data-ready]';
  if (!document.querySelector(sel)) {
    await new Promise((resolve) => {
      const obs = new MutationObserver(() => {
        if (document.querySelector(sel)) { obs.disconnect(); resolve(); }
      });
      obs.observe(document.documentElement, {subtree: true, childList: true, attributes: true});
    });
  }
  return (""" + ITEM_JS + """)();
}"""

async def main():
    prefix = SEED.rsplit("/", 1)[0] + "/"
    out = open(OUT, "w")
    async with async_playwright() as pw:
        no_images = ["--blink-settings=imagesEnabled=false"]
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS + no_images)
        ctx = await browser.new_context()
        queue, seen = asyncio.Queue(), {SEED}
        queue.put_nowait(SEED)

        async def worker(page):
            while True:
                url = await queue.get()
                try:
                    for attempt in range(3):
                        try:
                            await page.goto(url, wait_until="commit", timeout=30000)
                            d = await page.evaluate(WAIT_AND_READ)
                            break
                        except Exception as exc:
                            if attempt == 2:
                                print(f"raw: {url}: {exc}", file=sys.stderr)
                                d = None
                    if d:
                        out.write(json.dumps({k: d[k] for k in ("url", "title", "price", "sku")}) + "\n")
                        for link in d["links"]:
                            if link.startswith(prefix) and link not in seen:
                                seen.add(link)
                                queue.put_nowait(link)
                finally:
                    queue.task_done()

        pages = [await ctx.new_page() for _ in range(CONC)]
        tasks = [asyncio.create_task(worker(p)) for p in pages]
        await queue.join()
        for t in tasks:
            t.cancel()
        await browser.close()
    out.close()

asyncio.run(main())
'''

AIOHTTP_LXML = r"""
# The minimal HTTP loop: aiohttp with CONC workers, lxml parsing, a set for seen URLs.
import aiohttp
import lxml.html
from urllib.parse import urljoin

async def main():
    prefix = SEED.rsplit("/", 1)[0] + "/"
    out = open(OUT, "w")
    queue, seen = asyncio.Queue(), {SEED}
    queue.put_nowait(SEED)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=CONC)) as session:
        async def worker():
            while True:
                url = await queue.get()
                try:
                    async with session.get(url) as resp:
                        body = await resp.read()
                    doc = lxml.html.document_fromstring(body)
                    t = lambda xp: (doc.xpath(xp) or [""])[0].strip()
                    d = {"url": url, "title": t('//*[@id="item"]/h1/text()'),
                         "price": t('//span[@class="price"]/text()'), "sku": t('//span[@class="sku"]/text()')}
                    out.write(json.dumps(d) + "\n")
                    for href in doc.xpath('//a[@class="rel"]/@href'):
                        link = urljoin(url, href)
                        if link.startswith(prefix) and link not in seen:
                            seen.add(link)
                            queue.put_nowait(link)
                except Exception as exc:
                    print(f"aiohttp: {url}: {exc!r}", file=sys.stderr)
                finally:
                    queue.task_done()
        tasks = [asyncio.create_task(worker()) for _ in range(CONC)]
        await queue.join()
        for t in tasks:
            t.cancel()
    out.close()

asyncio.run(main())
"""

CRAWLEE = r"""
# Crawlee for Python's PlaywrightCrawler with its defaults, except: fixed concurrency (autoscaling
# on system load stalls on a busy 2-core machine), the system Chromium, and images blocked the way
# Crawlee documents (block_requests in a pre-navigation hook).
from datetime import timedelta
from crawlee import ConcurrencySettings
from crawlee.crawlers import PlaywrightCrawler, PlaywrightCrawlingContext, PlaywrightPreNavCrawlingContext

async def main():
    out = open(OUT, "w")
    crawler = PlaywrightCrawler(
        concurrency_settings=ConcurrencySettings(
            min_concurrency=CONC, max_concurrency=CONC, desired_concurrency=CONC
        ),
        headless=True,
        browser_type="chromium",
        browser_launch_options={"executable_path": CHROMIUM, "args": ARGS},
        request_handler_timeout=timedelta(seconds=60),
    )

    @crawler.pre_navigation_hook
    async def block(ctx: PlaywrightPreNavCrawlingContext) -> None:
        await ctx.block_requests()

    @crawler.router.default_handler
    async def handler(ctx: PlaywrightCrawlingContext) -> None:
        await ctx.page.wait_for_selector("#item[data-ready]")
        d = await ctx.page.evaluate(ITEM_JS)
        out.write(json.dumps({k: d[k] for k in ("url", "title", "price", "sku")}) + "\n")
        await ctx.enqueue_links(selector="a.rel")

    await crawler.run([SEED])
    out.close()

asyncio.run(main())
"""

SCRAPY = r"""
# Scrapy (CrawlerProcess, one spider). With USE_PLAYWRIGHT=1 requests go through scrapy-playwright
# (one browser, pages waited on the rendered item, images aborted through its route); otherwise
# plain Scrapy on the server-rendered variant.
import os
import scrapy
from scrapy.crawler import CrawlerProcess

PW = os.environ.get("USE_PLAYWRIGHT") == "1"
META = {}
if PW:
    from scrapy_playwright.page import PageMethod
    WAIT = PageMethod("wait_for_selector", "#item[data-ready]")
    META = {"playwright": True, "playwright_page_methods": [WAIT]}

def abort_images(request):
    return request.resource_type == "image"

class Items(scrapy.Spider):
    name = "items"

    async def start(self):  # Scrapy >= 2.13
        yield scrapy.Request(SEED, meta=dict(META))

    def start_requests(self):  # older Scrapy
        yield scrapy.Request(SEED, meta=dict(META))

    def parse(self, response):
        css = lambda q: (response.css(q).get() or "").strip()
        yield {"url": response.url, "title": css("#item .title::text"), "price": css("#item .price::text"),
               "sku": css("#item .sku::text")}
        for href in response.css("a.rel::attr(href)").getall():
            yield response.follow(href, meta=dict(META))

settings = {
    "CONCURRENT_REQUESTS": CONC,
    "CONCURRENT_REQUESTS_PER_DOMAIN": CONC,
    "ROBOTSTXT_OBEY": False,
    "LOG_LEVEL": "WARNING",
    "TELNETCONSOLE_ENABLED": False,
    "FEEDS": {OUT: {"format": "jsonlines", "overwrite": True}},
}
if PW:
    settings.update({
        "TWISTED_REACTOR": "twisted.internet.asyncioreactor.AsyncioSelectorReactor",
        "DOWNLOAD_HANDLERS": {
            "http": "scrapy_playwright.handler.ScrapyPlaywrightDownloadHandler",
            "https": "scrapy_playwright.handler.ScrapyPlaywrightDownloadHandler",
        },
        "PLAYWRIGHT_BROWSER_TYPE": "chromium",
        "PLAYWRIGHT_LAUNCH_OPTIONS": {"executable_path": CHROMIUM, "args": ARGS, "headless": True},
        "PLAYWRIGHT_MAX_PAGES_PER_CONTEXT": CONC,
        "PLAYWRIGHT_ABORT_REQUEST": abort_images,
    })
process = CrawlerProcess(settings)
process.crawl(Items)
process.start()
"""


def ensure_venv(name: str) -> Path:
    """The python of peer ``name``'s venv, creating it and pip-installing the peer on first use."""
    venv, packages, probe = VENVS[name]
    py = venv / "bin" / "python"
    if not py.exists():
        print(f"bench: creating {venv} ...", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    if subprocess.run([str(py), "-c", f"import {probe}"], capture_output=True).returncode != 0:
        print(f"bench: pip install {' '.join(packages)} into {venv} ...", file=sys.stderr)
        r = subprocess.run([str(py), "-m", "pip", "install", "-q", *packages], capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"pip install {packages} failed: {r.stderr.strip()[-500:]}")
    return py


def write_scripts(folder: Path) -> dict[str, Path]:
    """Write every peer script into ``folder``; returns name -> path."""
    folder.mkdir(parents=True, exist_ok=True)
    scripts = {
        "raw_playwright": _COMMON + RAW_PLAYWRIGHT,
        "aiohttp_lxml": _COMMON + AIOHTTP_LXML,
        "crawlee": _COMMON + CRAWLEE,
        "scrapy": _COMMON + SCRAPY,
    }
    out = {}
    for name, text in scripts.items():
        path = folder / f"peer_{name}.py"
        path.write_text(text)
        out[name] = path
    return out
