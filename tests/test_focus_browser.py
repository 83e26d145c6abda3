"""A focused crawl in the real browser: scores come from the rendered DOM, the order is the same."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from pathlib import Path

import pytest
from browsercrawl_demo.focus_sites import make_app, make_site

from browsercrawl.assemble import build_crawler
from browsercrawl.config import parse_job
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.frontier.urls import canonical_url
from tests.apps.server import serve_in_thread
from tests.conftest import free_port


@pytest.mark.browser
def test_focused_crawl_in_the_browser_finds_the_targets_first(tmp_path: Path) -> None:
    sites = {s: make_site(s) for s in ("tree", "wiki")}
    with contextlib.ExitStack() as stack:
        bases = {s: stack.enter_context(serve_in_thread(make_app(site), free_port()))
                 for s, site in sites.items()}
        truth = {canonical_url(bases[s] + p) for s, site in sites.items() for p in site.targets()}
        example = canonical_url(bases["tree"] + sorted(sites["tree"].targets())[0])
        total = sum(len(site.pages) for site in sites.values())
        db = tmp_path / "c.db"
        job = parse_job({
            "seeds": [bases[s] + sites[s].root for s in sites],
            "rendering": {"mode": "browser", "timeout_seconds": 60, "block": ["image", "font", "media"]},
            "politeness": {"concurrency": 4, "per_host_concurrency": 2, "obey_robots": False},
            "output": {"database": str(db)},
            "focus": {"examples": [example], "budget": total // 2},
        }, tmp_path / "job.toml")
        summary = asyncio.run(build_crawler(job, CrawlOptions(quiet=True)).run())
    assert summary.via_browser > 0 and summary.via_http == 0
    with sqlite3.connect(db) as conn:
        stored = {r[0] for r in conn.execute("SELECT requested_url FROM pages")}
        said = {r[0] for r in conn.execute("SELECT url FROM focus_pages WHERE kind = 'target'")}
    assert len(stored) <= total // 2 + 10
    found = (truth & stored) - {example}
    assert len(found) >= 0.7 * (len(truth) - 1)  # half the pages hold most of the targets
    assert len(said & truth) / len(said) >= 0.9 and len(said & truth) >= 0.9 * len(found)


@pytest.mark.browser
def test_focused_crawl_behind_a_login_that_expires(tmp_path: Path, monkeypatch) -> None:
    """Through the session part: logged in, logged out every 40 pages, logged in again; a login
    page is never scored nor stored, and the targets are still found and labelled."""
    monkeypatch.setenv("BC_FOCUS_PASSWORD", "s3cret")
    site = make_site("tree")
    with serve_in_thread(make_app(site, password="s3cret", expire_every=40), free_port()) as base:
        truth = {canonical_url(base + p) for p in site.targets()}
        example = canonical_url(base + sorted(site.targets())[0])
        db = tmp_path / "c.db"
        job = parse_job({
            "seeds": [base + "/"],
            "scope": {"deny": ["/login", "/logout"]},
            "rendering": {"mode": "browser", "timeout_seconds": 60, "block": ["image", "font", "media"]},
            "politeness": {"concurrency": 2, "per_host_concurrency": 2, "obey_robots": False},
            "output": {"database": str(db)},
            "session": {"method": "form", "login_url": base + "/login",
                        "accounts": [{"username": "crawler", "password_env": "BC_FOCUS_PASSWORD"}]},
            "focus": {"examples": [example]},
        }, tmp_path / "job.toml")
        summary = asyncio.run(build_crawler(job, CrawlOptions(quiet=True)).run())
    assert summary.parts["session"]["relogins"] >= 1
    with sqlite3.connect(db) as conn:
        titles = [r[0] for r in conn.execute("SELECT title FROM pages")]
        said = {r[0] for r in conn.execute("SELECT url FROM focus_pages WHERE kind = 'target'")}
        scored = conn.execute("SELECT COUNT(*) FROM focus_pages").fetchone()[0]
    assert "Log in" not in titles and scored == len(titles)
    assert said == truth  # every target found and labelled, nothing else
