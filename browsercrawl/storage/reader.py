"""Reading a crawl database without writing to it: a SQLite file or a PostgreSQL URL, one interface.

``export``, ``stats`` and the parts' figures (e.g. the social graph) read through a
:class:`Reader`, so they work on both backends. SQL is written SQLite style (``?`` parameters,
``[name]`` quoting) and translated for PostgreSQL.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from browsercrawl.errors import UserError
from browsercrawl.storage.base import is_postgres_url, redact
from browsercrawl.storage.db import database_error, open_readonly


class Reader:
    """A read-only view of a crawl database (SQLite); :class:`PgReader` is the PostgreSQL one."""

    kind = "sqlite"

    def __init__(self, path: str | Path) -> None:
        self.db = open_readonly(path)
        self.location = str(path)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self.db.conn.execute(sql, params)

    def tables(self) -> set[str]:
        return set(self.db.table_names())

    def count(self, table: str) -> int:
        return self.db[table].count

    def rows(self, table: str) -> Iterator[dict[str, Any]]:
        yield from self.db[table].rows

    def close(self) -> None:
        self.db.conn.close()


class PgReader(Reader):
    """A read-only session on a PostgreSQL crawl database."""

    kind = "postgresql"

    def __init__(self, url: str) -> None:
        from browsercrawl.storage.postgres import connect

        self.conn = connect(url)
        self.conn.execute("SET default_transaction_read_only = on")
        self.location = redact(url)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        from browsercrawl.storage.postgres import pg_sql

        return self.conn.execute(pg_sql(sql), list(params))

    def tables(self) -> set[str]:
        return {r[0] for r in self.conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")}

    def count(self, table: str) -> int:
        return self.execute(f"SELECT COUNT(*) FROM [{table}]").fetchone()[0]

    def rows(self, table: str) -> Iterator[dict[str, Any]]:
        # A server-side cursor: a table of millions of pages streams instead of filling memory.
        with self.conn.transaction(), self.conn.cursor(name="browsercrawl_export") as cur:
            cur.execute(f'SELECT * FROM "{table}" ORDER BY 1')
            names = None
            for row in cur:
                if names is None:
                    names = [d.name for d in cur.description]
                # search_tsv: the full-text index's column (pg_search.py), not data.
                yield {n: (bytes(v) if isinstance(v, memoryview) else v)
                       for n, v in zip(names, row, strict=True) if n != "search_tsv"}

    def close(self) -> None:
        self.conn.close()


def open_reader(database: str | Path) -> Reader:
    """The reader for a SQLite path or a ``postgresql://`` URL; a missing database is a user error."""
    text = str(database)
    if is_postgres_url(text):
        reader = PgReader(text)
        if "pages" not in reader.tables():
            reader.close()
            raise UserError(f"{redact(text)}: no crawl database there (no pages table)")
        return reader
    return Reader(text)


@contextmanager
def read_errors(location: str) -> Iterator[None]:
    """Reading a damaged SQLite file (bad pages, text that is not UTF-8) is one line, not a traceback."""
    try:
        yield
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:
        raise database_error(location, exc) from None


def check_database_arg(database: str) -> None:
    """Fail early, in one line, on a DATABASE argument that is neither a file nor a URL we know."""
    if "://" in database and not is_postgres_url(database):
        raise UserError(f"{database}: not a SQLite file or a postgresql:// URL")
