"""``recrawl``: revisit the N people most likely to have changed, and record what changed.

Policy: ``P(change since last visit) = 1 - exp(-rate * (now - last_visit))`` with the rate
stored at the person's last visit (``rate.py``) and ``now`` the site time (``clock.py``); the top N
are revisited. ``strategy="random"`` revisits N people drawn uniformly - the baseline the
benchmark compares with. Each revisit is rendered by the engine's browser runtime with the hooks
of the job's parts (so a session part can log in again) and is diffed against the database
(``store.apply_revisit``): new items, new and removed edges, changed fields and a diff of the
page's text go to ``changes``, one row per visit to ``visits``. People first met on a revisit are
queued in the frontier (kind ``person``) for the next ``browsercrawl crawl``.
"""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urljoin

from browsercrawl.config import JobConfig
from browsercrawl.config.social import DAY, SocialConfig
from browsercrawl.engine.browser import job_launch_options
from browsercrawl.engine.hooks import PageHook
from browsercrawl.engine.parts import Part, StandaloneHandle
from browsercrawl.engine.result import FetchError
from browsercrawl.engine.runtime import BrowserRuntime
from browsercrawl.errors import UserError
from browsercrawl.frontier.base import Request
from browsercrawl.frontier.urls import canonical_url, host_key
from browsercrawl.social.clock import SiteClock, probe_site_time
from browsercrawl.social.hook import PERSON_KIND, SocialHook
from browsercrawl.social.part import SocialPart
from browsercrawl.social.rate import p_change
from browsercrawl.social.store import apply_revisit, iso
from browsercrawl.storage.base import is_postgres_url
from browsercrawl.storage.db import CrawlDatabase
from browsercrawl.storage.search_index import prepare_connection

log = logging.getLogger(__name__)

Strategy = Literal["policy", "random"]


@dataclass
class Candidate:
    id: str
    url: str
    rate: float  # per second
    last_visit: float
    depth: int
    p: float = 0.0


@dataclass
class RecrawlSummary:
    database: str
    strategy: str
    budget: int
    site_now: str | None
    revisited: int
    failed: int
    changed: int
    new_items: int
    new_edges: int
    removed_edges: int
    changed_fields: int
    text_changed: int  # revisits whose page text differed
    new_people_queued: int
    changed_per_revisit: float
    expected_changed: float  # sum of the predicted P(change) over the people revisited
    seconds: float

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def load_candidates(path: Path) -> tuple[list[Candidate], float | None]:
    """Every stored person with their rate and last visit; plus the newest site time known."""
    if not path.is_file():
        raise UserError(f"{path}: database not found; run browsercrawl crawl first")
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "people" not in tables:
            raise UserError(f"{path}: no people table; run browsercrawl crawl with a [social] job first")
        rows = conn.execute(
            "SELECT id, url, rate_per_day, last_visit_ts, depth FROM people WHERE last_visit_ts IS NOT NULL"
        ).fetchall()
        newest = conn.execute(
            "SELECT MAX(t) FROM (SELECT MAX(last_visit_ts) AS t FROM people "
            "UNION ALL SELECT MAX(time_ts) FROM items)"
        ).fetchone()[0]
    finally:
        conn.close()
    if not rows:
        raise UserError(f"{path}: no people stored yet; run browsercrawl crawl first")
    return [Candidate(r[0], r[1], (r[2] or 0.0) / DAY, r[3], r[4] or 0) for r in rows], newest


def choose(candidates: list[Candidate], budget: int, strategy: Strategy, now: float,
           seed: int | None = None) -> list[Candidate]:
    """The people to revisit: top-``budget`` by P(change), or a uniform random sample."""
    for c in candidates:
        c.p = p_change(c.rate, now - c.last_visit)
    if strategy == "random":
        ordered = sorted(candidates, key=lambda c: c.id)  # the same sample for the same seed
        return random.Random(seed).sample(ordered, min(budget, len(candidates)))
    return sorted(candidates, key=lambda c: (-c.p, -c.rate, c.id))[:budget]


