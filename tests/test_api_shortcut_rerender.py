"""Pages built from JSON by a recipe a check later found wrong are rendered again and replace what
was stored, on every frontier (SQLite, PostgreSQL, Redis) and across a kill at any step.

The store and frontier calls are the ones the crawl makes (engine/writer.py); the servers are real.
"""

from __future__ import annotations

import itertools
import os
import time
from pathlib import Path

import pytest

from browsercrawl.engine.result import FetchResult
from browsercrawl.engine.router import url_shape
from browsercrawl.engine.writer import (
    Outcome,
    ResultWriter,
    commit_outcomes,
    page_row,
    requeue_built_now,
)
from browsercrawl.frontier.base import Completion, Frontier, NewUrl, Request
from browsercrawl.frontier.cluster import Cluster
from browsercrawl.frontier.redis_frontier import RedisFrontier
from browsercrawl.frontier.stores import redis_client
from browsercrawl.storage.base import Store
from browsercrawl.storage.stores import store_for
from tests.conftest import CrawlDb

_names = itertools.count()
BUILT = [f"http://h/s/{i}" for i in range(4)]
OTHER = "http://h/other/0"  # another shape, built from JSON too: left as it is
SHAPE = url_shape(BUILT[0])

def outcome(req: Request, via: str, word: str) -> Outcome:
    result = FetchResult(req.url, req.url, 200, "text/html", via, html=f"<p>{word}</p>", text=word,
                         title=word, links=[(f"{req.url}/{word}", word)])
    return Outcome(Completion(req, "done"), page=page_row(result, req.url, req.depth, None, None, True),
                   links=[(f"{req.url}/{word}", word, 1)],
                   extra_rows={"recs": [{"url": req.url, "value": word}]})

async def commit(db: Store, frontier: Frontier, outcomes: list[Outcome],
                 rerender: set[str] | None = None, *, killed_before_settle: bool = False) -> None:
    hosts, _, _ = await db.write(lambda tx: commit_outcomes(tx, outcomes, frontier, rerender))
    if hosts is None and not killed_before_settle:
        await frontier.settle([u for o in outcomes for u in o.new_urls], [o.completion for o in outcomes])

async def claim_all(frontier: Frontier) -> list[Request]:
    got: list[Request] = []
    for _ in range(3):  # a retry waits in Redis's delayed set until the next claim moves it
        got += await frontier.claim("h", 100, time.time())
    return got

def stored(db: CrawlDb) -> dict[str, tuple]:
    pages = {u: (via, text) for u, via, text in db.rows("SELECT url, via, text FROM pages")}
    links = db.rows("SELECT p.url, l.url FROM links l JOIN pages p ON p.id = l.page_id ORDER BY l.url")
    recs = dict(db.rows("SELECT url, value FROM recs"))
    return {u: (*pages[u], sorted(h for p, h in links if p == u), recs.get(u)) for u in pages}

