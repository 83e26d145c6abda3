"""Focused crawls through the real engine (HTTP fetcher) over the five fixture sites, against truth."""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from browsercrawl_demo.focus_sites import SHAPES, make_app, make_site

from browsercrawl.assemble import build_crawler
from browsercrawl.commands.data import all_stats
from browsercrawl.config import parse_job
from browsercrawl.engine.options import CrawlOptions
from browsercrawl.errors import UserError
from browsercrawl.frontier.urls import canonical_url
from browsercrawl.storage.reader import open_reader
from tests.apps.server import serve_in_thread
from tests.conftest import free_port

EXAMPLE_SITES = ("tree", "cms", "wiki")  # none from blog nor from portal


@dataclass
class World:
    seeds: list[str]
    examples: list[str]
    truth: set[str]
    pages: int


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    sites = {s: make_site(s) for s in SHAPES}
    with contextlib.ExitStack() as stack:
        bases = {s: stack.enter_context(serve_in_thread(make_app(site), free_port()))
                 for s, site in sites.items()}
        yield World(
            seeds=[bases[s] + sites[s].root for s in SHAPES],
            examples=[canonical_url(bases[s] + sorted(sites[s].targets())[0]) for s in EXAMPLE_SITES],
            truth={canonical_url(bases[s] + p) for s, site in sites.items() for p in site.targets()},
            pages=sum(len(site.pages) for site in sites.values()),
        )


def run(world: World, db: Path | str, *, focus: dict | None = None, max_pages: int | None = None) -> dict:
    data: dict = {"seeds": world.seeds, "rendering": {"mode": "http", "timeout_seconds": 60},
                  "politeness": {"concurrency": 6, "per_host_concurrency": 2, "obey_robots": False},
                  "output": {"database": str(db)}}
    if focus is not None:
        data["focus"] = focus
    if max_pages is not None:
        data["scope"] = {"max_pages": max_pages}
    job = parse_job(data, Path(tempfile.gettempdir()) / "job.toml")
    summary = asyncio.run(build_crawler(job, CrawlOptions(quiet=True)).run())
    return summary.parts


def _rows(db: Path | str, sql: str) -> list[tuple]:
    reader = open_reader(str(db))
    try:
        return [tuple(r) for r in reader.execute(sql).fetchall()]
    finally:
        reader.close()


def fetched(db: Path | str) -> list[str]:
    return [r[0] for r in _rows(db, "SELECT requested_url FROM pages ORDER BY id")]


def labelled(db: Path | str) -> dict[str, str]:
    return dict(_rows(db, "SELECT url, kind FROM focus_pages"))


def test_focused_crawl_beats_breadth_first_at_half_the_pages(world: World, tmp_path: Path) -> None:
    budget = world.pages // 2
    truth = world.truth - set(world.examples)
    parts = run(world, tmp_path / "focus.db", focus={"examples": world.examples, "budget": budget})
    run(world, tmp_path / "bfs.db", max_pages=budget)
    focus_pages, bfs_pages = fetched(tmp_path / "focus.db"), fetched(tmp_path / "bfs.db")
    assert len(focus_pages) <= budget + 20  # the budget is checked between batches of 2 per site
    focus_recall = len(truth & set(focus_pages)) / len(truth)
    bfs_recall = len(truth & set(bfs_pages)) / len(truth)
    assert focus_recall >= 1.5 * bfs_recall and focus_recall >= 0.6, (focus_recall, bfs_recall)

    labels = labelled(tmp_path / "focus.db")
    assert set(labels) == set(focus_pages)  # one verdict per stored page
    assert dict(_rows(tmp_path / "focus.db", "SELECT requested_url, kind FROM pages")) == labels
    said = {u for u, k in labels.items() if k == "target"} - set(world.examples)
    assert len(said & truth) / len(said) >= 0.9
    assert parts["focus"]["targets"] == len(said) + len(world.examples)
    assert parts["focus"]["rounds"] >= 1 and parts["focus"]["examples"] > len(world.examples)

    stats = all_stats(str(tmp_path / "focus.db"))["focus"]
    assert stats["pages"] == len(focus_pages) and len(stats["sites"]) == 5
    for site in stats["sites"].values():
        assert len(site["harvest_rate_by_tenth"]) == 10
        assert site["harvest_rate_by_tenth"][-1] == site["harvest_rate"]


def test_an_interrupted_focused_crawl_resumes_with_what_it_learned(world: World, crawl_db) -> None:
    db = crawl_db.database  # SQLite, and PostgreSQL too with --backends sqlite,postgresql
    first = run(world, db, focus={"examples": world.examples}, max_pages=120)["focus"]
    assert first["waiting_links"] > 0
    second = run(world, db, focus={"examples": world.examples})["focus"]
    pages = fetched(db)
    assert len(pages) == len(set(pages)) and set(labelled(db)) == set(pages)  # nothing twice, nothing lost
    assert world.truth <= set(pages)  # the rest was crawled: every target found
    assert second["examples"] >= first["examples"] and second["threshold"] == first["threshold"]
    said = {u for u, k in labelled(db).items() if k == "target"}
    assert len(said & world.truth) / len(said) >= 0.9
    stats = all_stats(str(db))["focus"]  # `browsercrawl stats`, on either backend
    assert stats["pages"] == len(pages) and stats["targets"] == len(said)


def test_unfetchable_examples_stop_the_crawl_with_one_line(world: World, tmp_path: Path) -> None:
    missing = world.seeds[0].rstrip("/") + "/no/such/page.html"
    with pytest.raises(UserError, match="none of the example pages could be fetched"):
        run(world, tmp_path / "c.db", focus={"examples": [missing]})
