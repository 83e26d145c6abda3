"""Social traversal on the real demo site with a real Chromium: people, edges and items against the
truth dump, one person per canonical id, and revisits that find what changed.

One crawl (40 members, from two seeds, one of them given in two other URL forms) is shared by the
tests of this module; the recrawl test then advances the site clock and revisits.
"""

from __future__ import annotations

import asyncio
import csv
import json
import shutil
import sqlite3
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from browsercrawl_demo.app import DemoSite, demo_site_in_thread
from browsercrawl_demo.config import DemoConfig
from browsercrawl_demo.content import iso
from browsercrawl_demo.social_job import CookieHook, demo_job, demo_login_cookies, found_vs_expected
from browsercrawl_demo.truth import build_truth

from browsercrawl.assemble import build_parts
from browsercrawl.commands.data import all_stats
from browsercrawl.commands.recrawl import recrawl_job
from browsercrawl.config import parse_job
from browsercrawl.engine.browser import open_browser
from browsercrawl.engine.crawler import Crawler
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.engine.parts import SimplePart
from browsercrawl.engine.summary import CrawlSummary

pytestmark = pytest.mark.browser

SEED = 5
MEMBERS = 40


@dataclass
class World:
    site: DemoSite
    db: Path
    job_doc: dict
    cookies: list[dict]
    seeds: list[str]  # member names
    twice: str  # the member seeded under two more URL forms
    truth: dict
    summary: CrawlSummary
    crawled_at: object  # site time of the crawl


async def _login(site: DemoSite, user: str) -> list[dict]:
    async with open_browser() as browser:
        return await demo_login_cookies(browser, site, user)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    tmp = tmp_path_factory.mktemp("social")
    with demo_site_in_thread(DemoConfig(seed=SEED, port=0, members=MEMBERS)) as site:
        members = site.state.content.members
        cookies = asyncio.run(_login(site, members[0].name))
        seed, twice = members[1], members[2]
        paths = [f"/u/{seed.name}", f"/u/{twice.name}/", f"/member?id={twice.id}"]
        doc = demo_job(site.url, tmp / "crawl.db", paths)
        job = parse_job(doc, tmp / "job.toml")
        options = CrawlOptions(quiet=True)
        crawler = Crawler(job, options, [SimplePart(hooks=[CookieHook(cookies)]), *build_parts(job, options)])
        summary = asyncio.run(crawler.run())
        truth = build_truth(site.state.content, site.clock.now())
        yield World(site, tmp / "crawl.db", doc, cookies, [seed.name, twice.name], twice.name, truth,
                    summary, site.clock.now())


def _q(db: Path, sql: str, *args: object) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


def test_every_reachable_member_found_and_edges_exact(world: World) -> None:
    figures = found_vs_expected(world.db, world.truth, world.seeds)
    assert world.summary.failed == 0
    assert figures["people_found"] == figures["people_expected"] == MEMBERS, figures
    assert figures["edge_recall"] == 1.0 and figures["edge_precision"] == 1.0, figures
    # people were reached through relation lists, not by following hyperlinks
    kinds = dict(_q(world.db, "SELECT kind, COUNT(*) FROM frontier GROUP BY kind"))
    assert kinds.get("person", 0) >= MEMBERS - 2 and set(kinds) <= {None, "person"}
    # reading tabs and pressing "More" must never press Follow (or anything else that mutates)
    assert world.site.state.mutations == []


def test_person_reached_through_several_url_forms_is_stored_once(world: World) -> None:
    rows = _q(world.db, "SELECT id, url, visits FROM people WHERE id=?", world.twice)
    assert len(rows) == 1
    _, url, _ = rows[0]
    assert url == f"{world.site.url}/u/{world.twice}"
    visits = _q(world.db, "SELECT COUNT(*) FROM visits WHERE person_id=?", world.twice)[0][0]
    # both seeded forms (/u/<name>/ and /member?id=<n>, a redirect) were visited; /u/<name> from the
    # relation lists is queued only if no form of the person had been read yet
    assert 2 <= visits <= 3
    member_id = world.site.state.content.by_name[world.twice].id
    done = {r[0] for r in _q(world.db, "SELECT url FROM frontier WHERE state='done'")}
    assert {f"{world.site.url}/u/{world.twice}/", f"{world.site.url}/member?id={member_id}"} <= done
    assert len({r[0] for r in _q(world.db, "SELECT id FROM people")}) == MEMBERS


