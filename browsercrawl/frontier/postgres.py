"""The frontier table in a PostgreSQL crawl database: one process crawling into a shared server.

The same table and the same rules as :mod:`browsercrawl.frontier.sqlite` (new URLs and 'done'
marks commit with their pages, in-flight URLs go back to the queue on start), in PostgreSQL's
SQL. Claims use ``FOR UPDATE SKIP LOCKED``. Crawls that span machines use the Redis frontier.
"""

from __future__ import annotations

import time
from typing import Any

from browsercrawl.frontier.base import Completion, NewUrl, Request
from browsercrawl.frontier.sqlite import SeenFilter
from browsercrawl.storage.base import PageTx
from browsercrawl.storage.postgres import PostgresStore

_COLS = "id, url, host, depth, priority, parent, kind, attempts"


class PostgresFrontier:
    """Frontier stored in the ``frontier`` table of a :class:`PostgresStore`."""

    def __init__(self, db: PostgresStore) -> None:
        self.db = db
        self.seen = SeenFilter()

    async def prepare(self, seeds: list[NewUrl]) -> None:
        def _prepare(conn: Any) -> list[str]:
            conn.execute("UPDATE frontier SET state='queued' WHERE state='inflight'")
            # Pages that failed in an earlier run get their retries again in this one.
            conn.execute("UPDATE frontier SET state='queued', attempts=0, not_before=0 WHERE state='failed'")
            add_urls(conn, seeds, time.time())
            return [row[0] for row in conn.execute("SELECT url FROM frontier")]

        urls = await self.db.transaction(_prepare)
        self.seen = SeenFilter(capacity=max(1_000_000, 4 * len(urls)))
        self.seen.update(urls)

    async def claim(self, host: str, limit: int, now: float) -> list[Request]:
        def _claim(conn: Any) -> list[Request]:
            rows = conn.execute(
                f"UPDATE frontier SET state='inflight' WHERE id IN (SELECT id FROM frontier "
                f"WHERE state='queued' AND host=%s AND not_before<=%s ORDER BY priority, id LIMIT %s "
                f"FOR UPDATE SKIP LOCKED) RETURNING {_COLS}",
                (host, now, limit),
            ).fetchall()
            rows.sort(key=lambda r: (r[4], r[0]))
            return [Request(id=r[0], url=r[1], host=r[2], depth=r[3], priority=r[4], parent=r[5],
                            kind=r[6], attempts=r[7]) for r in rows]

        return await self.db.transaction(_claim)

    async def hosts_with_work(self, now: float) -> dict[str, float]:
        return dict(await self.db.run(lambda c: c.execute(
            "SELECT host, MIN(not_before) FROM frontier WHERE state='queued' GROUP BY host").fetchall()))

    async def unclaim(self, requests: list[Request]) -> None:
        if not requests:
            return

        def _unclaim(conn: Any) -> None:
            conn.execute("UPDATE frontier SET state='queued' WHERE id = ANY(%s) AND state='inflight'",
                         ([r.id for r in requests],))

        await self.db.transaction(_unclaim)

    async def add(self, urls: list[NewUrl]) -> set[str]:
        hosts = await self.db.transaction(lambda conn: add_urls(conn, urls, time.time()))
        self.seen.update(u.url for u in urls)
        return hosts

    async def counts(self) -> dict[str, int]:
        return dict(await self.db.run(
            lambda c: c.execute("SELECT state, COUNT(*) FROM frontier GROUP BY state").fetchall()))

    def record(self, tx: PageTx, new_urls: list[NewUrl], completions: list[Completion]) -> set[str]:
        hosts = add_urls(tx.conn, new_urls, time.time())
        finish_requests(tx.conn, completions)
        return hosts

    def requeue(self, tx: PageTx, urls: list[NewUrl]) -> set[str]:
        """Finished URLs back to the queue (see ``frontier.sqlite.requeue_urls``)."""
        if not urls:
            return set()
        rows = tx.conn.execute(
            "UPDATE frontier SET state='queued', attempts=0, not_before=0, error=NULL "
            "WHERE url = ANY(%s) AND state IN ('done', 'failed', 'skipped') RETURNING host",
            ([u.url for u in urls],)).fetchall()
        return {r[0] for r in rows}

    async def settle(self, new_urls: list[NewUrl], completions: list[Completion]) -> set[str]:
        return set()


def add_urls(conn: Any, urls: list[NewUrl], now: float) -> set[str]:
    """Insert new URLs in one statement (known ones ignored); the hosts that gained queued URLs."""
    if not urls:
        return set()
    rows = conn.execute(
        "INSERT INTO frontier (url, host, depth, priority, parent, kind, discovered_at) "
        "SELECT * FROM unnest(%s::text[], %s::text[], %s::bigint[], %s::float8[], %s::text[], "
        "%s::text[], %s::float8[]) ON CONFLICT (url) DO NOTHING RETURNING host",
        ([u.url for u in urls], [u.host for u in urls], [u.depth for u in urls],
         [u.priority for u in urls], [u.parent for u in urls], [u.kind for u in urls],
         [now] * len(urls)),
    ).fetchall()
    return {r[0] for r in rows}


def finish_requests(conn: Any, completions: list[Completion]) -> None:
    """Record how claimed requests ended, inside the caller's transaction."""
    retry = [(c.not_before, c.error, c.request.id) for c in completions if c.state == "retry"]
    done = [(c.state, c.finished_at, c.error, c.request.id) for c in completions if c.state != "retry"]
    with conn.cursor() as cur:
        if retry:
            cur.executemany("UPDATE frontier SET state='queued', attempts=attempts+1, not_before=%s, "
                            "error=%s WHERE id=%s", retry)
        if done:
            cur.executemany("UPDATE frontier SET state=%s, attempts=attempts+1, finished_at=%s, "
                            "error=%s WHERE id=%s", done)
