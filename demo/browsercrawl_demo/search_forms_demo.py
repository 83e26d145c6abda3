"""``browsercrawl demo``'s search-forms crawl: the threads only the site's search reaches.

One job, written to the output folder as ``search.toml``: it starts at ``/boards`` (the board
pages are the form pages: each shows the header's quick-search box once rendered), finds the
search forms (the ``/search`` GET form and the form-less quick-search box), queries them in rounds
and crawls the threads their results list. The community crawl's induced wrapper extracts the
records (when it exists). The score is the search-only threads of the truth dump
(``search_only.json``) that were stored, against those a link-following crawl reaches (none).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from browsercrawl.frontier.urls import canonical_url
from browsercrawl_demo.jobs import crawl_fresh

SEARCH_FORMS: dict[str, Any] = {
    "max_queries_per_site": 150,
    "max_result_pages": 5,
    "form_pages_before_queries": 15,
    "languages": ["en"],
}


def search_only_urls(site_url: str, truth: dict) -> set[str]:
    return {canonical_url(site_url + t["url"]) for t in truth["search_only.json"]}


def coverage(db: Path, site_url: str, truth: dict) -> dict[str, Any]:
    """Search-only threads stored (and extracted) by a crawl, with the search figures behind them."""
    wanted = search_only_urls(site_url, truth)
    with sqlite3.connect(db) as conn:
        stored = {u for (u,) in conn.execute("SELECT url FROM pages WHERE status = 200")}
        tables = {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        out: dict[str, Any] = {"search_only_found": len(wanted & stored), "search_only_existing": len(wanted)}
        if "records" in tables:
            records = {u for (u,) in conn.execute("SELECT url FROM records")}
            out["search_only_records"] = len(wanted & records)
        if "queries" in tables:
            rows = conn.execute("SELECT round, COUNT(*), SUM(valid), SUM(new) FROM queries "
                                "WHERE round > 0 AND result_pages > 0 GROUP BY round").fetchall()
            n = sum(r[1] for r in rows)
            out["queries"] = n
            out["probes"] = conn.execute("SELECT COUNT(*) FROM queries WHERE round = 0").fetchone()[0]
            out["result_pages"] = conn.execute("SELECT COUNT(*) FROM query_pages qp JOIN queries q "
                                               "ON q.id = qp.query WHERE q.round > 0").fetchone()[0]
            out["valid_share"] = round(sum(r[2] or 0 for r in rows) / n, 3) if n else None
            out["new_per_query_by_round"] = {r[0]: round((r[3] or 0) / r[1], 1) for r in rows}
            out["forms"] = dict(conn.execute("SELECT kind, COUNT(*) FROM forms GROUP BY kind").fetchall())
    return out


def run_search_forms(out: Path, site_url: str, truth: dict, session: dict[str, Any],
                     profile: Path | None, echo, *, name: str = "search",
                     overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """Write ``<name>.toml``, crawl into ``<name>.db``, and score the search-only threads.

    ``overrides`` change keys of the ``[search_forms]`` section (the benchmark turns the
    template/noise filter off with it).
    """
    job: dict[str, Any] = {
        "name": "demo-search-forms",
        "seeds": [f"{site_url}/boards"],
        "scope": {"allow": [r"/boards$", r"/board/\d+(\?page=1)?$", r"/search", r"/api/search", r"/t/\d+"],
                  "deny": ["/logout", "/login", "/account/"]},
        "politeness": {"concurrency": 4, "per_host_concurrency": 4},
        "rendering": {"mode": "auto", "wait_until": "load"},
        "output": {"database": f"{name}.db", "store_html": False},
        "session": session,
        "search_forms": {**SEARCH_FORMS, **(overrides or {})},
    }
    if profile is not None and profile.is_file():
        job["induction"] = {"profile": profile.name, "supervised": False}
    echo("demo: querying the site's search forms for what no link reaches")
    summary, seconds = crawl_fresh(out, name, job)
    report = {"pages": summary.pages_total, "seconds": seconds,
              "failed": summary.failed, **coverage(out / f"{name}.db", site_url, truth),
              # auto mode: which URL shapes were built from their JSON instead of rendered
              "api_shortcut": summary.api_shortcut}
    community = out / "community.db"
    if community.is_file():
        report["search_only_by_links"] = coverage(community, site_url, truth)["search_only_found"]
    return report


def report_rows(report: dict[str, Any]) -> list[tuple[str, str]]:
    """Rows of ``browsercrawl demo``'s table for the search-forms crawl."""
    s = report.get("search_forms")
    if not s:
        return []
    rows = [
        ("search forms: pages crawled", f"{s.get('pages')} in {s.get('seconds')} s"),
        ("search-only threads found (no link reaches them)",
         f"{s.get('search_only_found')} / {s.get('search_only_existing')}"),
        ("search-only threads found by the link crawl", f"{s.get('search_only_by_links', '-')}"),
        ("queries / valid result pages per query", f"{s.get('queries')} / {s.get('valid_share')}"),
        ("new threads per query, by round", str(s.get("new_per_query_by_round"))),
    ]
    shortcut = s.get("api_shortcut") or {}
    if shortcut:
        shapes = shortcut.get("shapes") or {}
        used = sum(v.startswith("shortcut") for v in shapes.values())
        rows.append(("search forms (auto mode): pages built from their JSON, not rendered",
                     f"{shortcut.get('renders_avoided', 0)} ({used} of {len(shapes)} rendered URL shapes)"))
    if "search_only_records" in s:
        rows.append(("search-only threads extracted by the wrapper", str(s["search_only_records"])))
    return rows
