"""The default frontier: a table in the crawl's own SQLite file.

Keeping the queue in the same file as the pages is what makes resume exact: a page's row, its
links, the new URLs it revealed and its own 'done' mark are one transaction (see
:mod:`browsercrawl.engine.writer`). After ``kill -9``, URLs still marked in flight go back to the queue.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable

from rbloom import Bloom

from browsercrawl.frontier.base import Completion, NewUrl, Request
from browsercrawl.storage.base import PageTx
from browsercrawl.storage.db import CrawlDatabase, json_rows


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
            # The rows come back as one JSON array and are marked in one statement: a claim is
            # two statement steps, not two per URL (see ``storage.db.json_rows``).
            (found,) = conn.execute(
                "SELECT json_group_array(json_array(id, url, host, depth, priority, parent, kind, "
                "attempts)) FROM (SELECT * FROM frontier WHERE state='queued' AND host=? "
                "AND not_before<=? ORDER BY priority, id LIMIT ?)",
                (host, now, limit),
            ).fetchone()
            rows = json.loads(found)
            if rows:
                conn.execute(
                    "UPDATE frontier SET state='inflight' WHERE id IN (SELECT value FROM json_each(?))",
                    (json.dumps([r[0] for r in rows]),),
                )
            return [
                Request(
                    id=r[0],
                    url=r[1],
                    host=r[2],
                    depth=r[3],
                    priority=float(r[4]),
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
    """Insert new URLs (ignoring known ones), in one statement (``storage.db.json_rows``); return
    the hosts that gained queued URLs."""
    urls = list(urls)
    if not urls:
        return set()
    before = conn.total_changes
    conn.execute(
        "INSERT OR IGNORE INTO frontier (url, host, depth, priority, parent, kind, discovered_at) "
        "SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), "
        "json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]'), ? "
        "FROM json_each(?) ORDER BY key",
        (now, json_rows((u.url, u.host, u.depth, float(u.priority), u.parent, u.kind) for u in urls)),
    )
    if conn.total_changes - before == len(urls):
        return {u.host for u in urls}
    # Some were known: only the hosts of the URLs that went in now.
    added = {url for (url,) in conn.execute(
        "SELECT url FROM frontier WHERE discovered_at=? AND url IN (SELECT value FROM json_each(?))",
        (now, json.dumps([u.url for u in urls])))}
    return {u.host for u in urls if u.url in added}


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
    """Record how claimed requests ended, inside the caller's transaction (one statement for the
    retries and one for the rest, see ``storage.db.json_rows``)."""
    retries: list[tuple] = []
    ended: list[tuple] = []
    for c in completions:
        if c.state == "retry":
            retries.append((c.request.id, c.not_before, c.error))
        else:
            ended.append((c.request.id, c.state, c.finished_at, c.error))
    if retries:
        conn.execute(
            "UPDATE frontier SET state='queued', attempts=attempts+1, "
            "not_before=json_extract(j.value, '$[1]'), error=json_extract(j.value, '$[2]') "
            "FROM json_each(?) AS j WHERE frontier.id=json_extract(j.value, '$[0]')",
            (json_rows(retries),),
        )
    if ended:
        conn.execute(
            "UPDATE frontier SET state=json_extract(j.value, '$[1]'), attempts=attempts+1, "
            "finished_at=json_extract(j.value, '$[2]'), error=json_extract(j.value, '$[3]') "
            "FROM json_each(?) AS j WHERE frontier.id=json_extract(j.value, '$[0]')",
            (json_rows(ended),),
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
