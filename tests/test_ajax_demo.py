"""The ajax part on the demo community: scrolled lists, load-more comments and profile tab states
are 100% complete against the ground truth, JSON answers are captured and feed the frontier,
nothing destructive is ever clicked, and adaptive mode renders only what needs it."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import zlib
from pathlib import Path
from typing import Any

import lxml.html
import pytest
from browsercrawl_demo.app import DemoSite, demo_site_in_thread
from browsercrawl_demo.config import DemoConfig
from browsercrawl_demo.jobs import DEMO_AJAX
from browsercrawl_demo.login import login_storage_state, state_context_factory
from browsercrawl_demo.truth import build_truth

from browsercrawl.assemble import build_parts
from browsercrawl.config import parse_job
from browsercrawl.engine.crawler import Crawler
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.engine.parts import SimplePart
from browsercrawl.engine.summary import CrawlSummary

pytestmark = pytest.mark.browser

# The demo job's [ajax] section (docs/ajax.md): every thread, comment, following/followers list.
@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Any:
    cfg = DemoConfig(port=0, members=40, threads=600, session_ttl_seconds=1e7)
    with demo_site_in_thread(cfg) as site:
        state = tmp_path_factory.mktemp("login") / "state.json"
        user = asyncio.run(login_storage_state(site, state))
        yield site, state, user, build_truth(site.state.content)


def run_crawl(site: DemoSite, state: Path, db: Path, seeds: list[str], ajax: dict | None,
              **sections: Any) -> CrawlSummary:
    data: dict[str, Any] = {
        "seeds": seeds,
        "scope": sections.pop("scope", {"max_depth": 0}),
        "politeness": {"concurrency": 3},
        "output": {"database": str(db)},
        **sections,
    }
    if ajax is not None:
        data["ajax"] = ajax
    job = parse_job(data, db.parent / "job.toml")
    options = CrawlOptions(quiet=True, fresh=True)
    login = SimplePart("demo-login", context_factory=state_context_factory(state))
    return asyncio.run(Crawler(job, options, [*build_parts(job, options), login]).run())


def q(db: Path, sql: str, *args: Any) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql, args).fetchall()


def page_doc(db: Path, url: str) -> Any:
    (blob,) = q(db, "SELECT html FROM pages WHERE url = ?", url)[0]
    return lxml.html.fromstring(zlib.decompress(blob).decode())


def test_scroll_load_more_and_tab_states_are_complete(demo, tmp_path):
    site, state, user, truth = demo
    c = site.state.content
    boards = sorted(c.boards, key=lambda b: -len(c.board_threads[b.id]))[:2]
    threads = sorted(c.threads.values(), key=lambda t: -len(t.comments))
    picked = threads[:4] + [t for t in threads if 0 < len(t.comments) <= 10][:1]
    follows: dict[str, list[str]] = {}
    for a, b in truth["follows.json"]:
        follows.setdefault(a, []).append(b)
    followers: dict[str, list[str]] = {}
    for a, b in truth["follows.json"]:
        followers.setdefault(b, []).append(a)
    # profiles whose lists need the "More" button (over 20) and the logged-in user's own profile
    members = sorted(c.members, key=lambda m: -len(followers.get(m.name, [])))[:2]
    names = [m.name for m in members] + [user]
    seeds = ([f"{site.url}{b.path}?page=1" for b in boards] + [site.url + t.path for t in picked]
             + [f"{site.url}/u/{n}" for n in names])
    assert len(followers[members[0].name]) > 20 and len(c.board_threads[boards[0].id]) > 40
    db = tmp_path / "crawl.db"
    summary = run_crawl(site, state, db, seeds, DEMO_AJAX)
    assert summary.pages_stored == len(seeds) and summary.failed == 0

    # Infinite scroll: every thread of each board is linked from its stored page.
    by_board: dict[int, set[str]] = {}
    for t in truth["threads.json"]:
        by_board.setdefault(t["board"], set()).add(site.url + t["url"])
    for b in boards:
        url = f"{site.url}{b.path}?page=1"
        linked = {u for (u,) in q(db, "SELECT l.url FROM links l JOIN pages p ON p.id = l.page_id "
                                      "WHERE p.url = ?", url)}
        assert by_board[b.id] <= linked, f"board {b.id}: {len(by_board[b.id] - linked)} threads missing"
        rounds, items = q(db, "SELECT scroll_rounds, items_after FROM expansions WHERE page_url = ?", url)[0]
        assert rounds >= 2 and items == len(by_board[b.id])

    # Load more: every comment of every thread, in order.
    truth_threads = {t["url"]: t for t in truth["threads.json"]}
    for t in picked:
        doc = page_doc(db, site.url + t.path)
        got = [e.text_content() for e in doc.cssselect("#comments .comment-text")]
        assert got == [x["text"] for x in truth_threads[t.path]["comments"]]
        (clicks,) = q(db, "SELECT load_more_clicks FROM expansions WHERE page_url = ?", site.url + t.path)[0]
        assert clicks == max(0, -(-(len(t.comments) - 10) // 10))

    # Tab states: each profile's full following and followers lists, in a state with its click path.
    for n in names:
        url = f"{site.url}/u/{n}"
        rows = q(db, "SELECT click_path, html FROM states WHERE page_url = ? ORDER BY seq", url)
        seen: dict[str, set[str]] = {"following": set(), "followers": set()}
        for path, blob in rows:
            doc = lxml.html.fromstring(zlib.decompress(blob).decode())
            last = json.loads(path)[-1]["text"].lower()
            for kind in seen:
                links = {a.get("href") for a in doc.cssselect(f"#panel-{kind} a.member-link")}
                if last == kind:
                    seen[kind] = links
        assert seen["following"] == {f"/u/{x}" for x in follows.get(n, [])}, n
        assert seen["followers"] == {f"/u/{x}" for x in followers.get(n, [])}, n

    # Captured JSON: the API answers behind those lists are stored with their page.
    apis = {u for (u,) in q(db, "SELECT url FROM responses WHERE status = 200")}
    assert any("/comments?offset=" in u for u in apis) and any("/followers?page=2" in u for u in apis)
    # Nothing was changed: no follow, like, delete or logout, although all those buttons were there.
    assert site.state.mutations == []
    assert user not in site.state.auth.deleted


def test_captured_json_ids_feed_the_frontier(demo, tmp_path):
    site, state, _user, _truth = demo
    c = site.state.content
    board = max(c.boards, key=lambda b: len(c.board_threads[b.id]))
    seed = f"{site.url}{board.path}?page=1"
    ajax = {
        "rules": [{"match": "/board/", "wait": "dom-stable", "scroll": 50,
                   "done_selector": "#list-end:not([hidden])"}],
        "capture": [{"match": r"/api/board/\d+/threads", "follow_urls": False, "id_url": "/t/{id}"}],
    }
    # Only bare /t/<id> URLs are in scope: they appear nowhere in the DOM, only as ids in the JSON.
    scope = {"max_depth": 1, "allow": [r"/board/\d+\?page=1$", r"/t/\d+$"]}
    db = tmp_path / "crawl.db"
    summary = run_crawl(site, state, db, [seed], ajax, scope=scope)
    queued = {u for (u,) in q(db, "SELECT url FROM frontier WHERE kind = 'ajax'")}
    want = {f"{site.url}/t/{t.id}" for t in c.board_threads[board.id]}
    assert queued == want
    stored = {u for (u,) in q(db, "SELECT url FROM pages")}
    assert {site.url + t.path for t in c.board_threads[board.id]} <= stored  # followed the 301s
    assert summary.failed == 0


def test_adaptive_renders_only_what_needs_it(demo, tmp_path):
    site, state, _user, truth = demo
    c = site.state.content
    targets = truth["targets.json"]
    server_rendered = [site.url + p for p in targets["tag"][:8] + targets["help"][:8]]
    boards = [f"{site.url}{b.path}?page=1" for b in c.boards[:6]]
    profiles = [site.url + m.path for m in c.members[:6]]
    # Threads: the first samples have no "load more", later ones do (HTML alone would lose comments).
    by_comments = sorted(c.threads.values(), key=lambda t: len(t.comments))
    threads = [site.url + t.path for t in by_comments[:5] + by_comments[-3:]]
    seeds = server_rendered + boards + profiles + threads
    db = tmp_path / "crawl.db"
    ajax = {"rules": [DEMO_AJAX["rules"][0], DEMO_AJAX["rules"][1],
                      {**DEMO_AJAX["rules"][2], "explore": None}]}
    summary = run_crawl(site, state, db, seeds, ajax,
                        rendering={"mode": "auto", "auto_sample_pages": 2},
                        politeness={"concurrency": 1})
    assert summary.failed == 0 and summary.pages_total == len(seeds)
    via = dict(q(db, "SELECT url, via FROM pages"))
    # After the samples, server-rendered shapes come over HTTP (with the browser's login cookies).
    assert sum(via[u] == "http" for u in server_rendered) >= len(server_rendered) - 4
    assert all("Log in" not in t for (t,) in q(db, "SELECT title FROM pages"))
    # Client-rendered shapes are always rendered.
    assert all(via[u] == "browser" for u in boards + profiles)
    assert summary.adaptive[f"127.0.0.1:{site.port}/tag/{{name}}"] == "http"
    assert summary.adaptive[f"127.0.0.1:{site.port}/board/{{id}}?page"] == "browser"
    # Long threads were rendered so every comment is there, even though short ones matched HTML.
    for t in by_comments[-3:]:
        doc = page_doc(db, site.url + t.path)
        assert len(doc.cssselect("#comments .comment")) == len(t.comments)
        assert via[site.url + t.path] == "browser"
    assert site.state.mutations == []