class _Writer:
    """One SQLite connection used from a worker thread, one transaction per revisit."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.conn.execute("PRAGMA busy_timeout=10000")
        # The search index's triggers on people and items run on this connection too.
        prepare_connection(self.conn)
        self.lock = asyncio.Lock()

    async def run(self, fn: Any) -> Any:
        def txn() -> Any:
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                out = fn(self.conn)
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
            self.conn.execute("COMMIT")
            return out

        async with self.lock:
            return await asyncio.to_thread(txn)

    def close(self) -> None:
        self.conn.close()


def _queue_new_people(conn: sqlite3.Connection, cfg: SocialConfig, hook: SocialHook, targets: dict[str, str],
                      depth: int, parent: str) -> int:
    """Relation targets nobody has stored or queued yet go to the frontier for the next crawl."""
    if cfg.max_depth is not None and depth > cfg.max_depth:
        return 0
    known = {r[0] for r in conn.execute("SELECT id FROM people")}
    queued = 0
    for pid, url in targets.items():
        if pid in known or pid in hook.known:
            continue
        if cfg.max_people is not None and len(hook.known) >= cfg.max_people:
            break
        hook.known.add(pid)
        cur = conn.execute(
            "INSERT OR IGNORE INTO frontier (url, host, depth, priority, parent, kind, discovered_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (url, host_key(url), depth, float(depth), parent, PERSON_KIND, time.time()),
        )
        queued += cur.rowcount
    return queued


async def recrawl(
    job: JobConfig,
    budget: int,
    strategy: Strategy = "policy",
    *,
    parts: Sequence[Part],
    seed: int | None = None,
    extra_hooks: list[PageHook] | None = None,
) -> RecrawlSummary:
    """Revisit ``budget`` people of the job's database chosen by ``strategy``; see the module doc.

    ``parts`` are the job's parts (the social part among them); ``extra_hooks`` run first.
    """
    if budget < 1:
        raise UserError(f"--budget must be >= 1, got {budget}")
    social_part = next((p for p in parts if isinstance(p, SocialPart)), None)
    if social_part is None:
        raise UserError(f"{job.source_path}: no [social] section")
    social = social_part.hook
    cfg = social.cfg
    if is_postgres_url(job.output.database):
        raise UserError(f"{job.source_path}: output.database: recrawl reads and writes a SQLite file; "
                        "it does not support PostgreSQL yet")
    path = job.database_path
    candidates, newest = load_candidates(path)
    started = time.monotonic()

    handle = StandaloneHandle()
    for part in parts:
        part.bind(handle)
    hooks = [*(extra_hooks or []), *(h for p in parts for h in p.hooks())]
    factory = next((p.context_factory for p in parts if p.context_factory), None)
    store = await CrawlDatabase(path).open()
    try:
        social.tables(store)  # also adds what an older database lacks (changes.url, person_texts)
    finally:
        await store.close()
    social.collect = {}
    social.clock = SiteClock(cfg, known=newest)

    writer = _Writer(path)
    totals = {"revisited": 0, "failed": 0, "changed": 0, "new_items": 0, "new_edges": 0,
              "removed_edges": 0, "changed_fields": 0, "text_changed": 0, "new_people_queued": 0}
    expected = 0.0
    try:
        runtime_for_job = BrowserRuntime(job, job_launch_options(job), hooks=hooks, context_factory=factory)
        async with runtime_for_job as runtime:
            if cfg.clock == "site":
                await _probe(runtime, hooks, social.clock, job.seeds[0], cfg)
            now = social.clock.now()
            chosen = choose(candidates, budget, strategy, now, seed)
            expected = sum(c.p for c in chosen)
            gate = asyncio.Semaphore(job.politeness.concurrency)

            async def revisit(c: Candidate) -> None:
                async with gate:
                    url = canonical_url(c.url)
                    try:
                        req = Request(url=url, host=host_key(url), depth=c.depth, kind=PERSON_KIND)
                        await runtime.fetcher.fetch(req)
                    except FetchError as exc:
                        log.warning("revisit of %s failed: %s", url, exc)
                        totals["failed"] += 1
                        return
                assert social.collect is not None
                got = social.collect.pop(url, None)
                if got is None:
                    log.warning("revisit of %s showed no person (login page? deleted?)", url)
                    totals["failed"] += 1
                    return
                snap, extra, text = got
                at = social.clock.now()
                targets = {pid: u for rel in snap.relations.values() for pid, u in rel.targets.items()}

                def write(conn: sqlite3.Connection) -> tuple[dict[str, int], int]:
                    figures = apply_revisit(conn, snap, cfg, now=at, strategy=strategy, p_change=c.p,
                                            text=text, extra_fields=extra)
                    return figures, _queue_new_people(conn, cfg, social, targets, c.depth + 1, url)

                figures, queued = await writer.run(write)
                totals["revisited"] += 1
                totals["new_people_queued"] += queued
                for key, value in figures.items():
                    totals[key] += value

            await asyncio.gather(*(revisit(c) for c in chosen))
    finally:
        writer.close()
    if handle.error is not None:
        raise handle.error
    n = totals["revisited"]
    return RecrawlSummary(
        database=str(path), strategy=strategy, budget=budget, site_now=iso(now), **totals,
        changed_per_revisit=round(totals["changed"] / n, 4) if n else 0.0,
        expected_changed=round(expected, 3), seconds=round(time.monotonic() - started, 2),
    )


async def _probe(runtime: BrowserRuntime, hooks: list[PageHook], clock: SiteClock, base: str,
                 cfg: SocialConfig) -> None:
    """Read the site's time before ranking, in a context like the crawl's (logged in)."""
    context = await runtime.new_context()
    try:
        page = await context.new_page()
        for hook in hooks:
            await hook.on_page_created(page)
        clock.see(await probe_site_time(page, urljoin(base, "/"), cfg))
        clock.probed = True
    finally:
        await context.close()
