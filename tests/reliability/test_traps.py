"""Crawler traps are bounded by default: a calendar, an endless offset, a self-repeating path and
session ids in links, around real pages that must all be crawled."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from browsercrawl.config.traps import TrapsConfig
from browsercrawl.frontier.traps import TrapGuard, repeats_segments, strip_session_ids, url_shape
from tests.apps.server import serve_in_thread
from tests.apps.trapsite import TrapSite
from tests.test_engine_crawl import crawl, make_job, rows


def _paths(db) -> list[str]:
    urls = [u for (u,) in rows(db, "SELECT url FROM pages")]
    out = []
    for u in urls:
        p = urlsplit(u)
        out.append(p.path + (f"?{p.query}" if p.query else ""))
    return out


def test_shapes_session_ids_and_repeated_segments():
    assert url_shape("http://h/calendar?month=2024-05") == url_shape("http://h/calendar?month=1999-12")
    assert url_shape("http://h/calendar?month=2024-05") != url_shape("http://h/list?offset=10")
    assert url_shape("http://h/a/7") != url_shape("http://h/a/7/b")
    assert strip_session_ids("http://h/x?PHPSESSID=abc&id=3") == "http://h/x?id=3"
    assert strip_session_ids("http://h/x;jsessionid=AB12CD?id=3") == "http://h/x?id=3"
    # "sid" is a session id only when it carries a token; a short value is some other id.
    assert strip_session_ids("http://h/x?sid=4") == "http://h/x?sid=4"
    assert strip_session_ids("http://h/x?sid=0a1b2c3d4e5f6a7b8c9d") == "http://h/x"
    assert repeats_segments("http://h/docs/more/more/more/")
    assert repeats_segments("http://h/a/b/a/b/a/b")
    assert not repeats_segments("http://h/2024/01/01/")


def test_a_chain_of_one_shape_is_cut_but_other_shapes_start_their_own():
    guard = TrapGuard(TrapsConfig(max_chain=3))
    assert guard.judge("http://h/", "http://h/c?m=1").chain == 1
    assert guard.judge("http://h/c?m=1", "http://h/c?m=2").chain == 2
    assert guard.judge("http://h/c?m=2", "http://h/c?m=3").chain == 3
    assert guard.judge("http://h/c?m=3", "http://h/c?m=4").rule == "chain"
    # The same URL reached from a page of another shape is a new chain, not a trap.
    assert guard.judge("http://h/event/9", "http://h/c?m=4").rule is None
    assert guard.summary()["cut"] == 1


def test_default_crawl_of_a_trap_site_finishes_with_every_real_page(tmp_path, port, crawl_db):
    site = TrapSite()
    with serve_in_thread(site.app(), port) as base:
        job = make_job(tmp_path, base, crawl_db, rendering={"mode": "http"},
                       politeness={"concurrency": 4, "per_host_concurrency": 4})
        summary = crawl(job)
    paths = _paths(crawl_db)
    assert len(paths) == len(set(paths))
    assert site.real_paths <= set(paths), site.real_paths - set(paths)
    calendar = [p for p in paths if p.startswith("/calendar")]
    listing = [p for p in paths if p.startswith("/list")]
    docs = [p for p in paths if p.startswith("/docs/")]
    assert 0 < len(calendar) <= 200 and 0 < len(listing) <= 200
    assert len(docs) <= 3
    assert not any("PHPSESSID" in p for p in paths)
    assert summary["queued_left"] == 0 and summary["failed"] == 0
    assert summary["traps"]["cut_by_rule"]["chain"] >= 3  # calendar both ways, the offsets
    assert summary["traps"]["cut_by_rule"]["repeated-segments"] >= 1
    assert summary["traps"]["session_ids_removed"] > 0
    from browsercrawl.storage.report import collect_stats

    stats = collect_stats(str(crawl_db))
    assert stats["traps_cut"]["chain"] == summary["traps"]["cut_by_rule"]["chain"]


@pytest.mark.parametrize("stop_after", [40, 150])
def test_a_resumed_crawl_continues_the_same_chains(tmp_path, port, stop_after):
    """Stopped part-way and resumed, the calendar is bounded as in one run (chains are stored)."""
    site = TrapSite()
    with serve_in_thread(site.app(), port) as base:
        job = make_job(tmp_path, base, rendering={"mode": "http"},
                       politeness={"concurrency": 2, "per_host_concurrency": 2})
        first = crawl(job, max_pages=stop_after)
        assert first["queued_left"] > 0
        second = crawl(job)
    paths = _paths(tmp_path / "crawl.db")
    calendar = [p for p in paths if p.startswith("/calendar")]
    assert 0 < len(calendar) <= 200
    assert site.real_paths <= set(paths)
    assert second["queued_left"] == 0