def test_fields_and_items_match_truth(world: World) -> None:
    truth_members = {m["name"]: m for m in world.truth["members.json"]}
    for pid, fields in _q(world.db, "SELECT id, fields FROM people"):
        f = json.loads(fields)
        assert f["display_name"] == truth_members[pid]["display_name"]
        assert int(f["member_id"]) == truth_members[pid]["id"]
    stored = {(p, i, t) for p, i, t in _q(world.db, "SELECT person_id, item_id, time FROM items")}
    expected = {(p["member"], p["id"], p["time"]) for p in world.truth["posts.json"]}
    assert stored == expected and len(expected) > 50
    rates = dict(_q(world.db, "SELECT id, rate_per_day FROM people"))
    busiest = max(truth_members.values(), key=lambda m: m["posting_rate"])
    quietest = min(truth_members.values(), key=lambda m: m["posting_rate"])
    assert rates[busiest["name"]] > 5 * rates[quietest["name"]]


def test_graph_export_and_stats(world: World, tmp_path: Path) -> None:
    from browsercrawl.cli import main

    for name in ("edges.csv", "graph.graphml"):
        with pytest.raises(SystemExit) as done:
            main(["export", str(world.db), "--graph", str(tmp_path / name)])
        assert done.value.code == 0
    with (tmp_path / "edges.csv").open() as fh:
        edges = {(r["from_id"], r["to_id"]) for r in csv.DictReader(fh)}
    assert edges == {tuple(e) for e in world.truth["follows.json"]}
    ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
    graph = ET.parse(tmp_path / "graph.graphml").getroot().find("g:graph", ns)
    assert graph is not None
    assert len(graph.findall("g:node", ns)) == MEMBERS
    assert len(graph.findall("g:edge", ns)) == len(edges)
    g = all_stats(str(world.db))["graph"]
    assert g["people_visited"] == MEMBERS and g["edges"] == len(edges) and g["components"] == 1


def test_recrawl_finds_changes_policy_beats_random_by_2x(world: World, tmp_path: Path) -> None:
    """Advance the site 12 hours; the policy's revisits must find >= 2x the changed fraction that
    random revisits find (the exact expectation of random revisits: the share of all members that
    posted), and record exactly the posts that appeared."""
    budget = 8
    world.site.clock.advance(12 * 3600)
    now = world.site.clock.now()
    changed_truth = {p["member"] for p in build_truth(world.site.state.content, now)["posts.json"]
                     if p["time"] > iso(world.crawled_at)}
    random_share = len(changed_truth) / MEMBERS

    dbs = {s: tmp_path / f"{s}.db" for s in ("policy", "random")}
    results = {}
    for strategy, db in dbs.items():
        shutil.copy(world.db, db)
        job = parse_job({**world.job_doc, "output": {"database": str(db)}}, tmp_path / "job.toml")
        results[strategy] = asyncio.run(recrawl_job(job, budget, strategy, seed=1,  # type: ignore[arg-type]
                                                    extra_hooks=[CookieHook(world.cookies)]))
    policy = results["policy"]
    assert policy.revisited == budget and policy.failed == 0
    assert policy.changed_per_revisit >= 2 * random_share, (policy, random_share)
    assert results["random"].revisited == budget

    # what the policy recorded as new is exactly what the site published since the crawl
    revisited = {r[0] for r in _q(dbs["policy"], "SELECT person_id FROM visits WHERE strategy='policy'")}
    recorded = {tuple(r) for r in _q(dbs["policy"], "SELECT person_id, detail FROM changes "
                                                    "WHERE change='new_item'")}
    appeared = {(p["member"], f"{p['id']} {p['time']}")
                for p in build_truth(world.site.state.content, now)["posts.json"]
                if p["member"] in revisited and p["time"] > iso(world.crawled_at)}
    assert recorded == appeared and len(appeared) >= policy.changed
    # a person with new posts shows them on the page: the text diff says so too, on the person's page
    diffs = {r[0]: (r[1], r[2]) for r in _q(dbs["policy"], "SELECT person_id, url, detail FROM changes "
                                                            "WHERE change='text_diff'")}
    posted = {m for m, _ in recorded}
    assert posted <= set(diffs) and all(url.endswith(f"/u/{pid}") for pid, (url, _) in diffs.items())
    assert all(detail.startswith(("+", "-")) for _, detail in diffs.values())
    summary = all_stats(str(dbs["policy"]))["graph"]["changes"]
    assert summary["by_kind"]["new_item"] == len(appeared) and summary["people_changed"] >= len(posted)
    # visit times are site times (the demo's clock), not this machine's
    last = _q(dbs["policy"], "SELECT MAX(last_visit) FROM people")[0][0]
    assert iso(world.crawled_at) < last <= iso(now) and last >= iso(now - timedelta(days=1))
