"""Benchmark: content found and pages/s for static-only, always-render and adaptive crawls.

Starts the demo site in-process (logged in through the test helper, CAPTCHA via the site's test
oracle), crawls the SAME URL set three ways with the demo job's ``[ajax]`` rules, and prints, side
by side, how many items each found against the ground truth and how fast it went:

* threads: thread links on the crawled board pages (infinite scroll) and tag pages
* comments: comments present in the stored HTML of the crawled thread pages (load more)
* follows: following/followers entries of the crawled profiles (tab states + "More")

Usage: ``.venv/bin/python scripts/bench_ajax.py [--members 60] [--threads 600] [--concurrency 4]``
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

import lxml.html

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from browsercrawl_demo.app import DemoSite, run_demo_site  # noqa: E402
from browsercrawl_demo.config import DemoConfig  # noqa: E402
from browsercrawl_demo.jobs import DEMO_AJAX  # noqa: E402
from browsercrawl_demo.login import login_storage_state, state_context_factory  # noqa: E402

from browsercrawl.assemble import build_parts  # noqa: E402
from browsercrawl.config import parse_job  # noqa: E402
from browsercrawl.engine.crawler import Crawler  # noqa: E402
from browsercrawl.engine.options import CrawlOptions  # noqa: E402
from browsercrawl.engine.parts import SimplePart  # noqa: E402
from browsercrawl.engine.router import AdaptiveRouter  # noqa: E402


def url_set(
    site: DemoSite, n_boards: int, n_threads: int, n_members: int, n_tags: int
) -> dict[str, list[str]]:
    c = site.state.content
    boards = sorted(c.boards, key=lambda b: -len(c.board_threads[b.id]))[:n_boards]
    threads = sorted(c.threads.values(), key=lambda t: t.id)[:n_threads]
    members = c.members[:n_members]
    tags = sorted(c.tag_threads)[:n_tags]
    return {
        "board": [f"{site.url}{b.path}?page=1" for b in boards],
        "thread": [site.url + t.path for t in threads],
        "member": [site.url + m.path for m in members],
        "tag": [f"{site.url}/tag/{w}" for w in tags],
    }


def expected(site: DemoSite, urls: dict[str, list[str]]) -> dict[str, int]:
    c = site.state.content
    by_path = {t.path: t for t in c.threads.values()}
    threads = sum(len(c.board_threads[int(u.split("/board/")[1].split("?")[0])]) for u in urls["board"])
    threads += sum(min(20, len(c.tag_threads[u.rsplit("/", 1)[1]])) for u in urls["tag"])
    comments = sum(len(by_path[u[len(site.url):]].comments) for u in urls["thread"])
    names = [u.rsplit("/", 1)[1] for u in urls["member"]]
    follows = sum(len(c.follows[n]) + len(c.followers[n]) for n in names)
    return {"threads": threads, "comments": comments, "follows": follows}


def found(db: Path, site: DemoSite, urls: dict[str, list[str]]) -> dict[str, int]:
    conn = sqlite3.connect(db)
    thread_links = 0
    for u in urls["board"] + urls["tag"]:
        rows = conn.execute("SELECT html FROM pages WHERE url = ?", (u,)).fetchall()
        if rows and rows[0][0]:
            doc = lxml.html.fromstring(zlib.decompress(rows[0][0]).decode())
            thread_links += len({a.get("href") for a in doc.cssselect("a.thread-link")})
    comments = 0
    for u in urls["thread"]:
        rows = conn.execute("SELECT html FROM pages WHERE url = ?", (u,)).fetchall()
        if rows and rows[0][0]:
            doc = lxml.html.fromstring(zlib.decompress(rows[0][0]).decode())
            comments += len(doc.cssselect("#comments .comment"))
    follows = 0
    has_states = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'states'").fetchall()
    for u in urls["member"]:
        blobs = [r[0] for r in conn.execute("SELECT html FROM pages WHERE url = ?", (u,))]
        if has_states:
            blobs += [r[0] for r in conn.execute("SELECT html FROM states WHERE page_url = ?", (u,))]
        seen: dict[str, set[str]] = {"following": set(), "followers": set()}
        for blob in blobs:
            if not blob:
                continue
            doc = lxml.html.fromstring(zlib.decompress(blob).decode())
            for kind in seen:
                seen[kind] |= {a.get("href") for a in doc.cssselect(f"#panel-{kind} a.member-link")}
        follows += len(seen["following"]) + len(seen["followers"])
    conn.close()
    return {"threads": thread_links, "comments": comments, "follows": follows}


class StaticOnly(AdaptiveRouter):
    """Every page over plain HTTP, with the logged-in browser's cookies (a browser is still launched
    only so the crawler's cookie sync has a logged-in context to copy from)."""

    async def choose(self, url: str) -> str:
        return "http"


