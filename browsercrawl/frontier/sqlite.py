"""The default frontier: a table in the crawl's own SQLite file.

Keeping the queue in the same file as the pages is what makes resume exact: a page's row, its
links, the new URLs it revealed and its own 'done' mark are one transaction (see
:mod:`browsercrawl.engine.writer`). After ``kill -9``, URLs still marked in flight go back to the queue.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable

from rbloom import Bloom

from browsercrawl.frontier.base import Completion, NewUrl, Request
from browsercrawl.storage.base import PageTx
from browsercrawl.storage.db import CrawlDatabase


class SeenFilter:
    """Bloom filter in front of the frontier table: skips URLs already queued without a DB call.

    Sized for ``capacity`` URLs at a false-positive rate of 1e-9 (about 43 bits, 5.4 bytes, per
    URL): a crawl of a million URLs wrongly skips a new URL with probability about 0.001 in all.
    It is rebuilt from the table on resume, so it never disagrees with what was committed.
    """

    def __init__(self, capacity: int = 1_000_000, error_rate: float = 1e-9) -> None:
        self._bloom = Bloom(max(capacity, 1000), error_rate)
        self.capacity = capacity

    def add(self, url: str) -> None:
        self._bloom.add(url)

    def __contains__(self, url: str) -> bool:
        return url in self._bloom

    def update(self, urls: Iterable[str]) -> None:
        self._bloom.update(urls)


class SqliteFrontier:
    """Frontier stored in the ``frontier`` table of a :class:`CrawlDatabase`."""

    def __init__(self, db: CrawlDatabase) -> None:
        self.db = db
        self.seen = SeenFilter()

    async def prepare(self, seeds: list[NewUrl]) -> None:
        def _prepare(conn: sqlite3.Connection) -> list[str]:
            conn.execute("UPDATE frontier SET state='queued' WHERE state='inflight'")
            # Pages that failed in an earlier run get their retries again in this one.
            conn.execute("UPDATE frontier SET state='queued', attempts=0, not_before=0 WHERE state='failed'")
            add_urls(conn, seeds, time.time())
            return [row[0] for row in conn.execute("SELECT url FROM frontier")]

        urls = await self.db.transaction(_prepare)
        self.seen = SeenFilter(capacity=max(1_000_000, 4 * len(urls)))
        self.seen.update(urls)

    async def claim(self, host: str, limit: int, now: float) -> list[Request]:
        def _claim(conn: sqlite3.Connection) -> list[Request]:
            rows = conn.execute(
                "SELECT id, url, host, depth, priority, parent, kind, attempts FROM frontier "
                "WHERE state='queued' AND host=? AND not_before<=? ORDER BY priority, id LIMIT ?",
                (host, now, limit),
            ).fetchall()
            if rows:
                conn.executemany(
                    "UPDATE frontier SET state='inflight' WHERE id=?", [(r[0],) for r in rows]
                )
            return [
                Request(
                    id=r[0],
                    url=r[1],
                    host=r[2],
                    depth=r[3],
                    priority=r[4],
                    parent=r[5],
                    kind=r[6],
                    attempts=r[7],
                )
                for r in rows
            ]

        return await self.db.transaction(_claim)

    async def hosts_with_work(self, now: float) -> dict[str, float]:
        def _hosts(conn: sqlite3.Connection) -> dict[str, float]:
            return dict(
                conn.execute(
                    "SELECT host, MIN(not_before) FROM frontier WHERE state='queued' GROUP BY host"
                ).fetchall()
            )

        return await self.db.run(_hosts)

    async def unclaim(self, requests: list[Request]) -> None:
        await unclaim(self.db, requests)

    async def add(self, urls: list[NewUrl]) -> set[str]:
        hosts = await self.db.transaction(lambda conn: add_urls(conn, urls, time.time()))
        self.seen.update(u.url for u in urls)
        return hosts

    async def counts(self) -> dict[str, int]:
        def _counts(conn: sqlite3.Connection) -> dict[str, int]:
            return dict(
                conn.execute("SELECT state, COUNT(*) FROM frontier GROUP BY state").fetchall()
            )

        return await self.db.run(_counts)

    def record(self, tx: PageTx, new_urls: list[NewUrl], completions: list[Completion]) -> set[str]:
        """The new URLs and the 'done' marks commit with their pages (exact resume)."""
        hosts = add_urls(tx.conn, new_urls, time.time())
        finish_requests(tx.conn, completions)
        return hosts

    def requeue(self, tx: PageTx, urls: list[NewUrl]) -> set[str]:
        return requeue_urls(tx.conn, urls)

    async def settle(self, new_urls: list[NewUrl], completions: list[Completion]) -> set[str]:
        return set()


def add_urls(conn: sqlite3.Connection, urls: Iterable[NewUrl], now: float) -> set[str]:
    """Insert new URLs (ignoring known ones); return the hosts that gained queued URLs."""
    hosts: set[str] = set()
    for u in urls:
        cur = conn.execute(
            "INSERT OR IGNORE INTO frontier (url, host, depth, priority, parent, kind, discovered_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (u.url, u.host, u.depth, u.priority, u.parent, u.kind, now),
        )
        if cur.rowcount:
            hosts.add(u.host)
    return hosts


def requeue_urls(conn: sqlite3.Connection, urls: Iterable[NewUrl]) -> set[str]:
    """Finished URLs back to the queue with their retries (queued or in-flight ones are left be:
    they will be fetched anyway); the hosts that gained queued URLs."""
    hosts: set[str] = set()
    for u in urls:
        cur = conn.execute("UPDATE frontier SET state='queued', attempts=0, not_before=0, error=NULL "
                           "WHERE url=? AND state IN ('done', 'failed', 'skipped')", (u.url,))
        if cur.rowcount:
            hosts.add(u.host)
    return hosts


def finish_requests(conn: sqlite3.Connection, completions: Iterable[Completion]) -> None:
    """Record how claimed requests ended, inside the caller's transaction."""
    for c in completions:
        if c.state == "retry":
            conn.execute(
                "UPDATE frontier SET state='queued', attempts=attempts+1, not_before=?, error=? "
                "WHERE id=?",
                (c.not_before, c.error, c.request.id),
            )
        else:
            conn.execute(
                "UPDATE frontier SET state=?, attempts=attempts+1, finished_at=?, error=? WHERE id=?",
                (c.state, c.finished_at, c.error, c.request.id),
            )


async def unclaim(db: CrawlDatabase, requests: list[Request]) -> None:
    """Put claimed-but-never-fetched requests back in the queue (e.g. when --max-pages is reached)."""
    if not requests:
        return

    def _unclaim(conn: sqlite3.Connection) -> None:
        conn.executemany(
            "UPDATE frontier SET state='queued' WHERE id=? AND state='inflight'",
            [(r.id,) for r in requests],
        )

    await db.transaction(_unclaim)