async def scenario(db: Store, frontier: Frontier, reopen, check: CrawlDb) -> None:
    """Build five pages from JSON, fail a check, die, resume: each of the shape's pages is rendered
    once and replaces the built one; nothing is lost or stored twice."""
    db.ensure_table("recs", {"url": str, "value": str}, pk="url")
    await frontier.prepare([NewUrl(u, "h", 1, 1.0, None) for u in [*BUILT, OTHER]])
    await commit(db, frontier, [outcome(r, "api", "wrong") for r in await claim_all(frontier)])
    assert {u: v for u, (v, *_) in stored(check).items()} == dict.fromkeys([*BUILT, OTHER], "api")

    # The failing check's batch queues the shape's built pages again, and the crawl is killed
    # right after the store's commit (a Redis frontier has not heard of it yet).
    await commit(db, frontier, [], {SHAPE}, killed_before_settle=True)
    frontier = await reopen()
    await frontier.prepare([])
    # Resuming: the shape is known to be rendered (api_shortcuts); its built pages are queued
    # again, which is a no-op for those queued already (twice here: a second resume).
    await requeue_built_now(db, frontier, {SHAPE})
    await requeue_built_now(db, frontier, {SHAPE})
    again = await claim_all(frontier)
    assert sorted(r.url for r in again) == BUILT

    rendered = [outcome(r, "browser", "right") for r in again]
    # One page built from JSON arrives after the shape went back to the browser: not stored,
    # its request goes back to the queue (the writer's ``stale`` test).
    # Its new URL is queued all the same: building the outcome put it in the seen-set, so the
    # rendered page would not queue it again.
    late = outcome(again[0], "api", "late")
    found = f"{again[0].url}/found"
    late.new_urls = [NewUrl(found, "h", 2, 2.0, again[0].url)]
    writer = ResultWriter(db, frontier, lambda *a: None, lambda e: None,
                          stale=lambda u: url_shape(u) == SHAPE)
    writer.submit(late)
    await writer.flush()
    assert late.requeued and late.completion.state == "retry" and late.page is None
    assert sorted(r.url for r in await claim_all(frontier)) == [again[0].url, found]
    await commit(db, frontier, rendered)
    await commit(db, frontier, [outcome(again[1], "browser", "right")])  # a second delivery

    pages = stored(check)
    assert len(pages) == 5 and check.rows("SELECT COUNT(*) FROM links")[0][0] == 5
    for u in BUILT:
        assert pages[u] == ("browser", "right", [f"{u}/right"], "right"), u
    assert pages[OTHER] == ("api", "wrong", [f"{OTHER}/wrong"], "wrong")
    assert await claim_all(frontier) == []

async def open_store(database: str, tmp_path: Path) -> Store:
    return await store_for(database, tmp_path).open()

async def test_built_pages_are_rendered_again_and_replaced_on_the_sql_frontiers(crawl_db, tmp_path):
    db = await open_store(crawl_db.database, tmp_path)
    try:
        def sql_frontier() -> Frontier:
            if db.kind == "postgresql":
                from browsercrawl.frontier.postgres import PostgresFrontier
                return PostgresFrontier(db)  # type: ignore[arg-type]
            from browsercrawl.frontier.sqlite import SqliteFrontier
            return SqliteFrontier(db)  # type: ignore[arg-type]

        async def reopen() -> Frontier:
            return sql_frontier()

        await scenario(db, sql_frontier(), reopen, crawl_db)
    finally:
        await db.close()

async def test_built_pages_are_rendered_again_and_replaced_on_the_redis_frontier(
        redis_server, pg_database, tmp_path):
    prefix = f"bc:redo{os.getpid()}-{next(_names)}:"
    clusters: list[Cluster] = []

    async def reopen() -> Frontier:
        c = Cluster(redis_client(redis_server.url), prefix, lease_seconds=30, balance_minutes=2,
                    concurrency=4, token_lease=30)
        await c.join()
        clusters.append(c)
        return RedisFrontier(c, 10_000)

    db = await open_store(pg_database, tmp_path)
    try:
        await scenario(db, await reopen(), reopen, CrawlDb("postgresql", pg_database))
    finally:
        await db.close()
        for c in clusters:
            await c.leave("finished")
            await c.r.aclose()

@pytest.mark.parametrize("via", ["http", "browser"])
async def test_only_a_page_built_from_json_is_replaced(tmp_path, via):
    """A second delivery of a page fetched over HTTP or rendered stays a duplicate (never replaced)."""
    db = await open_store(str(tmp_path / "c.db"), tmp_path)
    try:
        from browsercrawl.frontier.sqlite import SqliteFrontier
        frontier = SqliteFrontier(db)  # type: ignore[arg-type]
        db.ensure_table("recs", {"url": str, "value": str}, pk="url")
        await frontier.prepare([NewUrl(BUILT[0], "h", 1, 1.0, None)])
        [req] = await claim_all(frontier)
        await commit(db, frontier, [outcome(req, via, "first")])
        second = outcome(req, "browser", "second")
        await commit(db, frontier, [second])
        assert second.completion.error and "stored already" in second.completion.error
        check = CrawlDb("sqlite", str(tmp_path / "c.db"))
        assert stored(check)[BUILT[0]] == (via, "first", [f"{BUILT[0]}/first"], "first")
    finally:
        await db.close()
