"""Reading a crawl database without touching it: rows of a table for export, figures for ``stats``."""

from __future__ import annotations

import csv
import json
import re
import zlib
from collections.abc import Iterator
from typing import IO, Any

from browsercrawl.errors import UserError
from browsercrawl.storage.reader import Reader, open_reader

_INDEX_TABLE = re.compile(r"_fts(_cjk)?(_(data|idx|docsize|content|config))?$")


def decompress_html(blob: bytes | None) -> str | None:
    """Inverse of the compression used for ``pages.html``."""
    return zlib.decompress(blob).decode("utf-8") if blob else None


def table_rows(db: Reader, table: str, with_html: bool) -> Iterator[dict[str, Any]]:
    """Rows of ``table`` ready to serialise: page HTML decompressed or dropped, other blobs as hex."""
    tables = db.tables()
    if table not in tables:
        raise UserError(f"{db.location}: no table {table!r} (tables: {', '.join(sorted(tables))})")
    for row in db.rows(table):
        if table == "pages":
            if with_html:
                row["html"] = decompress_html(row["html"])
            else:
                row.pop("html", None)
        else:
            for k, v in list(row.items()):
                if isinstance(v, bytes):
                    row[k] = v.hex()
        yield row


def write_rows(rows: Iterator[dict[str, Any]], fmt: str, out: IO[str]) -> int:
    """Write rows as JSON lines or CSV; the number written."""
    n = 0
    writer: Any = None
    for row in rows:
        if fmt == "jsonl":
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
        else:
            if writer is None:
                writer = csv.DictWriter(out, fieldnames=list(row))
                writer.writeheader()
            writer.writerow(row)
        n += 1
    return n


def collect_stats(database: str | Reader) -> dict[str, Any]:
    """Counts a person (or CI) wants after a crawl: frontier states, pages by status/via, hosts."""
    db = database if isinstance(database, Reader) else open_reader(database)
    conn = db
    tables = db.tables()
    stats: dict[str, Any] = {"database": db.location}
    # The full-text index's tables are reported under "search", by size.
    stats["tables"] = {t: db.count(t) for t in sorted(tables) if not _INDEX_TABLE.search(t)}
    # An empty frontier table: a distributed crawl, whose frontier is in Redis (`browsercrawl status`).
    if "frontier" in tables and stats["tables"]["frontier"]:
        stats["frontier"] = dict(conn.execute("SELECT state, COUNT(*) FROM frontier GROUP BY state"))
        stats["hosts"] = dict(
            conn.execute("SELECT host, COUNT(*) FROM frontier GROUP BY host ORDER BY 2 DESC LIMIT 20")
        )
        stats["errors"] = dict(
            conn.execute(
                "SELECT error, COUNT(*) FROM frontier WHERE state='failed'"
                " GROUP BY error ORDER BY 2 DESC LIMIT 10"
            )
        )
    if "trap_cuts" in tables:
        # Links not followed as crawler traps (browsercrawl.frontier.traps), by rule and by shape.
        stats["traps_cut"] = dict(conn.execute("SELECT rule, COUNT(*) FROM trap_cuts GROUP BY rule"))
        stats["trap_shapes"] = dict(conn.execute(
            "SELECT shape, COUNT(*) FROM trap_cuts GROUP BY shape ORDER BY 2 DESC LIMIT 10"))
    if "pages" in tables:
        stats["status"] = {
            str(k): v
            for k, v in conn.execute("SELECT status, COUNT(*) FROM pages GROUP BY status ORDER BY 2 DESC")
        }
        stats["via"] = dict(conn.execute("SELECT via, COUNT(*) FROM pages GROUP BY via"))
        row = conn.execute(
            "SELECT AVG(fetch_ms), AVG(render_ms), SUM(html_bytes), MIN(fetched_at), MAX(fetched_at)"
            " FROM pages"
        ).fetchone()
        stats["timing_ms"] = {
            "fetch_avg": round(row[0] or 0, 1),
            "render_avg": round(row[1] or 0, 1),
        }
        stats["html_bytes"] = int(row[2] or 0)  # PostgreSQL sums BIGINT as NUMERIC
        stats["first_fetch"], stats["last_fetch"] = row[3], row[4]
        # Pages whose wait ran out before they were done (a database older than the column: none).
        cols = {d[0] for d in conn.execute("SELECT * FROM pages LIMIT 0").description}
        if "complete" in cols:
            stats["incomplete_pages"] = conn.execute(
                "SELECT COUNT(*) FROM pages WHERE complete = 0").fetchone()[0]
        stats["search"] = search_figures(db)
    if "shape_waits" in tables and stats["tables"]["shape_waits"]:
        stats["learned_waits"] = {
            shape: ({"selector": sel, "content_ms": ms, "pages": pages, "hits": hits, "misses": misses}
                    if learned else {"learning": True})
            | {"unfinished": unfinished}
            for shape, sel, ms, learned, pages, hits, misses, unfinished in conn.execute(
                "SELECT shape, selector, content_ms, learned, pages, hits, misses, unfinished"
                " FROM shape_waits ORDER BY shape")
        }
    if "api_shortcuts" in tables and stats["tables"]["api_shortcuts"]:
        # Auto mode's API shortcut (engine/api_shortcut.py): which URL shapes were built from their
        # JSON instead of rendered, the renders that saved, and why the others stayed rendered.
        shapes = {
            shape: ({"state": state, "pages_built_from_json": pages or 0, "checks_passed": checks or 0,
                     "render_seconds_avoided_est": round((ms or 0) / 1000, 1)}
                    | ({"why": reason} if reason else {}))
            for shape, state, reason, pages, checks, ms in conn.execute(
                "SELECT shape, state, reason, pages, checks, render_ms_avoided FROM api_shortcuts"
                " ORDER BY shape")
        }
        stats["api_shortcut"] = {
            "shapes": shapes,
            # A shape sent back to the browser had its built pages rendered again: none avoided.
            "renders_avoided": sum(s["pages_built_from_json"] for s in shapes.values()
                                   if s["state"] == "shortcut"),
            "render_seconds_avoided_est": round(
                sum(s["render_seconds_avoided_est"] for s in shapes.values()), 1),
        }
    return stats


def search_figures(db: Reader) -> dict[str, Any]:
    """The full-text index: bytes per table, when and in how many seconds it was built."""
    if db.kind == "postgresql":
        from browsercrawl.storage import pg_search

        return pg_search.index_figures(db.conn)
    from browsercrawl.storage import search_index

    return search_index.index_figures(db.db.conn)
