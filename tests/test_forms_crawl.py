"""The search-forms part in real crawls of a site with every kind of form (tests/apps/formsite.py)."""

from __future__ import annotations

import asyncio
import itertools
import json
import sqlite3
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from browsercrawl.assemble import build_crawler
from browsercrawl.config import load_job
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.forms.part import PART as SEARCH_FORMS
from browsercrawl.frontier.urls import host_key
from browsercrawl.storage.reader import Reader
from tests.apps.formsite import FormSite, make_app, make_items
from tests.apps.server import serve_in_thread


def write_job(tmp_path: Path, base: str, mode: str, **search_forms) -> Path:
    cfg = {"max_queries_per_site": 40, "form_pages_before_queries": 3, "terms_per_round": 4, **search_forms}
    lines = [f'seeds = ["{base}/"]', "[rendering]", f'mode = "{mode}"', "[politeness]",
             "concurrency = 2", "per_host_concurrency = 2", "delay_seconds = 0.05",
             "[output]", f'database = "{tmp_path / "crawl.db"}"', "[search_forms]"]
    lines += [f"{k} = {json.dumps(v)}" for k, v in cfg.items()]
    path = tmp_path / "job.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def run(job: Path):
    crawler = build_crawler(load_job(job), CrawlOptions(quiet=True, fresh=True))
    summary = asyncio.run(crawler.run())
    return crawler, summary.as_dict()


def q(db: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql).fetchall()


def _terms(site: FormSite, path: str) -> list[str]:
    out = []
    for _, method, path_qs, body in site.log:
        parts = urlsplit(path_qs)
        if parts.path == path:
            args = parse_qs(body) if method == "POST" else parse_qs(parts.query)
            out += [v for vs in args.values() for v in vs]
    return out


def _common_checks(site: FormSite, db: Path, summary: dict) -> None:
    # Every other kind of form was seen on the pages, and none was ever submitted.
    kinds = dict(q(db, "SELECT kind, COUNT(*) FROM forms GROUP BY kind"))
    others = {"login", "registration", "newsletter", "comment", "contact", "upload", "delete", "other"}
    assert others <= set(kinds)
    assert site.forbidden_hits() == []
    # Queries went through the frontier (so through the per-host scheduler) and were fetched.
    urls = {u for (u,) in q(db, "SELECT url FROM queries WHERE round > 0 AND method = 'get'")}
    states = dict(q(db, "SELECT url, state FROM frontier WHERE kind LIKE 'search-%'"))
    assert urls and all(states.get(u) == "done" for u in urls)
    # Items are linked from no page: every stored one was listed by a search.
    items = {u for (u,) in q(db, "SELECT url FROM pages WHERE url LIKE '%/item/%'")}
    listed = {u for (u,) in q(db, "SELECT url FROM query_records")}
    assert items and items <= listed
    # Each result page keeps the query that reached it; paging was followed.
    assert q(db, "SELECT COUNT(*) FROM query_pages WHERE page >= 2")[0][0] > 0
    assert q(db, "SELECT COUNT(*) FROM query_pages qp JOIN pages p ON p.url = qp.url")[0][0] > 0
    assert summary["search_forms"]["queries"] > 0 and summary["failed"] == 0


