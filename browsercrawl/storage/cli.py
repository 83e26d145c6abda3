"""``browsercrawl export`` and ``browsercrawl stats``: read a crawl database without touching it."""

from __future__ import annotations

import csv
import json
import sys
from typing import IO, Any

import click

from browsercrawl.errors import UserError
from browsercrawl.storage.db import open_readonly


def _rows(db, table: str, with_html: bool):
    from browsercrawl.engine.writer import decompress_html

    if table not in db.table_names():
        raise UserError(
            f"{db.conn.execute('PRAGMA database_list').fetchone()[2]}: no table {table!r} "
            f"(tables: {', '.join(sorted(db.table_names()))})"
        )
    for row in db[table].rows:
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


def _write(rows, fmt: str, out: IO[str]) -> int:
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


@click.command()
@click.argument("database", type=click.Path(dir_okay=False))
@click.option("--table", "-t", default="pages", show_default=True, help="Table to export.")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "csv"]), default="jsonl", show_default=True)
@click.option(
    "--out",
    "-o",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Write here instead of standard output.",
)
@click.option("--with-html", is_flag=True, help="Include the (decompressed) rendered HTML of pages.")
@click.option("--graph", "graph", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write the people graph of a social crawl instead: edges.csv or graph.graphml.")
def export(database: str, table: str, fmt: str, out: str | None, with_html: bool, graph: str | None) -> None:
    """Export a table of a crawl DATABASE as JSON lines or CSV (or its people graph, --graph)."""
    db = open_readonly(database)
    if graph:
        from browsercrawl.social.graph import write_graph

        n = write_graph(db.conn, graph, database)
        click.echo(f"browsercrawl: wrote {n} edges to {graph}", err=True)
        return
    rows = _rows(db, table, with_html)
    if out:
        with open(out, "w", encoding="utf-8", newline="") as fh:
            n = _write(rows, fmt, fh)
        click.echo(f"browsercrawl: wrote {n} rows of {table} to {out}", err=True)
    else:
        _write(rows, fmt, sys.stdout)


def collect_stats(database: str) -> dict[str, Any]:
    """Counts a person (or CI) wants after a crawl: frontier states, pages by status/via, hosts."""
    db = open_readonly(database)
    conn = db.conn
    stats: dict[str, Any] = {"database": database}
    stats["tables"] = {t: db[t].count for t in sorted(db.table_names())}
    if "frontier" in db.table_names():
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
    if "pages" in db.table_names():
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
        stats["html_bytes"] = row[2] or 0
        stats["first_fetch"], stats["last_fetch"] = row[3], row[4]
    from browsercrawl.social.graph import graph_stats

    graph = graph_stats(conn)
    if graph:
        stats["graph"] = graph
    return stats


@click.command()
@click.argument("database", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def stats(database: str, as_json: bool) -> None:
    """Summarise a crawl DATABASE: frontier states, statuses, hosts, timings, table sizes."""
    data = collect_stats(database)
    if as_json or not sys.stdout.isatty():
        click.echo(json.dumps(data, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    console = Console()
    for key in ("tables", "frontier", "status", "via", "hosts", "errors", "timing_ms", "graph"):
        if data.get(key):
            t = Table(title=key, show_header=False)
            for k, v in data[key].items():
                t.add_row(str(k), str(v))
            console.print(t)
