"""Which store a job writes to: its ``output.database`` is a SQLite path or a PostgreSQL URL."""

from __future__ import annotations

from pathlib import Path

from browsercrawl.storage.base import Store, is_postgres_url
from browsercrawl.storage.db import CrawlDatabase


def store_for(database: str, base_dir: Path) -> Store:
    """The (not yet opened) store for ``output.database``; a relative path is from the job's folder."""
    if is_postgres_url(database):
        from browsercrawl.storage.postgres import PostgresStore

        return PostgresStore(database)
    path = Path(database)
    return CrawlDatabase(path if path.is_absolute() else base_dir / path)