def test_http_crawl_queries_the_get_form_and_submits_nothing_else(tmp_path, port):
    site = FormSite(make_items())
    with serve_in_thread(make_app(site), port) as base:
        crawler, summary = run(write_job(tmp_path, base, "http"))
    db = tmp_path / "crawl.db"
    _common_checks(site, db, summary)
    assert _terms(site, "/search")
    # Over plain HTTP the POST form and the script box cannot be used; the forms table says why.
    notes = dict(q(db, "SELECT method, note FROM forms WHERE kind = 'search' AND usable = 0"))
    assert "browser" in notes["post"] and "browser" in notes["script"]
    assert not _terms(site, "/advanced/results") and not _terms(site, "/api/find")
    # Rounds: the probe (round 0) first, then rounds 1.. from clusters and result pages.
    rounds = [r for (r,) in q(db, "SELECT DISTINCT round FROM queries ORDER BY round")]
    assert rounds[0] == 0 and 1 in rounds and 2 in rounds
    budget = q(db, "SELECT COUNT(*) FROM queries")[0][0]
    assert budget <= 40
    # `browsercrawl stats` shows the same figures as the crawl's summary.
    reader = Reader(db)
    try:
        stats = SEARCH_FORMS.stats(reader)["search_forms"]
    finally:
        reader.close()
    assert stats["queries"] == summary["search_forms"]["queries"] and 0 < stats["valid_share"] <= 1
    assert stats["forms_seen"]["search"] == 4  # GET, POST and two boxes without a form
    # Per-host politeness held for every request, queries included.
    starts = crawler.scheduler.slots[host_key(base + "/")].starts
    assert all(b - a >= 0.05 - 1e-3 for a, b in itertools.pairwise(starts))


@pytest.mark.browser
@pytest.mark.slow
def test_browser_crawl_queries_get_post_and_script_search(tmp_path, port):
    site = FormSite(make_items())
    with serve_in_thread(make_app(site), port) as base:
        # A seed term: the advanced form's page alone would seed it with its own words only.
        _, summary = run(write_job(tmp_path, base, "browser", seed_terms=["pear"]))
    db = tmp_path / "crawl.db"
    _common_checks(site, db, summary)
    # The POST form was sent as a POST, with its token read afresh, and its results stored.
    posted = [b for _, m, p, b in site.log if m == "POST" and p == "/advanced/results"]
    assert posted and all(f"csrf={site.csrf}" in b for b in posted)
    assert q(db, "SELECT COUNT(*) FROM queries WHERE method = 'post' AND valid = 1")[0][0] > 0
    # The form-less box was learned by typing once; its JSON endpoint was then queried as pages.
    spec = json.loads(q(db, "SELECT spec FROM forms WHERE method = 'script' AND kind = 'search'")[0][0])
    assert spec["template"].endswith("/api/find?q={q}")
    assert len(set(_terms(site, "/api/find"))) > 2
    # A box that ignores Enter was learned through its own search button; the one whose nearest
    # button deletes the account was read as a delete form and never touched.
    assert any("src=tools" in p for _, m, p, _ in site.log if p.startswith("/api/find"))
    assert q(db, "SELECT COUNT(*) FROM forms WHERE method = 'script' AND kind = 'delete'")[0][0] == 1
    assert q(db, "SELECT COUNT(*) FROM queries q JOIN forms f ON f.id = q.form "
                 "WHERE f.method = 'script' AND q.round > 0 AND q.valid = 1")[0][0] > 0
    assert site.forbidden_hits() == []


def test_an_interrupted_crawl_resumes_its_query_rounds(tmp_path, port):
    """Stopped mid-way (page budget), the next run goes on in the same rounds, repeating no term."""
    site = FormSite(make_items())
    with serve_in_thread(make_app(site), port) as base:
        job = write_job(tmp_path, base, "http")
        first = asyncio.run(build_crawler(load_job(job), CrawlOptions(quiet=True, fresh=True,
                                                                       max_pages=45)).run())
        db = tmp_path / "crawl.db"
        rounds_before = q(db, "SELECT MAX(round) FROM queries")[0][0]
        queued = q(db, "SELECT COUNT(*) FROM frontier WHERE state = 'queued'")[0][0]
        assert first.pages_stored == 45 and queued > 0 and rounds_before >= 1
        asyncio.run(build_crawler(load_job(job), CrawlOptions(quiet=True)).run())
    terms = q(db, "SELECT form, term, COUNT(*) FROM queries GROUP BY form, term HAVING COUNT(*) > 1")
    assert terms == []
    assert q(db, "SELECT MAX(round) FROM queries")[0][0] > rounds_before
    assert q(db, "SELECT COUNT(*) FROM queries WHERE status = 'queued'")[0][0] == 0
    assert q(db, "SELECT COUNT(*) FROM pages WHERE url LIKE '%/item/%'")[0][0] >= 80
    assert site.forbidden_hits() == []
