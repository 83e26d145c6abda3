"""``browsercrawl browse``: look through a crawl in Datasette, on loopback.

Datasette is the tool made for exploring SQLite files; this command only configures it for a
crawl (its metadata, built from the tables the crawl has): full-text search wired to the index
(``storage/search_index.py``), facets on status, host, kind and via, the stored HTML as a link
(the plugin in ``datasette_plugins/``), the people graph's figures, and canned queries a person
asks of every crawl (failed pages and why, login pages stored, pages per host per minute).
"""

from __future__ import annotations

import html
import json
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import click

from browsercrawl.commands.data import all_stats
from browsercrawl.errors import EnvironmentProblem, UserError
from browsercrawl.storage.base import is_postgres_url
from browsercrawl.storage.search_index import BROWSE_VIEW, BROWSE_VIEW_SQL

PLUGINS_DIR = Path(__file__).with_name("datasette_plugins")

_LOGIN_WORDS = ("login", "log-in", "signin", "sign-in", "sign_in", "log_in")
QUERIES: dict[str, dict[str, str]] = {
    "failed_pages": {
        "title": "Failed pages and why",
        "needs": "frontier",
        "sql": "SELECT url, host, attempts, error, finished_at FROM frontier WHERE state = 'failed' "
               "ORDER BY finished_at DESC",
    },
    "error_status_pages": {
        "title": "Pages stored with an HTTP error status",
        "needs": "pages",
        "sql": "SELECT id, url, status, title, fetched_at FROM pages WHERE status >= 400 ORDER BY id",
    },
    "login_pages": {
        "title": "Login pages stored (a logged-in crawl should have none)",
        "needs": "pages",
        "sql": "SELECT id, url, title, status, fetched_at FROM pages WHERE "
               + " OR ".join(f"lower(url) LIKE '%{w}%'" for w in _LOGIN_WORDS)
               + " OR lower(title) LIKE '%log in%' OR lower(title) LIKE '%sign in%' "
               "OR lower(title) LIKE '%login%' ORDER BY id",
    },
    "pages_per_host_per_minute": {
        "title": "Pages per host per minute",
        "needs": BROWSE_VIEW,
        "sql": f"SELECT host, minute, COUNT(*) AS pages FROM {BROWSE_VIEW} GROUP BY host, minute "
               "ORDER BY minute, host",
    },
    "search_chinese_words": {
        "title": "Pages with a Chinese, Japanese or Korean word (the bigram index)",
        "needs": "pages_fts_cjk",
        # Datasette's search box sends words to the word index, where an unspaced clause is one
        # token; a CJK word is looked up as the phrase of its bigrams instead.
        "sql": "SELECT p.id, p.url, p.title FROM pages_fts_cjk JOIN pages p ON p.id = pages_fts_cjk.rowid "
               "WHERE pages_fts_cjk MATCH '\"' || browsercrawl_cjk_phrase(:word) || '\"' "
               "ORDER BY pages_fts_cjk.rank LIMIT 200",
    },
    "most_followed_people": {
        "title": "People by followers",
        "needs": "people",
        "sql": "SELECT id, url, followed_by, follows, friends, items, rate_per_day FROM people "
               "ORDER BY followed_by DESC LIMIT 100",
    },
    "relations_by_kind": {
        "title": "Relations by kind",
        "needs": "relations",
        "sql": "SELECT kind, COUNT(*) AS edges, SUM(removed_at IS NOT NULL) AS removed FROM relations "
               "GROUP BY kind",
    },
}


def _figures_html(title: str, figures: dict[str, Any]) -> str:
    def cell(value: Any) -> str:
        return html.escape(json.dumps(value) if isinstance(value, dict) else str(value))

    rows = "".join(f"<tr><th>{html.escape(str(k))}</th><td>{cell(v)}</td></tr>" for k, v in figures.items())
    return f"<h3>{html.escape(title)}</h3><table>{rows}</table>"


