"""The demo's crawler trap: the archive links to the next month forever.

``run_archive_trap`` crawls the archive alone with the default ``[traps]`` settings (no depth or
page limit) and scores it: the crawl must end by itself, every month that has threads must be
stored, and the endless empty months beyond must be cut (``docs/traps.md``).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from browsercrawl_demo.jobs import crawl_fresh
from browsercrawl_demo.pages import FIRST_ARCHIVE, month_path


def run_archive_trap(out: Path, site_url: str, truth: dict, session: dict[str, Any], echo) -> dict[str, Any]:
    """Write ``archive.toml``, crawl the archive into ``archive.db``, and score it against ``truth``."""
    job = {
        "name": "demo-archive-trap",
        "seeds": [f"{site_url}{month_path(FIRST_ARCHIVE.year, FIRST_ARCHIVE.month)}"],
        "scope": {"allow": ["/archive/"], "deny": ["/logout", "/login", "/account/"]},
        "politeness": {"concurrency": 4, "per_host_concurrency": 4},
        # The browser path: a session that ends mid-crawl is renewed there (auto mode would fetch
        # these static pages over HTTP, which refuses logged-out pages but cannot log in again).
        "rendering": {"mode": "browser", "wait_until": "load"},
        "output": {"database": "archive.db", "store_html": False},
        "session": session,
    }
    echo("demo: crawling the archive, which links to the next month forever (default trap limits)")
    summary, seconds = crawl_fresh(out, "archive", job)
    with sqlite3.connect(out / "archive.db") as conn:
        stored = {urlsplit(u).path for (u,) in conn.execute("SELECT url FROM pages")}
    with_threads = set(truth["targets.json"]["archive"])
    return {
        "pages": summary.pages_total,
        "seconds": seconds,
        "finished": summary.queued_left == 0 and not summary.interrupted,
        "failed": summary.failed,
        "months_with_threads_found": len(with_threads & stored),
        "months_with_threads": len(with_threads),
        "empty_months_stored": len(stored - with_threads),
        "cut": summary.traps.get("cut", 0),
    }


def report_rows(report: dict[str, Any]) -> list[tuple[str, str]]:
    """Rows for the demo's table."""
    arc = report.get("archive_trap")
    if not arc:
        return []
    return [
        ("archive trap: months with threads found",
         f"{arc['months_with_threads_found']} / {arc['months_with_threads']}"),
        ("archive trap: ended by itself / empty months stored / links cut",
         f"{arc['finished']} / {arc['empty_months_stored']} / {arc['cut']}"),
    ]
