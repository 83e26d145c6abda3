"""Datasette plugin shipped with ``browsercrawl browse``: a page's stored HTML as a link, not a blob.

Loaded by Datasette from this folder (``--plugins-dir``), not imported by browsercrawl. It also
gives the canned CJK query its ``browsercrawl_cjk_phrase`` function. The link
opens ``/-/browsercrawl-html/<database>/<page id>``, which decompresses ``pages.html`` and serves
it under ``Content-Security-Policy: sandbox``: the crawled page is shown, its scripts never run on
Datasette's origin.
"""

from __future__ import annotations

import zlib
from typing import Any

from datasette import hookimpl
from datasette.utils.asgi import Response
from markupsafe import Markup, escape

PAGE_TABLES = ("pages", "pages_browse")


@hookimpl
def render_cell(value: Any, column: str, table: str | None, database: str, row: Any) -> Any:
    if column != "html" or table not in PAGE_TABLES or not isinstance(value, bytes):
        return None
    page_id = row["id"]
    href = f"/-/browsercrawl-html/{escape(database)}/{int(page_id)}"
    return Markup(f'<a href="{href}" target="_blank" rel="noopener">HTML ({len(value):,} bytes zlib)</a>')


async def _page_html(datasette: Any, request: Any) -> Response:
    name = request.url_vars["database"]
    try:
        db = datasette.get_database(name)
    except KeyError:
        return Response.text(f"no database {name}", status=404)
    rows = await db.execute("SELECT html FROM pages WHERE id = ?", [int(request.url_vars["page_id"])])
    blob = rows.first()[0] if rows.rows else None
    if not blob:
        return Response.text("no stored HTML for that page", status=404)
    html = zlib.decompress(blob).decode("utf-8", errors="replace")
    return Response.html(html, headers={"Content-Security-Policy": "sandbox"})


def _cjk_phrase(word: str | None) -> str:
    """A CJK word as its bigrams (``学习中文`` -> ``学习 习中 中文``), for the canned query."""
    word = (word or "").strip().replace('"', "")
    if len(word) < 2:
        return word
    return " ".join(word[i:i + 2] for i in range(len(word) - 1))


@hookimpl
def prepare_connection(conn: Any) -> None:
    conn.create_function("browsercrawl_cjk_phrase", 1, _cjk_phrase, deterministic=True)


@hookimpl
def register_routes() -> list[tuple[str, Any]]:
    return [(r"^/-/browsercrawl-html/(?P<database>[^/]+)/(?P<page_id>\d+)$", _page_html)]