def metadata(path: Path) -> dict[str, Any]:
    """Datasette metadata for the crawl database at ``path`` (what its tables allow)."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
    tables: dict[str, Any] = {}
    if "pages" in names:
        page_meta = {"facets": ["status", "via", "kind"], "sort_desc": "id", "label_column": "title"}
        if "pages_fts" in names:
            page_meta.update(fts_table="pages_fts", fts_pk="id")
        tables["pages"] = page_meta
    if BROWSE_VIEW in names:
        view = {"facets": ["host", "status", "kind", "via"], "sort_desc": "id",
                "description": "pages with each page's host and the minute it was fetched"}
        if "pages_fts" in names:
            view.update(fts_table="pages_fts", fts_pk="id")
        tables[BROWSE_VIEW] = view
    if "frontier" in names:
        tables["frontier"] = {"facets": ["state", "host", "kind"]}
    for name in ("records", "people", "items"):
        if name in names and f"{name}_fts" in names:
            tables[name] = {"fts_table": f"{name}_fts", "fts_pk": "rowid"}
    if "relations" in names:
        tables["relations"] = {"facets": ["kind"]}
    queries = {k: {"title": q["title"], "sql": q["sql"]} for k, q in QUERIES.items() if q["needs"] in names}
    stats = all_stats(str(path))
    description = _figures_html("Search index", stats.get("search", {}))
    if stats.get("graph"):
        description += _figures_html("People graph", stats["graph"])
    return {
        "title": f"browsercrawl: {path.name}",
        "databases": {path.stem: {"description_html": description, "tables": tables, "queries": queries}},
    }


def _ensure_view(path: Path) -> None:
    """The host/minute view of a crawl made before it existed (skipped if the file is read-only)."""
    try:
        with sqlite3.connect(path) as conn:
            conn.execute(BROWSE_VIEW_SQL)
    except sqlite3.Error:
        pass


@click.command()
@click.argument("database", type=click.Path(dir_okay=False))
@click.option("--port", "-p", type=int, default=8001, show_default=True,
              help="Port on 127.0.0.1 (0: any free one).")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the desktop's web browser.")
def browse(database: str, port: int, open_browser: bool) -> None:
    """Browse a crawl DATABASE (SQLite file) in Datasette on 127.0.0.1: search, facets, stored HTML,
    canned queries. Ctrl-C stops it."""
    if is_postgres_url(database):
        raise UserError(f"{database}: browse needs a SQLite crawl file (Datasette reads SQLite); "
                        "use `browsercrawl search` on PostgreSQL")
    path = Path(database)
    if not path.is_file():
        raise UserError(f"{database}: database not found")
    _ensure_view(path)
    meta = metadata(path)
    try:
        import datasette  # noqa: F401 - only checking it is installed
    except ImportError:
        raise EnvironmentProblem("Datasette is not installed: pip install datasette") from None
    with tempfile.TemporaryDirectory(prefix="browsercrawl-browse-") as tmp:
        meta_path = Path(tmp) / "metadata.json"
        meta_path.write_text(json.dumps(meta), encoding="utf-8")
        cmd = [sys.executable, "-m", "datasette", "serve", str(path), "--host", "127.0.0.1",
               "--port", str(port), "--metadata", str(meta_path), "--plugins-dir", str(PLUGINS_DIR),
               "--setting", "default_page_size", "50", "--setting", "sql_time_limit_ms", "5000"]
        if open_browser:
            cmd.append("--open")
        click.echo(f"browsercrawl: browsing {path} at http://127.0.0.1:{port}/{path.stem} (Ctrl-C stops)",
                   err=True)
        proc = subprocess.Popen(cmd)
        try:
            rc = proc.wait()
        except KeyboardInterrupt:
            proc.terminate()
            proc.wait(10)
            raise
    if rc:
        raise UserError(f"Datasette stopped with exit code {rc} (is port {port} in use?)")
