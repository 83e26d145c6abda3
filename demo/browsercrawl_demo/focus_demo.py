"""``browsercrawl demo``'s focused crawl: more pages like three examples, across five sites.

The five university sites of ``focus_sites.py`` are served on loopback; one job (written to the
output folder as ``focus.toml``) gives the focused crawler one example score page from three of
them and half of all their pages as its budget. The score is the truth: score pages found (the
examples left out), the precision of the pages it labelled target, the held-out site's share,
and what a breadth-first crawl with the same budget finds.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import tomli_w
from aiohttp import web

from browsercrawl.assemble import build_crawler
from browsercrawl.config import load_job
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.frontier.urls import canonical_url
from browsercrawl_demo.focus_sites import HELD_OUT, SHAPES, make_app, make_site

EXAMPLE_SITES = ("tree", "cms", "wiki")


@contextmanager
def sites_in_thread(apps: list[web.Application]) -> Iterator[list[str]]:
    """Serve each app on its own free loopback port, all on one event loop in a daemon thread."""
    loop = asyncio.new_event_loop()
    runners = [web.AppRunner(app, access_log=None) for app in apps]
    urls: list[str] = []
    started = threading.Event()

    async def start() -> None:
        for runner in runners:
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
            urls.append(f"http://127.0.0.1:{port}")

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(start())
        started.set()
        loop.run_forever()

    thread = threading.Thread(target=run, name="focus-sites", daemon=True)
    thread.start()
    if not started.wait(30):
        raise RuntimeError("the focus demo sites did not start")
    try:
        yield urls
    finally:
        async def stop() -> None:
            for runner in runners:
                await runner.cleanup()

        asyncio.run_coroutine_threadsafe(stop(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(30)


def _crawl(path: Path) -> Any:
    return asyncio.run(build_crawler(load_job(path), CrawlOptions(quiet=True, fresh=True)).run())


def run_focus(out: Path, echo, *, seed: int = 1) -> dict[str, Any]:
    """Write ``focus.toml`` (and ``focus-bfs.toml``), crawl, and score against the sites' truth."""
    out.mkdir(parents=True, exist_ok=True)
    sites = {s: make_site(s, seed) for s in SHAPES}
    with sites_in_thread([make_app(sites[s]) for s in SHAPES]) as urls:
        bases = dict(zip(SHAPES, urls, strict=True))
        truth = {s: {canonical_url(bases[s] + p) for p in site.targets()} for s, site in sites.items()}
        examples = [canonical_url(bases[s] + sorted(sites[s].targets())[0]) for s in EXAMPLE_SITES]
        budget = sum(len(site.pages) for site in sites.values()) // 2
        job: dict[str, Any] = {
            "name": "demo-focus",
            "seeds": [bases[s] + sites[s].root for s in SHAPES],
            "politeness": {"concurrency": 6, "per_host_concurrency": 2, "obey_robots": False},
            "rendering": {"mode": "auto"},
            "output": {"database": "focus.db", "store_html": False},
            "focus": {"examples": examples, "budget": budget},
        }
        (out / "focus.toml").write_text(tomli_w.dumps(job))
        bfs = {**{k: v for k, v in job.items() if k != "focus"}, "name": "demo-focus-bfs",
               "scope": {"max_pages": budget}, "rendering": {"mode": "http"},
               "output": {"database": "focus-bfs.db", "store_html": False}}
        (out / "focus-bfs.toml").write_text(tomli_w.dumps(bfs))
        echo(f"demo: focused crawl of five sites for pages like {len(examples)} examples "
             f"(budget {budget} pages of {2 * budget})")
        t0 = time.monotonic()
        summary = _crawl(out / "focus.toml")
        seconds = round(time.monotonic() - t0, 1)
        _crawl(out / "focus-bfs.toml")
    wanted = set().union(*truth.values()) - set(examples)
    with sqlite3.connect(out / "focus.db") as conn:
        stored = {u for (u,) in conn.execute("SELECT requested_url FROM pages")}
        said = {u for (u,) in conn.execute("SELECT url FROM focus_pages WHERE kind = 'target'")}
    said -= set(examples)
    with sqlite3.connect(out / "focus-bfs.db") as conn:
        bfs_stored = {u for (u,) in conn.execute("SELECT requested_url FROM pages")}
    held = set().union(*(truth[s] for s in HELD_OUT))
    return {
        "pages": len(stored), "budget": budget, "seconds": seconds,
        "via_browser": summary.via_browser, "via_http": summary.via_http,
        "targets_found": len(wanted & stored), "targets_existing": len(wanted),
        "labelled": len(said), "labelled_right": len(said & wanted),
        "held_out_found": len(held & stored), "held_out_existing": len(held),
        "bfs_targets_found": len(wanted & bfs_stored),
        "rounds": summary.parts.get("focus", {}).get("rounds"),
    }


def report_rows(report: dict[str, Any]) -> list[tuple[str, str]]:
    """Rows of ``browsercrawl demo``'s table for the focused crawl."""
    f = report.get("focus")
    if not f:
        return []
    return [
        ("focused crawl: pages (budget) / seconds", f"{f['pages']} ({f['budget']}) / {f['seconds']} s"),
        ("score pages found at half the pages (focused)", f"{f['targets_found']} / {f['targets_existing']}"),
        ("score pages found at half the pages (breadth-first)",
         f"{f['bfs_targets_found']} / {f['targets_existing']}"),
        ("pages labelled target that are (precision)", f"{f['labelled_right']} / {f['labelled']}"),
        ("held-out site (no example from it)", f"{f['held_out_found']} / {f['held_out_existing']}"),
    ]
