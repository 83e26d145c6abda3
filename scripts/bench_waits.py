#!/usr/bin/env python3
"""Benchmark: does the default wait store JavaScript pages whole, on sites it was not tuned on?

Usage: ``.venv/bin/python scripts/bench_waits.py [--members 40] [--threads 300] [--concurrency 4]``

Each site is crawled with nothing about waiting in the job (the engine's default wait, learned per
URL shape), with ``wait_until = "load"`` (the default before it) and with an oracle wait
(``networkidle``, then 3 s more) whose pages hold everything they will ever show on first load;
the table gives, per site, the share of the oracle's items each stored, pages flagged unfinished,
mean render ms and pages/s, then the waits learned per URL shape.

* tuning (what the wait was built against): ``tests/apps/latesite.py`` - content after load by
  fetch, after a timer, in two rounds, never, polled forever; items = marker sentences;
* held out: ``tests/apps/jssite.py`` (content fetched as the script runs; items = body texts) and
  the demo community, logged in, without ``[ajax]`` rules (items = thread links on board and tag
  pages, comments on thread pages, member links on profiles, as first rendered, no scrolling).

The machine is shared: compare columns of one run only.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import lxml.html

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from bench_ajax import url_set  # noqa: E402
from browsercrawl_demo.app import run_demo_site  # noqa: E402
from browsercrawl_demo.config import DemoConfig  # noqa: E402
from browsercrawl_demo.login import login_storage_state, state_context_factory  # noqa: E402

from browsercrawl.config import parse_job  # noqa: E402
from browsercrawl.engine.crawler import Crawler  # noqa: E402
from browsercrawl.engine.hooks import PageContext, PageHook  # noqa: E402
from browsercrawl.engine.options import CrawlOptions  # noqa: E402
from browsercrawl.engine.parts import Part, SimplePart  # noqa: E402
from tests.apps.jssite import JsSite  # noqa: E402
from tests.apps.latesite import LateSite, marker  # noqa: E402
from tests.apps.server import serve_in_thread  # noqa: E402
from tests.conftest import free_port  # noqa: E402

ORACLE_EXTRA_S = 3.0


class _LongerStill(PageHook):
    """The oracle: after network idle, wait a few seconds more before the snapshot."""

    async def before_snapshot(self, ctx: PageContext) -> None:
        await asyncio.sleep(ORACLE_EXTRA_S)


MODES: dict[str, dict[str, Any]] = {
    "default waits": {},
    "wait_until=load": {"wait_until": "load"},
    "oracle": {"wait_until": "networkidle"},
}


async def crawl(db: Path, seeds: list[str], mode: str, concurrency: int, max_depth: int | None,
                parts: list[Part]) -> tuple[dict[str, Any], float]:
    data: dict[str, Any] = {
        "seeds": seeds,
        "politeness": {"concurrency": concurrency, "per_host_concurrency": concurrency,
                       "retry_backoff_seconds": 0.2},
        "rendering": dict(MODES[mode]),
        "output": {"database": str(db)},
    }
    if max_depth is not None:
        data["scope"] = {"max_depth": max_depth}
    job = parse_job(data, db.parent / "job.toml")
    extra = [SimplePart("oracle", hooks=[_LongerStill()])] if mode == "oracle" else []
    t0 = time.monotonic()
    summary = await Crawler(job, CrawlOptions(quiet=True, fresh=True), [*parts, *extra]).run()
    return summary.as_dict(), time.monotonic() - t0


def page_rows(db: Path) -> list[tuple[str, str, bytes | None, int | None, float]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT url, text, html, complete, render_ms FROM pages").fetchall()


def late_items(base: str, site: LateSite) -> Callable[[Path], set[str]]:
    def items(db: Path) -> set[str]:
        got = set()
        for url, text, *_ in page_rows(db):
            kind, _, i = url[len(base) + 1:].partition("/")
            if i.isdigit() and marker(kind, int(i)) in (text or ""):
                got.add(url)
        return got
    return items


def js_items(base: str, site: JsSite) -> Callable[[Path], set[str]]:
    def items(db: Path) -> set[str]:
        return {url for url, text, *_ in page_rows(db)
                if url.startswith(f"{base}/p/") and site.text_of(int(url.rsplit("/", 1)[1])) in (text or "")}
    return items


DEMO_ITEMS = ("a.thread-link", "#comments .comment .comment-text", "a.member-link", "li.post .post-text")


def demo_items(db: Path) -> set[str]:
    """Every rendered item as (page, kind, href or text), from the stored HTML."""
    got = set()
    for url, _text, html, *_ in page_rows(db):
        if not html:
            continue
        doc = lxml.html.fromstring(zlib.decompress(html).decode())
        for sel in DEMO_ITEMS:
            for el in doc.cssselect(sel):
                got.add(f"{url} {sel} {el.get('href') or el.text_content().strip()}")
    return got


def figures(db: Path, summary: dict[str, Any], seconds: float, items: set[str], oracle: set[str]) -> dict:
    rows = page_rows(db)
    render = [r[4] for r in rows if r[4] is not None]
    return {
        "items": f"{len(items & oracle)}/{len(oracle)}",
        "share": len(items & oracle) / len(oracle) if oracle else 1.0,
        "flagged": sum(1 for r in rows if r[3] == 0),
        "pages": len(rows),
        "render_ms": sum(render) / len(render) if render else 0.0,
        "pages_per_s": len(rows) / seconds if seconds else 0.0,
        "waits": summary.get("waits", {}),
    }


async def run_site(name: str, tmp: Path, seeds: list[str], concurrency: int, max_depth: int | None,
                   items: Callable[[Path], set[str]], parts: list[Part]) -> dict[str, dict]:
    out: dict[str, Any] = {}
    found: dict[str, set[str]] = {}
    for mode in ("oracle", "default waits", "wait_until=load"):
        db = tmp / f"{name}-{mode.replace(' ', '_').replace('=', '_')}.db"
        summary, seconds = await crawl(db, seeds, mode, concurrency, max_depth, parts)
        found[mode] = items(db)
        out[mode] = (db, summary, seconds)
        print(f"bench_waits: {name}, {mode}: {len(found[mode])} items, {seconds:.1f}s", file=sys.stderr)
    oracle = found["oracle"]
    return {mode: figures(db, s, sec, found[mode], oracle) for mode, (db, s, sec) in out.items()}


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--members", type=int, default=40)
    ap.add_argument("--threads", type=int, default=300)
    ap.add_argument("--concurrency", type=int, default=4)
    args = ap.parse_args()
    results: dict[str, dict[str, dict]] = {}
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        late = LateSite(pages=8)
        with serve_in_thread(late.app(), free_port()) as base:
            results["tuning: late-content fixtures"] = await run_site(
                "late", tmp, [f"{base}/"], args.concurrency, None, late_items(base, late), [])
        js = JsSite(pages=30)
        with serve_in_thread(js.app(), free_port()) as base:
            results["held out: jssite"] = await run_site(
                "js", tmp, [f"{base}/"], args.concurrency, None, js_items(base, js), [])
        cfg = DemoConfig(port=0, members=args.members, threads=args.threads, session_ttl_seconds=1e7)
        async with run_demo_site(cfg) as site:
            state = tmp / "state.json"
            await login_storage_state(site, state)
            urls = url_set(site, 4, 30, 10, 10)
            seeds = [u for group in urls.values() for u in group]
            login = SimplePart("demo-login", context_factory=state_context_factory(state))
            results["held out: demo community"] = await run_site(
                "demo", tmp, seeds, args.concurrency, 0, demo_items, [login])
            assert not site.state.mutations, site.state.mutations
    print("\n| site | wait | items (of the oracle's) | flagged unfinished | pages | mean render ms "
          "| pages/s |")
    print("|---|---|---|---|---|---|---|")
    for site_name, by_mode in results.items():
        for mode, f in by_mode.items():
            print(f"| {site_name} | {mode} | {f['items']} ({100 * f['share']:.1f}%) | {f['flagged']} | "
                  f"{f['pages']} | {f['render_ms']:.0f} | {f['pages_per_s']:.2f} |")
    print("\nlearned waits (default waits):")
    for site_name, by_mode in results.items():
        for shape, how in by_mode["default waits"]["waits"].items():
            print(f"  {site_name}: {shape.split('/', 1)[-1] or '/'}: {how}")


if __name__ == "__main__":
    asyncio.run(main())
