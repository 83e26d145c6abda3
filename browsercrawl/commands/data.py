"""``browsercrawl export`` and ``browsercrawl stats``: read a crawl database without touching it.

Here rather than in ``storage/`` because both show what the parts stored: ``stats`` adds each
part's figures (the social graph, ...) and ``export --graph`` writes the people graph.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, TextIO

import click
from rich.console import Console
from rich.table import Table

from browsercrawl.errors import UserError
from browsercrawl.parts import REGISTRY
from browsercrawl.social.graph import write_graph
from browsercrawl.storage.reader import Reader, check_database_arg, open_reader, read_errors
from browsercrawl.storage.report import collect_stats, table_rows, write_rows


@click.command()
@click.argument("database")
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
    """Export a table of a crawl DATABASE (a SQLite file or a postgresql:// URL) as JSON lines or CSV
    (or its people graph, --graph)."""
    check_database_arg(database)
    with read_errors(database):
        _export(open_reader(database), table, fmt, out, with_html, graph)


def _export(db: Reader, table: str, fmt: str, out: str | None, with_html: bool, graph: str | None) -> None:
    """The export itself, inside ``read_errors`` so a damaged page of the file is one line."""
    if graph:
        _check_folder("--graph", graph)
        n = write_graph(db, graph, db.location)
        click.echo(f"browsercrawl: wrote {n} edges to {graph}", err=True)
        return
    rows = table_rows(db, table, with_html)
    if out:
        with _output_file(out) as fh:
            n = write_rows(rows, fmt, fh)
        click.echo(f"browsercrawl: wrote {n} rows of {table} to {out}", err=True)
    else:
        write_rows(rows, fmt, sys.stdout)


def _check_folder(option: str, path: str) -> None:
    folder = Path(path).parent
    if not folder.is_dir():
        raise UserError(f"{option} {path}: folder {folder} does not exist")


def _output_file(out: str) -> TextIO:
    """Open ``--out`` for writing; a missing folder or a read-only place is one line, not a traceback."""
    _check_folder("--out", out)
    try:
        return open(out, "w", encoding="utf-8", newline="")
    except OSError as exc:
        raise UserError(f"--out {out}: cannot write there: {exc.strerror}") from None


def all_stats(database: str) -> dict[str, Any]:
    """The database's own figures plus what each part adds (e.g. ``graph`` for a social crawl)."""
    check_database_arg(database)
    with read_errors(database):
        reader = open_reader(database)
        try:
            stats = collect_stats(reader)
            for spec in REGISTRY:
                if spec.stats is not None:
                    stats.update(spec.stats(reader) or {})
        finally:
            reader.close()
    return stats


@click.command()
@click.argument("database")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def stats(database: str, as_json: bool) -> None:
    """Summarise a crawl DATABASE (a SQLite file or a postgresql:// URL): frontier states, statuses,
    hosts, timings, table sizes."""
    data = all_stats(database)
    if as_json or not sys.stdout.isatty():
        click.echo(json.dumps(data, indent=2))
        return
    console = Console()
    for key, value in data.items():
        if isinstance(value, dict) and value:
            t = Table(title=key, show_header=False)
            for k, v in value.items():
                t.add_row(str(k), str(v))
            console.print(t)
