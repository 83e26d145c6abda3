"""The header's quick search: a search box with no ``<form>``, whose script fetches JSON.

``static/quicksearch.js`` adds the box to the header of every logged-in page once it has loaded
(so it exists only in the rendered page, like many sites' search widgets); Enter fetches
``GET /api/search?q=WORDS&page=N`` and drops the results down under the box as plain links. The
endpoint answers like the other paged lists (``{query, page, pages, total, next_page, items:
[thread]}``, 20 per page) over the same threads ``/search`` finds, the search-only ones included.
"""

from __future__ import annotations

from aiohttp import web

from browsercrawl_demo import api, shared

routes = web.RouteTableDef()


@routes.get("/api/search")
async def api_search(request: web.Request) -> web.Response:
    raw = request.query.get("page", "1")
    if not raw.isdigit() or int(raw) < 1:
        return web.json_response({"error": "page must be a number >= 1"}, status=400)
    query = request.query.get("q", "").strip()
    hits = shared.state(request).content.search(query) if query else []
    return api._paged(hits, int(raw), {"query": query}, api.thread_json)
