"""The crawl database: one SQLite file in WAL mode, written from one dedicated thread.

Why one thread: sqlite3 calls block, and the engine's event loop must never block. Every read and
write goes through :meth:`CrawlDatabase.run`, which executes it on the database thread; the page,
its links, the frontier update and the newly found URLs are committed in one transaction, so a
crawl killed at any instant leaves either all of a page's effects or none of them.
"""

from __future__ import annotations

import asyncio
import functools
import json
import sqlite3
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from browsercrawl.errors import UserError, error_line
from browsercrawl.storage import search_index
from browsercrawl.storage.base import (
    MARKER_KEY,
    MARKER_VALUE,
    DamagedDatabase,
    ForeignDatabase,
    PageTx,
    StorageFull,
    foreign_database_message,
    row_shape,
    runs,
    values_clause,
)

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


def _import_sqlite_utils() -> Any:
    """sqlite-utils imports numpy at import time, only to convert numpy values in rows; the store
    never gets any, and numpy is ~11 MiB of a crawler's memory (a third of an HTTP crawl's growth
    over the bare interpreter). So it is imported with numpy hidden, unless numpy is loaded already."""
    if "numpy" in sys.modules:
        import sqlite_utils
        return sqlite_utils
    sys.modules["numpy"] = None  # type: ignore[assignment]  # import_module("numpy") now fails
    try:
        import sqlite_utils
    finally:
        del sys.modules["numpy"]
    return sqlite_utils


sqlite_utils = _import_sqlite_utils()


def json_rows(rows: Iterable[Sequence[Any]]) -> str:
    """Rows as one JSON array, for a statement that inserts them all through ``json_each``.

    The database thread gives up the GIL for every statement step (every row of an
    ``executemany``) and must win it back before the next; while the event loop's thread is busy,
    each win waits up to the interpreter's switch interval (5 ms). Row by row, a batch of pages
    took hundreds of ms and held up the claims queued behind it; one step per table does not.
    """
    # JSON writes tuples as arrays: no copy of each row first.
    return json.dumps(rows if isinstance(rows, list) else list(rows), ensure_ascii=False,
                      separators=(",", ":"))


