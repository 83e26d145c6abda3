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
from browsercrawl.storage.base import PageTx

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
    kind TEXT,
    complete INTEGER
);
CREATE TABLE IF NOT EXISTS links (
    page_id INTEGER NOT NULL REFERENCES pages(id),
    url TEXT NOT NULL,
    text TEXT,
    in_scope INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS links_page ON links (page_id);
CREATE INDEX IF NOT EXISTS links_url ON links (url);
CREATE TABLE IF NOT EXISTS shape_waits (
    shape TEXT PRIMARY KEY,
    selector TEXT,
    content_ms REAL,
    learned INTEGER,
    samples INTEGER,
    pages INTEGER,
    hits INTEGER,
    misses INTEGER,
    unfinished INTEGER,
    updated_at TEXT
);
"""

# Columns added to core tables after databases were made without them: (table, column, type).
# Both stores add the missing ones when they open a database, so an older crawl still resumes.
CORE_COLUMNS_ADDED = [("pages", "complete", "INTEGER")]


class SqliteTx:
    """A :class:`~browsercrawl.storage.base.PageTx` over the SQLite connection."""

    kind = "sqlite"

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, params)

    def insert_page(self, row: dict[str, Any]) -> int | None:
        cur = self.conn.execute(_insert_sql("pages", tuple(row), "INSERT OR IGNORE"), list(row.values()))
        return cur.lastrowid if cur.rowcount else None

    def stored_from(self, url: str) -> str | None:
        row = self.conn.execute("SELECT requested_url FROM pages WHERE url=?", (url,)).fetchone()
        return row[0] if row else None

    def insert_links(self, page_id: int, links: list[tuple[str, str, int]]) -> None:
        self.conn.executemany(
            "INSERT INTO links (page_id, url, text, in_scope) VALUES (?, ?, ?, ?)",
            [(page_id, u, t, s) for u, t, s in links],
        )

    def insert_rows(self, table: str, rows: list[dict[str, Any]]) -> None:
        for row in rows:
            upsert = row.pop("__upsert__", False)
            verb = "INSERT OR REPLACE" if upsert else "INSERT OR IGNORE"
            self.conn.execute(_insert_sql(table, tuple(row), verb), list(row.values()))


_INSERTS: dict[tuple[str, tuple[str, ...], str], str] = {}


def _insert_sql(table: str, cols: tuple[str, ...], verb: str) -> str:
    key = (table, cols, verb)
    sql = _INSERTS.get(key)
    if sql is None:
        sql = (f"{verb} INTO [{table}] ({', '.join(f'[{c}]' for c in cols)}) "
               f"VALUES ({', '.join('?' for _ in cols)})")
        _INSERTS[key] = sql
    return sql


class CrawlDatabase:
    """Owns the SQLite connection and the single thread that uses it (a :class:`Store`)."""

    kind = "sqlite"

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
            for table, column, kind in CORE_COLUMNS_ADDED:
                have = {row[1] for row in conn.execute(f"PRAGMA table_info([{table}])")}
                if column not in have:
                    conn.execute(f"ALTER TABLE [{table}] ADD COLUMN [{column}] {kind}")
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

    @property
    def location(self) -> str:
        return str(self.path)

    async def write(self, fn: Callable[[PageTx], T]) -> T:
        """Run ``fn(tx)`` in one transaction (see :meth:`transaction`)."""
        return await self.transaction(lambda conn: fn(SqliteTx(conn)))

    async def count_pages(self) -> int:
        return await self.run(lambda c: c.execute("SELECT COUNT(*) FROM pages").fetchone()[0])

    def ensure_table(
        self,
        name: str,
        columns: dict[str, Any],
        pk: str | tuple[str, ...] | None = None,
        indexes: list[tuple[str, ...]] | None = None,
    ) -> None:
        """Create a table through sqlite-utils, or add the columns it lacks (runs on the db thread)."""

        def _create(conn: sqlite3.Connection) -> None:
            db = sqlite_utils.Database(conn)
            table = db[name]
            if not table.exists():
                table.create(columns, pk=pk, if_not_exists=True)
            else:
                have = set(table.columns_dict)
                for col, kind in columns.items():
                    if col not in have:
                        table.add_column(col, kind)
            for idx in indexes or []:
                table.create_index(list(idx), if_not_exists=True)

        self._executor.submit(self._call, _create).result()

    def has_table(self, name: str) -> bool:
        return bool(self.read("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (name,)))

    def read(self, sql: str, params: Any = ()) -> list[tuple[Any, ...]]:
        """Rows of one query, on the database thread (for parts reloading state at start)."""
        return self._executor.submit(self._call, lambda c: c.execute(sql, params).fetchall()).result()


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
