"""Induction on the demo site, shared by tests/test_induction_demo.py and scripts/bench_induction.py.

The demo's thread pages (``/t/<id>-<slug>``) are the targets. Ground truth per thread comes from
``browsercrawl.demo.truth``; a thread page shows its first 10 comments inline and the rest behind
"load more" (only the AJAX part clicks it), so the expected comments are the first 10: the
wrapper extracts what is on the page.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from browsercrawl.demo.app import DemoSite
from browsercrawl.frontier.urls import canonical_url
from browsercrawl.induction.evaluate import Scores, score_crawl
from browsercrawl.induction.profile import SiteProfile

INLINE_COMMENTS = 10


def expected_record(site_url: str, thread: dict[str, Any]) -> dict[str, Any]:
    """What a perfect wrapper returns for one thread page as served (before "load more")."""
    shown = thread["comments"][:INLINE_COMMENTS]
    return {
        "title": thread["title"],
        "author": thread["author"],
        "author_url": f"{site_url}/u/{thread['author']}",
        "board_url": f"{site_url}/board/{thread['board']}",
        "posted": thread["posted"],
        "tags": list(thread["tags"]),
        "body": thread["body"].split("\n\n"),
        "comments": [c["text"] for c in shown],
        "comment_authors": [c["author"] for c in shown],
    }


def truth_records(site: DemoSite, truth: dict) -> dict[str, dict[str, Any]]:
    """Canonical thread URL -> expected record, for every thread of the site."""
    return {canonical_url(site.url + t["url"]): expected_record(site.url, t) for t in truth["threads.json"]}


def pick_samples(site: DemoSite, truth: dict) -> list[dict[str, Any]]:
    """Two threads with tags, several paragraphs and comments; the user lists a few comments."""
    good = [
        t
        for t in truth["threads.json"]
        if len(t["tags"]) >= 2 and 3 <= len(t["comments"]) <= INLINE_COMMENTS and "\n\n" in t["body"]
    ]
    assert len(good) >= 2, "demo site too small for two rich sample threads"
    samples = []
    for t in (good[0], good[len(good) // 2]):
        values = expected_record(site.url, t)
        values["comments"] = values["comments"][:3]
        values["comment_authors"] = values["comment_authors"][:3]
        samples.append({"url": site.url + t["url"], "values": values})
    return samples


def write_job(
    folder: Path, site: DemoSite, truth: dict, *, precrawl_pages: int, concurrency: int = 4
) -> Path:
    """A job file for the demo: home page as seed, the state-changing URLs kept out of scope.

    Logged in from ``folder/state.json`` (see ``tests/helpers_demo_login.login_storage_state``).
    """
    (folder / "samples.json").write_text(json.dumps(pick_samples(site, truth), indent=1))
    job = folder / "demo.toml"
    # Board pages render their thread list from JSON after the load event: wait for it there.
    job.write_text(
        f"""seeds = ["{site.url}/"]

[[ajax.rules]]
match = "/board/"
wait = "selector"
selector = "#thread-list[data-loaded]"
wait_cap_seconds = 5

[session]
method = "state"
state = "state.json"

[scope]
deny = ["/logout", "/login", "/account/", "/search"]

[politeness]
concurrency = {concurrency}
per_host_concurrency = {concurrency}

[output]
database = "demo.db"
store_html = false

[induction]
samples = "samples.json"
precrawl_pages = {precrawl_pages}
profile = "demo.profile.json"
"""
    )
    return job


def score_database(db_path: Path, profile: SiteProfile, site: DemoSite, truth: dict) -> Scores:
    """Read the crawl's pages and records and score them against the truth dump."""
    conn = sqlite3.connect(db_path)
    try:
        fetched = [r[0] for r in conn.execute("SELECT url FROM pages WHERE status = 200")]
        labels = [r[1] for r in conn.execute("PRAGMA table_info(records)")]
        records = {}
        for row in conn.execute("SELECT * FROM records"):
            rec = dict(zip(labels, row, strict=True))
            records[rec.pop("url")] = rec
    finally:
        conn.close()
    called = [u for u in fetched if profile.is_target(u)]
    return score_crawl(fetched, called, records, truth_records(site, truth))
