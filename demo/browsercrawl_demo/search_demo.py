"""The full-text index scored on the demo's community crawl: is each crawled thread the first hit
for the words of its title, and for a sentence of its body, and can its record be found?

Ground truth is the site's own ``threads.json``; the search is the product's (the code behind
``browsercrawl search``), run on the crawl's database as a user would.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from browsercrawl.storage.reader import open_reader
from browsercrawl.storage.search import SearchQuery, search
from browsercrawl.storage.search_index import index_figures

SAMPLE = 200  # threads searched for (the figures are shares, so a sample is enough)


def search_scores(db: Path, site_url: str, truth: dict[str, Any], seed: int = 0) -> dict[str, Any]:
    """Shares of sampled stored threads found first by their title and by a body sentence."""
    reader = open_reader(db)
    try:
        stored = {u for (u,) in reader.execute("SELECT url FROM pages")}
        threads = [t for t in truth["threads.json"] if site_url + t["url"] in stored]
        sample = random.Random(seed).sample(threads, min(SAMPLE, len(threads)))
        by_title = by_body = in_records = 0
        has_records = "records" in reader.tables()
        for t in sample:
            url = site_url + t["url"]
            hits = search(reader, SearchQuery(text=t["title"], limit=1))
            by_title += bool(hits) and hits[0].url == url
            sentence = t["body"].split(". ")[0].strip().rstrip(".").replace('"', '""')
            hits = search(reader, SearchQuery(text=f'"{sentence}"', limit=1))
            by_body += bool(hits) and hits[0].url == url
            if has_records:
                hits = search(reader, SearchQuery(text=t["title"], table="records", limit=3))
                in_records += any(h.url == url for h in hits)
        figures = index_figures(reader.db.conn)
    finally:
        reader.close()
    n = max(1, len(sample))
    return {"threads_searched": len(sample), "first_by_title": round(by_title / n, 3),
            "first_by_body_sentence": round(by_body / n, 3),
            "record_in_top3_by_title": round(in_records / n, 3) if has_records else None,
            "index_bytes": figures.get("index_bytes", 0)}


def report_rows(report: dict[str, Any]) -> list[tuple[str, str]]:
    """Rows of ``browsercrawl demo``'s table for the search index."""
    s = report.get("search")
    if not s:
        return []
    return [
        (f"search: first hit by title, of {s['threads_searched']} threads", str(s["first_by_title"])),
        ("search: first hit by a body sentence", str(s["first_by_body_sentence"])),
        ("search: record in top 3 by title", str(s["record_in_top3_by_title"])),
        ("search: index size", f"{s['index_bytes'] / 1e6:.1f} MB"),
    ]