class SqliteTx:
    """A :class:`~browsercrawl.storage.base.PageTx` over the SQLite connection."""

    kind = "sqlite"

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, params: Any = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, params)

    def insert_pages(self, rows: list[dict[str, Any]]) -> list[int | None]:
        # A few statements per batch, not one per page (see ``json_rows`` for why that matters).
        # The ids are given, not taken from each insert: the batch's rows get the ids after the
        # largest, and one read afterwards says which of them went in (the single writer's
        # transaction holds the file, so nothing else takes an id meanwhile).
        if not rows:
            return []
        base = self.conn.execute("SELECT coalesce(max(id), 0) FROM pages").fetchone()[0]
        by_columns: dict[tuple[str, ...], list[int]] = {}
        for k, row in enumerate(rows):
            by_columns.setdefault(tuple(row), []).append(k)
        for cols, members in by_columns.items():
            per = max(1, _MAX_PARAMS // (len(cols) + 1))
            for start in range(0, len(members), per):
                chunk = members[start:start + per]
                params: list[Any] = []
                for k in chunk:
                    params.append(base + 1 + k)
                    params.extend(rows[k].values())
                self.conn.execute(_insert_many_sql("pages", ("id", *cols), len(chunk)), params)
        found = self.conn.execute("SELECT json_group_array(id) FROM pages WHERE id > ?", (base,))
        inserted = set(json.loads(found.fetchone()[0]))
        return [base + 1 + k if base + 1 + k in inserted else None for k in range(len(rows))]

    def stored_from(self, url: str) -> str | None:
        row = self.conn.execute("SELECT requested_url FROM pages WHERE url=?", (url,)).fetchone()
        return row[0] if row else None

    def replace_built_page(self, row: dict[str, Any]) -> int | None:
        old = self.conn.execute("SELECT id, via FROM pages WHERE url=?", (row["url"],)).fetchone()
        if old is None or old[1] != "api":
            return None
        self.conn.execute("DELETE FROM links WHERE page_id=?", (old[0],))
        cols = [c for c in row if c != "url"]
        self.conn.execute(f"UPDATE pages SET {', '.join(f'[{c}]=?' for c in cols)} WHERE id=?",
                          [row[c] for c in cols] + [old[0]])
        return int(old[0])

    def insert_links(self, pages: list[tuple[int, list[tuple[str, str, int]]]]) -> None:
        # One statement for the whole batch's links (see ``json_rows``), in their order.
        rows = [(page_id, *link) for page_id, links in pages for link in links]
        if not rows:
            return
        self.conn.execute(
            "INSERT INTO links (page_id, url, text, in_scope) SELECT json_extract(value, '$[0]'), "
            "json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]') "
            "FROM json_each(?)",
            (json_rows(rows),),
        )

    def insert_rows(self, table: str, rows: list[dict[str, Any]]) -> None:
        # Rows are read, not popped: a transaction run again gets the same rows.
        for (upsert, cols), run in runs(rows, row_shape, _MAX_PARAMS):
            verb = "INSERT OR REPLACE" if upsert else "INSERT OR IGNORE"
            self.conn.execute(_insert_many_sql(table, cols, len(run), verb),
                              [row[c] for row in run for c in cols])


# Parameters in one statement: SQLite's own limit is 32,766 since 3.32.
_MAX_PARAMS = 30_000


@functools.lru_cache(maxsize=256)
def _insert_many_sql(table: str, cols: tuple[str, ...], rows: int, verb: str = "INSERT OR IGNORE") -> str:
    names = ", ".join(f"[{c}]" for c in cols)
    return f"{verb} INTO [{table}] ({names}) {values_clause('?', len(cols), rows)}"


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
        check_ours(self.path)  # read-only: a damaged or foreign file is refused before any write
        try:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA busy_timeout=10000")
            search_index.prepare_connection(conn)
            conn.executescript(_CORE_SCHEMA)
            for table, column, kind in CORE_COLUMNS_ADDED:
                have = {row[1] for row in conn.execute(f"PRAGMA table_info([{table}])")}
                if column not in have:
                    conn.execute(f"ALTER TABLE [{table}] ADD COLUMN [{column}] {kind}")
            conn.executemany("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)",
                             [("schema_version", str(SCHEMA_VERSION)), (MARKER_KEY, MARKER_VALUE)])
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            raise database_error(self.path, exc) from None
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
        try:
            return fn(self._conn)
        except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
            if isinstance(exc, sqlite3.DatabaseError) and _is_bug(exc):
                raise  # our SQL, not the file: keep the traceback
            raise database_error(self.path, exc) from None

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

    async def claim_single_writer(self) -> bool:
        """Always True: a SQLite crawl holds the file lock of ``storage/lock.py`` before it opens."""
        return True

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

    def ensure_search_index(self, enabled: bool = True, rebuild: bool = False) -> dict[str, float]:
        """Create the full-text index of every indexed table and its triggers (or drop it when not
        ``enabled``); the seconds spent filling each newly built index (``search_index.py``)."""

        def _ensure(conn: sqlite3.Connection) -> dict[str, float]:
            if not enabled:
                search_index.drop_index(conn)
                return {}
            return search_index.ensure_index(conn, rebuild=rebuild)

        return self._executor.submit(self._call, _ensure).result()

    def search_index_sizes(self) -> dict[str, int]:
        return self._executor.submit(self._call, search_index.index_sizes).result()

    def has_table(self, name: str) -> bool:
        return bool(self.read("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (name,)))

    def read(self, sql: str, params: Any = ()) -> list[tuple[Any, ...]]:
        """Rows of one query, on the database thread (for parts reloading state at start)."""
        return self._executor.submit(self._call, lambda c: c.execute(sql, params).fetchall()).result()


# SQLite result codes that describe the file or the disk rather than the statement.
_DISK_CODES = {"SQLITE_FULL", "SQLITE_IOERR", "SQLITE_READONLY", "SQLITE_CANTOPEN"}
_DAMAGE_CODES = {"SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_FORMAT"}


def _code_name(exc: sqlite3.DatabaseError) -> str:
    """The primary result code's name (``SQLITE_IOERR`` for ``SQLITE_IOERR_WRITE``)."""
    return "_".join((getattr(exc, "sqlite_errorname", "") or "").split("_")[:2])


def _is_bug(exc: sqlite3.DatabaseError) -> bool:
    """A statement error (no such column, constraint...) rather than a damaged file or a full disk."""
    code = _code_name(exc)
    if code in _DISK_CODES or code in _DAMAGE_CODES:
        return False
    return "decode" not in str(exc) and "malformed" not in str(exc)


def database_error(path: Path | str, exc: BaseException) -> UserError:
    """One line for a database that cannot be read or written: damaged (exit 2) or disk (exit 4)."""
    text = error_line(exc)
    if isinstance(exc, sqlite3.DatabaseError) and _code_name(exc) in _DISK_CODES:
        return StorageFull(f"{path}: cannot write the crawl database ({text}); what was committed is "
                           "kept: make room on the disk (or fix the file's permissions) and run the same "
                           "command again to resume")
    if isinstance(exc, UnicodeDecodeError) or "decode to UTF-8" in text:
        text = text.split(" with text ")[0] + ": text that is not UTF-8"
    return DamagedDatabase(f"{path}: not a SQLite database, or a damaged one ({text[:200]})")


# Up to this size a resumed crawl checks the whole file first (a second or two), so damage deep in
# it is found before anything is written; a bigger file is checked as it is read.
_QUICK_CHECK_MAX_BYTES = 512 * 1024 * 1024


def _quick_check(conn: sqlite3.Connection, path: Path) -> None:
    """Raise DamagedDatabase when a file up to 512 MB fails ``PRAGMA quick_check``."""
    if path.stat().st_size <= _QUICK_CHECK_MAX_BYTES:
        problem = conn.execute("PRAGMA quick_check(1)").fetchone()[0]
        if problem != "ok":
            raise DamagedDatabase(
                f"{path}: not a SQLite database, or a damaged one (quick_check: {problem[:200]})")


def check_ours(path: Path) -> None:
    """Refuse, before anything is written, a file that is not a SQLite database browsercrawl made.

    A missing or empty file, or a SQLite database without tables, is new: it gets the marker. A
    database with tables must hold the marker (or, written by an older browsercrawl, the
    ``schema_version`` row beside ``frontier`` and ``pages``), else it is another program's.
    A file up to 512 MB also passes ``PRAGMA quick_check``.
    """
    if path.is_dir():
        raise UserError(f"{path}: is a folder, not a database file")
    if not path.exists() or path.stat().st_size == 0:
        return
    try:
        conn = connect_readonly(path)
    except sqlite3.DatabaseError as exc:
        raise database_error(path, exc) from None
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        if not tables:
            return
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall()) if "meta" in tables else {}
        _quick_check(conn, path)
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        raise database_error(path, exc) from None
    finally:
        conn.close()
    legacy = "schema_version" in meta and {"frontier", "pages"} <= set(tables)
    if meta.get(MARKER_KEY) != MARKER_VALUE and not legacy:
        raise ForeignDatabase(foreign_database_message(str(path), tables))


def open_readonly(path: str | Path) -> sqlite_utils.Database:
    """Open an existing crawl database for export and stats; a missing file is a user error."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"{path}: database not found")
    try:
        conn = connect_readonly(path)
        conn.execute("SELECT 1 FROM sqlite_master LIMIT 1")
        # Reading a damaged page does not always fail (the bytes may still decode as a row), so a
        # file small enough is checked first, as a crawl checks it before resuming.
        _quick_check(conn, path)
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        raise database_error(path, exc) from None
    return sqlite_utils.Database(conn)


def connect_readonly(path: Path) -> sqlite3.Connection:
    """A connection that writes nothing, not even the ``-wal``/``-shm`` files beside the database.

    Without a ``-wal`` file no writer is active in WAL mode, so the file is opened ``immutable``
    (no shared-memory file is created); with one, a plain read-only open sees its committed pages.
    """
    wal = Path(f"{path}-wal")
    flag = "mode=ro" if wal.exists() else "immutable=1"
    return sqlite3.connect(f"{path.absolute().as_uri()}?{flag}", uri=True)
