"""``browsercrawl search``: find pages, records, people or items of a crawl by their words.

Here rather than in ``storage/`` because it is a command: it reads through the store's reader
(either backend) and rebuilds the index through the store (``--reindex``).
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import time
from pathlib import Path

import click
from rich.console import Console
from rich.markup import escape

from browsercrawl.errors import UserError
from browsercrawl.storage.reader import check_database_arg, open_reader
from browsercrawl.storage.search import MARK_END, MARK_START, TABLES, Hit, SearchQuery, search
from browsercrawl.storage.stores import store_for


def reindex(database: str) -> dict[str, float]:
    """Drop and rebuild the whole index through the store; seconds per table."""
    if "://" not in database and not Path(database).is_file():
        raise UserError(f"{database}: database not found")
    store = store_for(database, Path.cwd())

    async def _run() -> dict[str, float]:
        db = await store.open()
        try:
            return await asyncio.to_thread(db.ensure_search_index, True, True)
        finally:
            await db.close()

    return asyncio.run(_run())


def _marked(snippet: str) -> str:
    """A snippet's marks as rich highlighting, the rest escaped."""
    parts = re.split(f"({re.escape(MARK_START)}.*?{re.escape(MARK_END)})", snippet)
    out = []
    for part in parts:
        if part.startswith(MARK_START) and part.endswith(MARK_END):
            out.append(f"[bold yellow]{escape(part[len(MARK_START):-len(MARK_END)])}[/]")
        else:
            out.append(escape(part))
    return "".join(out)


def _print_hits(hits: list[Hit]) -> None:
    console = Console(highlight=False, soft_wrap=True)
    if not hits:
        console.print("no hits")
        return
    for n, hit in enumerate(hits, 1):
        boosted = f"  [dim]boosted: {escape(', '.join(hit.boosted))}[/]" if hit.boosted else ""
        console.print(f"[bold]{n}. {escape(hit.title or '(no title)')}[/]  [dim]{hit.score:.3g}[/]{boosted}")
        if hit.url:
            console.print(f"   [cyan]{escape(hit.url)}[/]")
        if hit.snippet:
            console.print(f"   {_marked(hit.snippet)}")


@click.command("search")
@click.argument("database")
@click.argument("query", required=False)
@click.option("--in", "table", type=click.Choice(TABLES), default="pages", show_default=True,
              help="What to search.")
@click.option("--boost", multiple=True, metavar="WORD",
              help="Rank hits whose title or URL carries WORD higher (repeatable).")
@click.option("--limit", "-n", type=int, default=20, show_default=True)
@click.option("--host", default=None, help="Only hits on this host (host[:port]).")
@click.option("--url-regex", default=None, help="Only hits whose URL matches this regex.")
@click.option("--since", default=None, metavar="ISO", help="Only hits fetched (seen) at or after this time.")
@click.option("--until", default=None, metavar="ISO", help="Only hits fetched (seen) up to this time.")
@click.option("--rank-window", type=int, default=20_000, show_default=True,
              help="A query matching more rows ranks the newest this many (0: rank them all; slower).")
@click.option("--json", "as_json", is_flag=True, help="Print the hits as JSON.")
@click.option("--reindex", "reindex_flag", is_flag=True,
              help="Rebuild the whole index first (then search, if QUERY is given).")
def search_cmd(database: str, query: str | None, table: str, boost: tuple[str, ...], limit: int,
               host: str | None, url_regex: str | None, since: str | None, until: str | None,
               rank_window: int, as_json: bool, reindex_flag: bool) -> None:
    """Search a crawl DATABASE (SQLite file or postgresql:// URL) for QUERY: BM25 ranking, FTS5
    query syntax (quotes, AND/OR/NOT, NEAR, prefix*), snippets with the matches marked."""
    check_database_arg(database)
    if reindex_flag:
        t0 = time.perf_counter()
        built = reindex(database)
        click.echo(f"browsercrawl: rebuilt the search index of {', '.join(built) or 'nothing'} "
                   f"in {time.perf_counter() - t0:.2f} s", err=True)
        if query is None:
            return
    if query is None:
        raise UserError("search: give a QUERY (or --reindex)")
    q = SearchQuery(text=query, table=table, boost=boost, limit=limit, host=host, url_regex=url_regex,
                    since=since, until=until, rank_window=rank_window)
    reader = open_reader(database)
    try:
        hits = search(reader, q)
    finally:
        reader.close()
    if as_json:
        json.dump({"query": query, "in": table, "hits": [h.as_dict() for h in hits]}, sys.stdout,
                  ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        _print_hits(hits)
