"""Search-only content on the demo site, and the search-forms crawl that reaches it."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from browsercrawl_demo.app import demo_site_in_thread
from browsercrawl_demo.config import DemoConfig
from browsercrawl_demo.content import generate
from browsercrawl_demo.login import login_storage_state
from browsercrawl_demo.search_forms_demo import report_rows, run_search_forms
from browsercrawl_demo.truth import build_truth


def test_search_only_threads_are_linked_from_nowhere_and_found_by_search() -> None:
    c = generate(5, members=40)
    listed = [t for t in c.threads.values() if t.id not in c.unlisted]
    assert len(c.unlisted) == round(len(listed) * 0.1) > 0
    linked = {t.id for ts in c.board_threads.values() for t in ts}
    linked |= {t.id for ts in c.tag_threads.values() for t in ts}
    linked |= {t.id for ts in c.month_threads.values() for t in ts}
    assert linked == {t.id for t in listed} and not (linked & c.unlisted)
    hidden = c.threads[min(c.unlisted)]
    assert hidden in c.search(" ".join(hidden.title.split()[:2]))
    truth = build_truth(c)
    assert {t["id"] for t in truth["search_only.json"]} == c.unlisted
    assert not {t["id"] for t in truth["threads.json"]} & c.unlisted
    assert hidden.path not in truth["targets.json"]["targets"]
    assert truth["meta.json"]["search_only"] == len(c.unlisted)
    # The listed content of a seed does not change with the search-only threads next to it.
    assert [t["title"] for t in truth["threads.json"]][:3] == [t.title for t in listed[:3]]


@pytest.mark.browser
@pytest.mark.slow
def test_search_forms_crawl_reaches_search_only_threads(tmp_path: Path) -> None:
    cfg = DemoConfig(port=0, members=60, session_ttl_seconds=1e7)
    with demo_site_in_thread(cfg) as site:
        truth = build_truth(site.state.content)
        asyncio.run(login_storage_state(site, tmp_path / "state.json"))
        report = run_search_forms(tmp_path, site.url, truth, {"method": "state", "state": "state.json"},
                                  None, lambda _msg: None)
        mutations = list(site.state.mutations)
    assert report["failed"] == 0 and mutations == []
    # Both search interfaces were found: the /search form and the header's form-less quick search.
    with sqlite3.connect(tmp_path / "search.db") as conn:
        rows = conn.execute("SELECT method FROM forms WHERE kind = 'search' AND usable = 1").fetchall()
        methods = {m for (m,) in rows}
        template = conn.execute("SELECT spec FROM forms WHERE method = 'script'").fetchone()[0]
    assert methods == {"get", "script"} and "/api/search?q={q}" in template
    existing = report["search_only_existing"]
    assert existing == len(truth["search_only.json"]) == 40
    assert report["search_only_found"] >= 0.6 * existing, report
    assert report["valid_share"] >= 0.7, report
    # Auto mode: the report says what the API shortcut did with the shapes that were rendered.
    assert report["api_shortcut"]["shapes"], report
    assert any("built from their JSON" in label for label, _ in report_rows({"search_forms": report}))
