"""Benchmark of the social part on the demo site: traversal completeness, then revisit policy vs random.

1. Crawl the demo's members from one seed member (real Chromium, logged in) and print people and
   edges found / expected against the truth dump.
2. Copy the database twice. For each round: advance the site clock (members post at their own
   seeded Poisson rates), then revisit ``--budget`` people by the policy (top P(change)) in one
   copy and ``--budget`` random people in the other, and count revisits that found a change.
3. Print changed-members-found per revisit for both and their ratio (the issue asks for >= 2x).

Usage: ``.venv/bin/python scripts/bench_social.py [--members 100] [--budget 10] [--rounds 4]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from browsercrawl_demo.app import run_demo_site
from browsercrawl_demo.config import DemoConfig
from browsercrawl_demo.social_job import CookieHook, demo_job, demo_login_cookies, found_vs_expected
from browsercrawl_demo.truth import build_truth

from browsercrawl.assemble import build_parts
from browsercrawl.commands.recrawl import recrawl_job
from browsercrawl.config import parse_job
from browsercrawl.engine.browser import open_browser
from browsercrawl.engine.crawler import Crawler
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.engine.parts import SimplePart


async def bench(args: argparse.Namespace, work: Path) -> dict:
    async with run_demo_site(DemoConfig(seed=args.seed, port=0, members=args.members)) as site:
        names = [m.name for m in site.state.content.members]
        async with open_browser() as browser:
            cookies = await demo_login_cookies(browser, site, names[0])
        seeds = [names[1]]

        def job(db: Path):
            return parse_job(demo_job(site.url, db, [f"/u/{s}" for s in seeds]), work / "job.toml")

        t0 = time.monotonic()
        options = CrawlOptions(quiet=True)
        first = job(work / "crawl.db")
        cookie_part = SimplePart(hooks=[CookieHook(cookies)])
        crawler = Crawler(first, options, [cookie_part, *build_parts(first, options)])
        summary = await crawler.run()
        truth = build_truth(site.state.content, site.clock.now())
        traversal = found_vs_expected(work / "crawl.db", truth, seeds)
        traversal["crawl_seconds"] = round(time.monotonic() - t0, 1)
        traversal["pages_per_second"] = summary.pages_per_second
        print("traversal:", json.dumps(traversal), flush=True)

        dbs = {s: work / f"{s}.db" for s in ("policy", "random")}
        for db in dbs.values():
            shutil.copy(work / "crawl.db", db)
        totals = {s: {"revisited": 0, "changed": 0, "expected": 0.0} for s in dbs}
        for r in range(1, args.rounds + 1):
            site.clock.advance(args.advance_hours * 3600)
            line = {"round": r, "site_time": site.clock.now().isoformat()}
            for strategy, db in dbs.items():
                s = await recrawl_job(job(db), args.budget, strategy, seed=args.seed * 1000 + r,  # type: ignore[arg-type]
                                  extra_hooks=[CookieHook(cookies)])
                totals[strategy]["revisited"] += s.revisited
                totals[strategy]["changed"] += s.changed
                totals[strategy]["expected"] += s.expected_changed
                line[strategy] = f"{s.changed}/{s.revisited} (predicted {s.expected_changed:.1f})"
            print("round:", json.dumps(line), flush=True)
        per = {s: t["changed"] / t["revisited"] if t["revisited"] else 0.0 for s, t in totals.items()}
        ratio = per["policy"] / per["random"] if per["random"] else float("inf")
        result = {
            "members": args.members, "budget": args.budget, "rounds": args.rounds,
            "advance_hours": args.advance_hours, "traversal": traversal,
            "policy_changed_per_revisit": round(per["policy"], 3),
            "random_changed_per_revisit": round(per["random"], 3),
            "ratio": round(ratio, 2) if ratio != float("inf") else "inf",
            "policy_predicted_per_revisit": round(totals["policy"]["expected"]
                                                  / max(1, totals["policy"]["revisited"]), 3),
            "changes_recorded": _changes(dbs["policy"]),
        }
        return result


def _changes(db: Path) -> dict[str, int]:
    conn = sqlite3.connect(db)
    try:
        return dict(conn.execute("SELECT change, COUNT(*) FROM changes GROUP BY change").fetchall())
    finally:
        conn.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--members", type=int, default=100)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--budget", type=int, default=10)
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--advance-hours", type=float, default=12.0)
    p.add_argument("--keep", type=Path, default=None, help="keep the databases in this folder")
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-social-") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        result = asyncio.run(bench(args, work))
    print(json.dumps(result, indent=2))
    print(f"policy finds {result['policy_changed_per_revisit']:.2f} changed members per revisit, random "
          f"{result['random_changed_per_revisit']:.2f}: ratio {result['ratio']}")


if __name__ == "__main__":
    main()
