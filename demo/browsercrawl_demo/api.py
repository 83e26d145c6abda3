"""JSON endpoints of the demo site: the data behind client-rendered lists, and the state-changing
POSTs (follow, like) that a crawler's AJAX explorer must not press.

All of them require login; the middleware in app.py answers 401 JSON before these run. Paging:
lists use ``?page=N`` (1-based, 20 per page, ``next_page`` null on the last page), comments use
``?offset=N`` (10 per page, ``next_offset`` null at the end), the feed uses an opaque ``cursor``
(``next_cursor`` null at the end) so new posts arriving do not shift pages.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from aiohttp import web

from browsercrawl_demo import shared
from browsercrawl_demo.content import StatusPost, Thread, iso
from browsercrawl_demo.state import (
    COMMENTS_INLINE,
    PAGE_SIZE,
    decode_cursor,
    encode_cursor,
    page_count,
)

routes = web.RouteTableDef()


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status)


def post_json(p: StatusPost) -> dict[str, Any]:
    return {"id": p.id, "member": p.member, "member_url": f"/u/{p.member}",
            "time": iso(p.time), "text": p.text}


LATEST_ON_CARD = 3  # threads a board card lists


def thread_json(t: Thread) -> dict[str, Any]:
    return {"id": t.id, "url": t.path, "title": t.title, "author": t.author,
            "author_url": f"/u/{t.author}", "board": t.board_id, "posted": iso(t.posted),
            "tags": list(t.tags), "solved": t.solved, "comments": len(t.comments)}


def _paged(items: list, page: int, extra: dict[str, Any],
           to_json: Callable[[Any], Any] = lambda x: x) -> web.Response:
    """One page of ``items``; only that page is converted to JSON (handlers stay cheap)."""
    pages = page_count(len(items))
    if page > pages:
        return _error(404, f"page {page} is past the last page ({pages})")
    chunk = items[(page - 1) * PAGE_SIZE: page * PAGE_SIZE]
    return web.json_response({**extra, "page": page, "pages": pages, "total": len(items),
                              "next_page": page + 1 if page < pages else None,
                              "items": [to_json(x) for x in chunk]})


def _int_param(request: web.Request, name: str, default: int, minimum: int) -> int:
    raw = request.query.get(name, str(default))
    try:
        value = int(raw)
    except ValueError:
        raise web.HTTPBadRequest(text=f'{{"error": "{name} must be an integer"}}',
                                 content_type="application/json") from None
    if value < minimum:
        raise web.HTTPBadRequest(text=f'{{"error": "{name} must be >= {minimum}"}}',
                                 content_type="application/json")
    return value


@routes.get("/api/feed")
async def api_feed(request: web.Request) -> web.Response:
    state, user = shared.state(request), shared.user(request)
    posts = state.feed(user)
    start = 0
    cursor = request.query.get("cursor", "")
    if cursor:
        try:
            ts, post_id = decode_cursor(cursor)
        except ValueError:
            return _error(400, "malformed cursor")
        key = (ts, post_id)
        start = next((i for i, p in enumerate(posts)
                      if (p.time.timestamp(), p.id) < key), len(posts))
    chunk = posts[start: start + PAGE_SIZE]
    more = start + PAGE_SIZE < len(posts)
    return web.json_response({
        "total": len(posts), "items": [post_json(p) for p in chunk],
        "next_cursor": encode_cursor(chunk[-1]) if more and chunk else None,
    })


@routes.get("/api/board/{board_id:\\d+}")
async def api_board(request: web.Request) -> web.Response:
    """A board's card: name, description, thread count and its three newest threads."""
    board = shared.board_of(request)
    if board is None:
        return _error(404, f"no board {request.match_info['board_id']}")
    threads = shared.state(request).content.board_threads[board.id]
    return web.json_response({
        "id": board.id, "name": board.name, "description": board.description, "url": board.path,
        "threads": len(threads),
        "latest": [{"title": t.title, "url": t.path} for t in threads[:LATEST_ON_CARD]],
    })


@routes.get("/api/board/{board_id:\\d+}/threads")
async def api_board_threads(request: web.Request) -> web.Response:
    state = shared.state(request)
    board_id = int(request.match_info["board_id"])
    threads = state.content.board_threads.get(board_id)
    if threads is None:
        return _error(404, f"no board {board_id}")
    page = _int_param(request, "page", 1, 1)
    return _paged(threads, page, {"board": board_id}, thread_json)


@routes.get("/api/thread/{thread_id:\\d+}/comments")
async def api_comments(request: web.Request) -> web.Response:
    state = shared.state(request)
    thread = state.content.threads.get(int(request.match_info["thread_id"]))
    if thread is None:
        return _error(404, "no such thread")
    offset = _int_param(request, "offset", 0, 0)
    total = len(thread.comments)
    if offset > total:
        return _error(404, f"offset {offset} is past the last comment ({total})")
    chunk = thread.comments[offset: offset + COMMENTS_INLINE]
    end = offset + len(chunk)
    return web.json_response({
        "thread": thread.id, "offset": offset, "total": total,
        "next_offset": end if end < total else None,
        "items": [{"author": c.author, "author_url": f"/u/{c.author}", "time": iso(c.time),
                   "text": c.text} for c in chunk],
    })


@routes.get("/api/user/{name}/{kind:posts|following|followers}")
async def api_user_list(request: web.Request) -> web.Response:
    state = shared.state(request)
    name, kind = request.match_info["name"], request.match_info["kind"]
    member = state.content.by_name.get(name)
    if member is None:
        return _error(404, f"no member {name}")
    page = _int_param(request, "page", 1, 1)
    extra = {"member": name, "kind": kind}
    if kind == "posts":
        return _paged(state.posts_of(name), page, extra, post_json)
    names = state.following(name) if kind == "following" else state.followers(name)
    return _paged(names, page, extra, lambda n: shared.member_json(state.content.by_name[n]))


def _csrf_ok(request: web.Request) -> bool:
    session = request[shared.SESSION]
    token = request.headers.get("X-CSRF-Token", "")
    return bool(token) and secrets.compare_digest(token, session.csrf)


@routes.post("/api/thread/{thread_id:\\d+}/like")
async def api_like(request: web.Request) -> web.Response:
    state = shared.state(request)
    if not _csrf_ok(request):
        return _error(403, "missing or wrong X-CSRF-Token header")
    thread = state.content.threads.get(int(request.match_info["thread_id"]))
    if thread is None:
        return _error(404, "no such thread")
    return web.json_response({"thread": thread.id,
                              "likes": state.like(shared.user(request), thread)})


@routes.post("/api/user/{name}/follow")
async def api_follow(request: web.Request) -> web.Response:
    state = shared.state(request)
    if not _csrf_ok(request):
        return _error(403, "missing or wrong X-CSRF-Token header")
    name = request.match_info["name"]
    if name not in state.content.by_name:
        return _error(404, f"no member {name}")
    added = state.follow(shared.user(request), name)
    return web.json_response({"member": name, "following": True, "added": added,
                              "followers": len(state.followers(name))})
