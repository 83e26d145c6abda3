"""The crawl database: one SQLite file in WAL mode, written from one dedicated thread.

Why one thread: sqlite3 calls block, and the engine's event loop must never block. Every read and
write goes through :meth:`CrawlDatabase.run`, which executes it on the database thread; the page,
its links, the frontier update and the newly found URLs are committed in one transaction, so a
crawl killed at any instant leaves either all of a page's effects or none of them.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import sqlite_utils

from browsercrawl.errors import UserError

T = TypeVar("T")

SCHEMA_VERSION = 1

# Tables every crawl has. Later parts (records, responses, people, relations, items, states)
# declare theirs through ``ensure_table`` so the schema lives beside the code that writes it.
_CORE_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS frontier (
    id INTEGER PRIMARY KEY,
    url TEXT NOT NULL UNIQUE,
    host TEXT NOT NULL,
    depth INTEGER NOT NULL DEFAULT 0,
    priority REAL NOT NULL DEFAULT 0,
    parent TEXT,
    kind TEXT,
    state TEXT NOT NULL DEFAULT 'queued',
    attempts INTEGER NOT NULL DEFAULT 0,
    not_before REAL NOT NULL DEFAULT 0,
    discovered_at REAL NOT NULL,
    finished_at REAL,
    error TEXT
);
CREATE INDEX IF NOT EXISTS frontier_claim ON frontier (state, host, priority, id);
CREATE TABLE IF NOT EXISTS pages (
    id INTEGER PRIMARY KEY,
    url TEXT NOT NULL UNIQUE,
    requested_url TEXT NOT NULL,
    status INTEGER,
    content_type TEXT,
    title TEXT,
    text TEXT,
    html BLOB,
    html_bytes INTEGER,
    fetched_at TEXT NOT NULL,
    depth INTEGER,
    via TEXT,
    fetch_ms REAL,
    render_ms REAL,
    links_count INTEGER,
    referrer TEXT,
    kind TEXT
);
CREATE TABLE IF NOT EXISTS links (
    page_id INTEGER NOT NULL REFERENCES pages(id),
    url TEXT NOT NULL,
    text TEXT,
    in_scope INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS links_page ON links (page_id);
CREATE INDEX IF NOT EXISTS links_url ON links (url);
"""


class CrawlDatabase:
    """Owns the SQLite connection and the single thread that uses it."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="browsercrawl-db")
        self._conn: sqlite3.Connection | None = None
        self._thread_id: int | None = None

    # -- lifecycle -------------------------------------------------------------------------
    def _open(self) -> None:
        if self.path.parent and not self.path.parent.exists():
            raise UserError(f"{self.path}: folder {self.path.parent} does not exist")
        try:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA busy_timeout=10000")
            conn.executescript(_CORE_SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise UserError(f"{self.path}: not a usable SQLite database: {exc}") from None
        conn.execute(
            "INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', ?)",
            (str(SCHEMA_VERSION),),
        )
        self._conn = conn
        self._thread_id = threading.get_ident()

    async def open(self) -> CrawlDatabase:
        await self.run(lambda _conn: None)
        return self

    def open_sync(self) -> CrawlDatabase:
        self._executor.submit(self._open).result()
        return self

    async def close(self) -> None:
        def _close(conn: sqlite3.Connection) -> None:
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            conn.close()

        if self._conn is not None:
            await self.run(_close)
            self._conn = None
        self._executor.shutdown(wait=True)

    # -- running work on the database thread -------------------------------------------------
    def _call(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        if self._conn is None:
            self._open()
        assert self._conn is not None
        return fn(self._conn)

    async def run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn(conn)`` on the database thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self._call, fn)

    async def transaction(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn(conn)`` inside BEGIN IMMEDIATE ... COMMIT on the database thread."""

        def _txn(conn: sqlite3.Connection) -> T:
            conn.execute("BEGIN IMMEDIATE")
            try:
                result = fn(conn)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return result

        return await self.run(_txn)

    def ensure_table(
        self,
        name: str,
        columns: dict[str, Any],
        pk: str | tuple[str, ...] | None = None,
        indexes: list[tuple[str, ...]] | None = None,
    ) -> None:
        """Create a table through sqlite-utils if it does not exist (runs on the db thread)."""

        def _create(conn: sqlite3.Connection) -> None:
            db = sqlite_utils.Database(conn)
            table = db[name]
            if not table.exists():
                table.create(columns, pk=pk, if_not_exists=True)
            for idx in indexes or []:
                table.create_index(list(idx), if_not_exists=True)

        self._executor.submit(self._call, _create).result()


def open_readonly(path: str | Path) -> sqlite_utils.Database:
    """Open an existing crawl database for export and stats; a missing file is a user error."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"{path}: database not found")
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        conn.execute("SELECT 1 FROM sqlite_master LIMIT 1")
    except sqlite3.DatabaseError as exc:
        raise UserError(f"{path}: not a SQLite database ({exc})") from None
    return sqlite_utils.Database(conn)
