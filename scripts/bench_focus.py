"""Benchmark of focused crawling from examples: focused vs breadth-first vs a classic keyword crawler.

Five fixture university sites of different shapes (demo/browsercrawl_demo/focus_sites.py: ``tree``, ``cms``,
``wiki``, ``blog`` and the held-out ``portal``, never used to choose a setting) are served on
loopback; each strategy crawls all of them in one crawl through the real engine (HTTP fetcher):

* **focused**: the ``[focus]`` part, given one example target from three of the tuning sites
  (none from ``blog`` nor from the held-out site) and no keywords;
* **breadth-first**: the engine's default order;
* **keyword**: the classic focused crawler of the source papers, as a part with a static link
  priority: a link's relevance is ``0.5*cos(anchor+URL, topic) + 0.5*cos(page holding it,
  topic)``, fixed when the link is found; a page is labelled target when its cosine with the
  topic reaches half the lowest cosine of the examples. The topic is the keywords
  ``admission score`` plus the 15 most frequent words of the examples.

The order in which a crawl fetches a site's pages does not depend on its budget (a budget only
stops it), so each strategy crawls once and the figures at 25%, 50% and 100% of a site's pages
are read from the first pages it fetched there. Per site and budget: recall (truth targets
fetched / truth targets), harvest rate (truth targets / pages fetched) and, for the strategies
that label pages, the precision of the pages labelled target and the share of all targets that
were labelled so (recall of the labels). The example pages are left out of
every count.

Usage: ``.venv/bin/python scripts/bench_focus.py [--out DIR] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from browsercrawl_demo.focus_sites import HELD_OUT, SHAPES, TUNING, Site, make_app, make_site  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from browsercrawl.assemble import build_crawler  # noqa: E402
from browsercrawl.config import parse_job  # noqa: E402
from browsercrawl.engine.crawler import Crawler  # noqa: E402
from browsercrawl.engine.hooks import PageContext, PageHook  # noqa: E402
from browsercrawl.engine.options import CrawlOptions  # noqa: E402
from browsercrawl.engine.parts import Part  # noqa: E402
from browsercrawl.focus.features import words  # noqa: E402
from browsercrawl.focus.tfidf import cosine  # noqa: E402
from browsercrawl.frontier.base import Request  # noqa: E402
from browsercrawl.frontier.urls import canonical_url  # noqa: E402
from tests.apps.server import serve_in_thread  # noqa: E402
from tests.conftest import free_port  # noqa: E402

EXAMPLE_SITES = ("tree", "cms", "wiki")
KEYWORDS = "admission score"
SHARES = (0.25, 0.5, 1.0)


def _unit(bag: Counter[str]) -> dict[str, float]:
    norm = sum(v * v for v in bag.values()) ** 0.5
    return {k: v / norm for k, v in bag.items()} if norm else {}


class KeywordHook(PageHook):
    """Scores each page against the topic and labels it (the classic crawler's classifier)."""

    def __init__(self, crawler: KeywordCrawler) -> None:
        self.crawler = crawler

    async def after_snapshot(self, ctx: PageContext) -> None:
        r = ctx.result
        if r is None:
            return
        sim = cosine(_unit(Counter(words(f"{r.title} {r.text}"))), self.crawler.topic)
        with self.crawler.lock:
            self.crawler.page_sim[ctx.request.url] = sim
            self.crawler.labels[ctx.request.url] = sim >= self.crawler.threshold


class KeywordCrawler(Part):
    """The classic keyword focused crawler: static best-first on anchor and parent relevance."""

    name = "keyword"

    def __init__(self, topic: Counter[str], threshold: float) -> None:
        self.topic = _unit(topic)
        self.threshold = threshold
        self.page_sim: dict[str, float] = {}
        self.labels: dict[str, bool] = {}
        self.lock = threading.Lock()
        self.hook = KeywordHook(self)

    def hooks(self) -> Sequence[PageHook]:
        return (self.hook,)

    def link_priority(self, req: Request, url: str, anchor: str) -> float | None:
        link = cosine(_unit(Counter(words(f"{anchor} {url.split('/', 3)[-1]}"))), self.topic)
        with self.lock:
            parent = self.page_sim.get(req.url, 0.0)
        return 1.0 - (0.5 * link + 0.5 * parent)


async def _page_text(url: str) -> str:
    import aiohttp

    async with aiohttp.ClientSession() as s, s.get(url) as resp:
        return await resp.text()


def keyword_part(example_urls: list[str]) -> KeywordCrawler:
    from browsercrawl.engine.parse import parse_page

    topic: Counter[str] = Counter(words(KEYWORDS))
    bags = []
    for url in example_urls:
        title, text, _, _ = parse_page(asyncio.run(_page_text(url)), url)
        bags.append(Counter(words(f"{title} {text}")))
    merged: Counter[str] = Counter()
    for b in bags:
        merged.update(b)
    topic.update(dict(merged.most_common(15)))
    unit = _unit(topic)
    threshold = 0.5 * min(cosine(_unit(b), unit) for b in bags)
    return KeywordCrawler(topic, threshold)


def crawl(name: str, seeds: list[str], db: Path, focus: dict | None, parts: list[Part]) -> float:
    job_data: dict[str, Any] = {"seeds": seeds, "rendering": {"mode": "http"},
                                "politeness": {"concurrency": 8, "per_host_concurrency": 2,
                                               "obey_robots": False},
                                "output": {"database": str(db), "store_html": False}}
    if focus:
        job_data["focus"] = focus
    job = parse_job(job_data, db.parent / f"{name}.toml")
    started = time.monotonic()
    opts = CrawlOptions(quiet=True)
    crawler = build_crawler(job, opts) if focus else Crawler(job, opts, parts)
    asyncio.run(crawler.run())
    return time.monotonic() - started


def fetch_order(db: Path) -> dict[str, list[str]]:
    """Per host, the requested URLs of the stored pages in the order they were committed."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT requested_url FROM pages ORDER BY id").fetchall()
    out: dict[str, list[str]] = {}
    for (url,) in rows:
        out.setdefault(url.split("/")[2], []).append(url)
    return out


def focus_labels(db: Path) -> dict[str, str]:
    with sqlite3.connect(db) as conn:
        return dict(conn.execute("SELECT url, kind FROM focus_pages").fetchall())


def figures(order: dict[str, list[str]], truth: dict[str, set[str]], sizes: dict[str, int],
            labels: dict[str, str] | None, exclude: set[str]) -> dict[str, dict[float, dict[str, float]]]:
    out: dict[str, dict[float, dict[str, float]]] = {}
    for host, targets in truth.items():
        targets = targets - exclude
        fetched = [u for u in order.get(host, []) if u not in exclude]
        per: dict[float, dict[str, float]] = {}
        for share in SHARES:
            got = fetched[:max(1, round(share * sizes[host]))]
            found = sum(1 for u in got if u in targets)
            row = {"pages": len(got), "targets": len(targets), "recall": found / len(targets),
                   "harvest": found / len(got) if got else 0.0}
            if labels is not None:
                labelled = [u for u in got if labels.get(u) == "target"]
                right = sum(1 for u in labelled if u in targets)
                row.update(labelled=len(labelled), right=right,
                           precision=right / len(labelled) if labelled else 1.0)
            per[share] = row
        out[host] = per
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="keep the databases and results.json here")
    args = parser.parse_args()
    console = Console(width=130)
    sites: dict[str, Site] = {s: make_site(s, args.seed) for s in SHAPES}
    with contextlib.ExitStack() as stack:
        out = args.out or Path(stack.enter_context(tempfile.TemporaryDirectory()))
        out.mkdir(parents=True, exist_ok=True)
        bases = {s: stack.enter_context(serve_in_thread(make_app(site), free_port()))
                 for s, site in sites.items()}
        host = {s: b.split("/")[2] for s, b in bases.items()}
        truth = {host[s]: {canonical_url(bases[s] + p) for p in site.targets()} for s, site in sites.items()}
        sizes = {host[s]: len(site.pages) for s, site in sites.items()}
        seeds = [bases[s] + sites[s].root for s in SHAPES]
        examples = [canonical_url(bases[s] + sorted(sites[s].targets())[0]) for s in EXAMPLE_SITES]
        exclude = set(examples)
        results: dict[str, Any] = {}
        for name in ("focused", "breadth-first", "keyword"):
            db = out / f"{name}.db"
            for suffix in ("", "-wal", "-shm"):
                Path(f"{db}{suffix}").unlink(missing_ok=True)
            parts: list[Part] = []
            kw = None
            if name == "keyword":
                kw = keyword_part(examples)
                parts = [kw]
            focus = {"examples": examples} if name == "focused" else None
            seconds = crawl(name, seeds, db, focus, parts)
            labels = focus_labels(db) if name == "focused" else (
                {u: ("target" if t else "other") for u, t in kw.labels.items()} if kw else None)
            results[name] = {"seconds": round(seconds, 1),
                             "sites": figures(fetch_order(db), truth, sizes, labels, exclude)}
            console.print(f"{name}: crawled in {seconds:.1f} s")
    shape_of = {h: s for s, h in host.items()}
    report = {"examples_from": EXAMPLE_SITES, "held_out": HELD_OUT, "runs": {}}
    for name, res in results.items():
        report["runs"][name] = {shape_of[h]: {str(k): v for k, v in per.items()}
                                for h, per in res["sites"].items()}
    _print(console, report)
    if args.out:
        (args.out / "results.json").write_text(json.dumps(report, indent=2))
    return 0


def _mean(report: dict, run: str, shapes: Sequence[str], share: float, key: str) -> float:
    return statistics.mean(report["runs"][run][s][str(share)][key] for s in shapes)


def _pooled_labels(report: dict, run: str, shapes: Sequence[str], share: float) -> tuple[float, int, float]:
    """Precision of the pages labelled target, how many, and the share of all targets labelled."""
    rows = [report["runs"][run][s][str(share)] for s in shapes]
    labelled = sum(r["labelled"] for r in rows)
    right = sum(r["right"] for r in rows)
    return (right / labelled if labelled else 1.0), labelled, right / sum(r["targets"] for r in rows)


def _print(console: Console, report: dict) -> None:
    runs = list(report["runs"])
    for title, shapes in (("tuning sites (mean of 4)", TUNING), ("held-out site: portal", HELD_OUT)):
        table = Table(title=title)
        for col in ("budget", "strategy", "recall", "harvest", "recall / BFS", "labelled: precision",
                    "labelled: recall"):
            table.add_column(col, justify="right")
        for share in SHARES:
            bfs = _mean(report, "breadth-first", shapes, share, "recall")
            for run in runs:
                rec = _mean(report, run, shapes, share, "recall")
                prec = lrec = "-"
                if "labelled" in report["runs"][run][shapes[0]][str(share)]:
                    p, n, r = _pooled_labels(report, run, shapes, share)
                    prec, lrec = f"{p:.3f} of {n}", f"{r:.2f}"
                table.add_row(f"{int(share * 100)}%", run, f"{rec:.2f}",
                              f"{_mean(report, run, shapes, share, 'harvest'):.2f}",
                              f"{rec / bfs:.2f}x" if bfs else ("-" if not rec else "inf"), prec, lrec)
            table.add_section()
        console.print(table)
    per_site = Table(title="per site, 50% budget")
    for col in ("site", *(f"{r} recall" for r in runs), "focused labelled precision"):
        per_site.add_column(col, justify="right")
    for shape in SHAPES:
        row = report["runs"]["focused"][shape]["0.5"]
        per_site.add_row(shape + (" (held out)" if shape in HELD_OUT else ""),
                         *(f"{report['runs'][r][shape]['0.5']['recall']:.2f}" for r in runs),
                         f"{row['precision']:.3f} of {row['labelled']}")
    console.print(per_site)


if __name__ == "__main__":
    raise SystemExit(main())
