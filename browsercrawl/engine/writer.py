"""Turns fetch results into rows and commits them in batches, one transaction per batch.

A batch holds, for each finished request: the page row, its links, the URLs it revealed, rows for
other tables (from hooks) and the frontier update. Because all of it commits together, a crash
loses at most the uncommitted batch, whose requests are still 'inflight' and so are fetched again
on resume: no page is lost and, with ``pages.url`` unique, none is stored twice.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from browsercrawl.engine.result import FetchResult
from browsercrawl.frontier.base import Completion, NewUrl
from browsercrawl.frontier.sqlite import add_urls, finish_requests
from browsercrawl.storage.db import CrawlDatabase

log = logging.getLogger(__name__)


@dataclass(slots=True)
class Outcome:
    """Everything one finished request writes."""

    completion: Completion
    page: dict[str, Any] | None = None
    links: list[tuple[str, str, int]] = field(default_factory=list)  # (url, text, in_scope)
    new_urls: list[NewUrl] = field(default_factory=list)
    extra_rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


def page_row(
    result: FetchResult,
    canonical_final: str,
    depth: int,
    referrer: str | None,
    kind: str | None,
    store_html: bool,
) -> dict[str, Any]:
    html_blob = None
    html_bytes = 0
    if result.html is not None:
        raw = result.html.encode("utf-8", errors="replace")
        html_bytes = len(raw)
        if store_html:
            html_blob = zlib.compress(raw, 3)
    return {
        "url": canonical_final,
        "requested_url": result.requested_url,
        "status": result.status,
        "content_type": result.content_type,
        "title": result.title,
        "text": result.text,
        "html": html_blob,
        "html_bytes": html_bytes,
        "fetched_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "depth": depth,
        "via": result.via,
        "fetch_ms": round(result.fetch_ms, 1),
        "render_ms": round(result.render_ms, 1),
        "links_count": len(result.links),
        "referrer": referrer,
        "kind": kind,
    }


def decompress_html(blob: bytes | None) -> str | None:
    """Inverse of the compression used for ``pages.html``."""
    return zlib.decompress(blob).decode("utf-8") if blob else None


_PAGE_COLUMNS = (
    "url",
    "requested_url",
    "status",
    "content_type",
    "title",
    "text",
    "html",
    "html_bytes",
    "fetched_at",
    "depth",
    "via",
    "fetch_ms",
    "render_ms",
    "links_count",
    "referrer",
    "kind",
)
_INSERT_PAGE = (
    f"INSERT OR IGNORE INTO pages ({', '.join(_PAGE_COLUMNS)}) "
    f"VALUES ({', '.join('?' for _ in _PAGE_COLUMNS)})"
)


def _insert_extra(conn: sqlite3.Connection, table: str, rows: list[dict[str, Any]]) -> None:
    """Insert hook rows; tables are created up front by their owners (``CrawlDatabase.ensure_table``).

    A row may carry ``__upsert__ = True`` to replace an existing row with the same primary key.
    """
    for row in rows:
        upsert = row.pop("__upsert__", False)
        cols = list(row)
        verb = "INSERT OR REPLACE" if upsert else "INSERT OR IGNORE"
        conn.execute(
            f"{verb} INTO [{table}] ({', '.join(f'[{c}]' for c in cols)}) "
            f"VALUES ({', '.join('?' for _ in cols)})",
            [row[c] for c in cols],
        )


def commit_outcomes(conn: sqlite3.Connection, outcomes: list[Outcome]) -> tuple[set[str], int, int]:
    """Write a batch (inside the caller's transaction). Returns (hosts with new URLs, pages, dups)."""
    hosts: set[str] = set()
    stored = dups = 0
    now = time.time()
    for o in outcomes:
        if o.page is not None:
            cur = conn.execute(_INSERT_PAGE, [o.page[c] for c in _PAGE_COLUMNS])
            if cur.rowcount:
                stored += 1
                page_id = cur.lastrowid
                conn.executemany(
                    "INSERT INTO links (page_id, url, text, in_scope) VALUES (?, ?, ?, ?)",
                    [(page_id, u, t, s) for u, t, s in o.links],
                )
            else:
                dups += 1
                o.completion.error = f"same final URL as an earlier page: {o.page['url']}"
        for table, rows in o.extra_rows.items():
            _insert_extra(conn, table, rows)
        hosts |= add_urls(conn, o.new_urls, now)
    finish_requests(conn, [o.completion for o in outcomes])
    return hosts, stored, dups


class ResultWriter:
    """Batches outcomes and commits them on the database thread."""

    def __init__(
        self,
        db: CrawlDatabase,
        on_commit: Callable[[set[str], list[Outcome]], None],
        max_batch: int = 64,
        max_delay: float = 0.05,
    ) -> None:
        self.db = db
        self._on_commit = on_commit
        self._pending: list[Outcome] = []
        self._max_batch = max_batch
        self._max_delay = max_delay
        self._have_work = asyncio.Event()
        self._closing = False
        self.pages_stored = 0
        self.duplicates = 0
        self.committing = 0

    def pending(self) -> int:
        return len(self._pending) + self.committing

    def submit(self, outcome: Outcome) -> None:
        self._pending.append(outcome)
        self._have_work.set()

    async def run(self) -> None:
        while True:
            await self._have_work.wait()
            if not self._closing and len(self._pending) < self._max_batch:
                await asyncio.sleep(self._max_delay)
            await self.flush()
            if self._closing and not self._pending:
                return

    async def flush(self) -> None:
        self._have_work.clear()
        batch, self._pending = self._pending, []
        if not batch:
            return
        self.committing = len(batch)
        try:
            hosts, stored, dups = await self.db.transaction(lambda conn: commit_outcomes(conn, batch))
        finally:
            self.committing = 0
        self.pages_stored += stored
        self.duplicates += dups
        self._on_commit(hosts, batch)

    async def close(self) -> None:
        self._closing = True
        self._have_work.set()
