"""What the crawl needs of a database, whichever one it is (SQLite file or PostgreSQL server).

Two small interfaces, so the engine, the frontier and the parts never depend on a backend:

* :class:`Store` - the crawl database while a crawl runs: the parts declare their tables
  (``ensure_table``) and reload what an earlier run knew (``read``); the writer commits a batch of
  pages in one transaction through a :class:`PageTx`.
* :class:`PageTx` - one open transaction: a page row (stored once per URL), its links, the rows
  the hooks produced. The SQL frontier writes its own rows through ``tx.conn`` in the same
  transaction.

SQL handed to ``read`` and ``PageTx.execute`` is written once, SQLite style (``?`` parameters,
``[name]`` quoting); the PostgreSQL store translates it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence, Sized
from typing import Any, Protocol, TypeVar

from browsercrawl.errors import EnvironmentProblem, UserError

T = TypeVar("T")
R = TypeVar("R", bound=Sized)
K = TypeVar("K")

# The row of ``meta`` that says browsercrawl created a database: nothing is ever written into a
# database without it (another program's file is refused), except an empty one, which gets it.
MARKER_KEY = "created_by"
MARKER_VALUE = "browsercrawl"


class DamagedDatabase(UserError):
    """The database file cannot be read (corrupted, truncated, not SQLite, undecodable text)."""


class ForeignDatabase(UserError):
    """The database holds tables but no browsercrawl marker: another program's data."""


class StorageFull(EnvironmentProblem):
    """The database cannot be written (disk full, I/O error); what was committed stays."""


class StoreFailed(EnvironmentProblem):
    """The store or the shared frontier failed a write for a reason not the user's input (a server
    gone, a conflict retried to the end): the crawl stops; it resumes when run again."""


def foreign_database_message(location: str, tables: Sequence[str]) -> str:
    shown = ", ".join(sorted(tables)[:5]) + (", ..." if len(tables) > 5 else "")
    return (f"{location}: not a browsercrawl database (tables {shown} but no {MARKER_KEY} marker in "
            "its meta table); refusing to write into it: give output.database a new file")

# Python types a part may name for a column; each store maps them to its own column types.
ColumnType = type


def row_shape(row: dict[str, Any]) -> tuple[bool, tuple[str, ...]]:
    """A hook row's verb (upsert or not) and columns: rows of one shape share a statement."""
    return bool(row.get("__upsert__")), tuple(c for c in row if c != "__upsert__")


def values_clause(mark: str, columns: int, rows: int) -> str:
    """``VALUES (?, ?), (?, ?)``: ``rows`` rows of ``columns`` placeholders (``mark``: the driver's,
    ``?`` for sqlite3, ``%s`` for psycopg), for a multi-row INSERT."""
    one = f"({', '.join([mark] * columns)})"
    return f"VALUES {', '.join([one] * rows)}"


def runs(rows: Sequence[R], shape: Callable[[R], K], max_params: int) -> Iterator[tuple[K, list[R]]]:
    """Consecutive rows of the same ``shape``, in their order, as many at a time as ``max_params``
    statement parameters hold for the widest row: written a run per statement, a later row still
    comes after an earlier one (an upsert of a key wins)."""
    most = max(1, max_params // max((len(r) for r in rows), default=1))
    start = 0
    while start < len(rows):
        key = shape(rows[start])
        end = start + 1
        while end < len(rows) and end - start < most and shape(rows[end]) == key:
            end += 1
        yield key, list(rows[start:end])
        start = end


class PageTx(Protocol):
    """One open transaction of the store's writer."""

    kind: str  # 'sqlite' | 'postgresql'
    conn: Any  # the backend's own connection, for the SQL frontier's statements

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run one statement (SQLite-style SQL); returns a cursor."""

    def insert_pages(self, rows: list[dict[str, Any]]) -> list[int | None]:
        """Insert ``pages`` rows, in the order given; each one's id, or None where its URL is
        stored already (by an earlier batch or an earlier row of this one)."""

    def stored_from(self, url: str) -> str | None:
        """The ``requested_url`` of the stored page whose URL is ``url``, if there is one."""

    def replace_built_page(self, row: dict[str, Any]) -> int | None:
        """Overwrite the stored page of ``row``'s URL when it was built from JSON (``via = 'api'``,
        by a recipe later found wrong) and drop its links; its id, or None (nothing replaced)."""

    def insert_links(self, pages: list[tuple[int, list[tuple[str, str, int]]]]) -> None:
        """Each page's links, (page id, [(url, anchor text, in scope), ...]), in their order."""

    def insert_rows(self, table: str, rows: list[dict[str, Any]]) -> None:
        """Hook rows: ignored when their key exists, replaced when a row carries ``__upsert__``."""


class Store(Protocol):
    """The crawl database (see the module docstring)."""

    kind: str  # 'sqlite' | 'postgresql'

    @property
    def location(self) -> str:
        """Where it is, for summaries and errors (a path, or a URL without its password)."""

    async def open(self) -> Store: ...

    async def close(self) -> None: ...

    def ensure_table(
        self,
        name: str,
        columns: dict[str, ColumnType],
        pk: str | tuple[str, ...] | None = None,
        indexes: list[tuple[str, ...]] | None = None,
    ) -> None:
        """Create the table, or add the columns it lacks; a single integer ``pk`` is assigned
        automatically when a row leaves it out."""

    def ensure_search_index(self, enabled: bool = True, rebuild: bool = False) -> dict[str, float]:
        """Create the full-text index of pages, records, people and items, kept in step with them
        inside each write transaction (or drop it when not ``enabled``; rebuild it with ``rebuild``).
        Returns the seconds spent filling each index built now."""

    def search_index_sizes(self) -> dict[str, int]:
        """Bytes of the full-text index, per indexed table."""

    def has_table(self, name: str) -> bool: ...

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Rows of one query, for parts reloading state before the crawl starts."""

    async def write(self, fn: Callable[[PageTx], T]) -> T:
        """Run ``fn(tx)`` in one transaction on the store's thread; all of it commits or none."""

    async def count_pages(self) -> int: ...

    async def claim_single_writer(self) -> bool:
        """Become the only one-process crawl writing here; False when another crawl already is."""


def redact(url: str) -> str:
    """A database URL without its password, safe for logs and summaries."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = f"{parts.username}:***@{parts.hostname}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def is_postgres_url(database: str) -> bool:
    return database.startswith(("postgresql://", "postgres://"))