class StaticCrawler(Crawler):
    """The static-only column: a page that shows a load-more control is kept as fetched over HTTP
    instead of being sent to the browser."""

    def render_shape(self, url: str) -> bool:
        return False


async def crawl(site: DemoSite, state: Path, db: Path, seeds: list[str], mode: str, concurrency: int) -> Any:
    data = {
        "seeds": seeds,
        "scope": {"max_depth": 0},
        "politeness": {"concurrency": concurrency},
        "rendering": {"mode": "auto" if mode == "http" else mode, "auto_sample_pages": 2},
        "output": {"database": str(db)},
        "ajax": DEMO_AJAX,
    }
    job = parse_job(data, db.parent / "job.toml")
    options = CrawlOptions(quiet=True, fresh=True)
    login = SimplePart("demo-login", context_factory=state_context_factory(state))
    parts = [*build_parts(job, options), login]
    cls = StaticCrawler if mode == "http" else Crawler
    crawler = cls(job, options, parts)
    if mode == "http":
        crawler.router = StaticOnly()
    t0 = time.monotonic()
    summary = await crawler.run()
    return summary, time.monotonic() - t0


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--members", type=int, default=60)
    ap.add_argument("--threads", type=int, default=600)
    ap.add_argument("--boards", type=int, default=4)
    ap.add_argument("--thread-pages", type=int, default=40)
    ap.add_argument("--profiles", type=int, default=12)
    ap.add_argument("--tags", type=int, default=20)
    ap.add_argument("--concurrency", type=int, default=4)
    args = ap.parse_args()
    cfg = DemoConfig(port=0, members=args.members, threads=args.threads, session_ttl_seconds=1e7)
    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        async with run_demo_site(cfg) as site:
            state = tmpdir / "state.json"
            await login_storage_state(site, state)
            urls = url_set(site, args.boards, args.thread_pages, args.profiles, args.tags)
            seeds = [u for group in urls.values() for u in group]
            want = expected(site, urls)
            results = {}
            for mode, label in (("http", "static-only"), ("browser", "always-render"), ("auto", "adaptive")):
                db = tmpdir / f"{mode}.db"
                summary, seconds = await crawl(site, state, db, seeds, mode, args.concurrency)
                results[label] = (summary, seconds, found(db, site, urls))
            assert not site.state.mutations, site.state.mutations
    print(f"demo: {args.members} members, {args.threads} threads; {len(seeds)} pages "
          f"({', '.join(f'{len(v)} {k}' for k, v in urls.items())}); concurrency {args.concurrency}")
    head = f"{'':<14}" + "".join(f"{label:>16}" for label in results)
    print(head)
    for key in ("threads", "comments", "follows"):
        cells = "".join(f"{f'{r[2][key]}/{want[key]}':>16}" for r in results.values())
        print(f"{key:<14}{cells}")
    total_want = sum(want.values())
    print(f"{'all items':<14}" + "".join(f"{f'{100 * sum(r[2].values()) / total_want:.1f}%':>16}"
                                         for r in results.values()))
    print(f"{'pages/s':<14}" + "".join(f"{r[0].pages_stored / r[1]:>16.2f}" for r in results.values()))
    print(f"{'via http/br':<14}" + "".join(f"{f'{r[0].via_http}/{r[0].via_browser}':>16}"
                                           for r in results.values()))


if __name__ == "__main__":
    asyncio.run(main())
