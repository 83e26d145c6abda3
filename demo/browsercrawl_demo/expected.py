"""What a perfect crawl of the demo site finds, derived from its truth dump.

Shared by ``browsercrawl demo``, the tests and the benchmarks so "expected" means one thing.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from browsercrawl.frontier.urls import canonical_url
from browsercrawl.induction.evaluate import Scores, score_crawl
from browsercrawl.induction.profile import SiteProfile

INLINE_COMMENTS = 10  # a thread page shows this many comments before "load more"


def expected_record(
    site_url: str, thread: dict[str, Any], comments: int | None = INLINE_COMMENTS
) -> dict[str, Any]:
    """The record a perfect wrapper extracts from one thread page.

    ``comments`` is how many comments the stored page shows: the first 10 as served, or all of
    them (None) when the AJAX part clicked "load more" before the snapshot.
    """
    shown = thread["comments"] if comments is None else thread["comments"][:comments]
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


def truth_records(
    site_url: str, truth: dict, comments: int | None = INLINE_COMMENTS
) -> dict[str, dict[str, Any]]:
    """Canonical thread URL -> expected record, for every thread of the site."""
    return {
        canonical_url(site_url + t["url"]): expected_record(site_url, t, comments)
        for t in truth["threads.json"]
    }


def pick_samples(site_url: str, truth: dict, comments: int | None = INLINE_COMMENTS) -> list[dict[str, Any]]:
    """Two threads with tags, several paragraphs and comments; like a user, list only a few comments."""
    good = [
        t
        for t in truth["threads.json"]
        if len(t["tags"]) >= 2 and 3 <= len(t["comments"]) <= INLINE_COMMENTS and "\n\n" in t["body"]
    ]
    if len(good) < 2:
        raise ValueError("demo site too small for two rich sample threads")
    samples = []
    for t in (good[0], good[len(good) // 2]):
        values = expected_record(site_url, t, comments)
        values["comments"] = values["comments"][:3]
        values["comment_authors"] = values["comment_authors"][:3]
        samples.append({"url": site_url + t["url"], "values": values})
    return samples


def score_records(db: Path, site_url: str, truth: dict, profile: SiteProfile,
                  comments: int | None = INLINE_COMMENTS) -> Scores:
    """Score a supervised crawl's pages and ``records`` against the truth dump."""
    conn = sqlite3.connect(db)
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
    return score_crawl(fetched, called, records, truth_records(site_url, truth, comments))


def login_pages_stored(db: Path) -> int:
    """Pages that are the login form (what a crawl stores when it silently loses its session)."""
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT COUNT(*) FROM pages WHERE url LIKE '%/login%' OR title LIKE 'Log in -%'"
        ).fetchone()[0]
