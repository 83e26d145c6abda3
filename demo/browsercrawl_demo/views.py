"""Login-required HTML pages of the demo site (feed, boards, threads, profiles, tags, search,
help/legal noise, the archive trap, attachments, account deletion).

The middleware in app.py has already checked the session, so every handler here can rely on
``shared.user(request)``. Handlers only look things up in precomputed content: no generation
per request, so the site stays cheap enough to benchmark a crawler against.
"""

from __future__ import annotations

import mimetypes
import secrets

from aiohttp import web

from browsercrawl_demo import pages, shared
from browsercrawl_demo.state import COMMENTS_INLINE, PAGE_SIZE, page_count

routes = web.RouteTableDef()


def _html(text: str, status: int = 200) -> web.Response:
    return web.Response(text=text, status=status, content_type="text/html")


def not_found(request: web.Request, what: str) -> web.Response:
    s = shared.session(request)
    return _html(pages.error_page(404, what, s.user if s else None), status=404)


def _ctx(request: web.Request) -> tuple[str, str]:
    s = request[shared.SESSION]
    return s.user, s.csrf


def _page(request: web.Request) -> int | None:
    raw = request.query.get("page", "1")
    return int(raw) if raw.isdigit() and int(raw) >= 1 else None


@routes.get("/feed")
async def feed(request: web.Request) -> web.Response:
    return _html(pages.feed(*_ctx(request)))


@routes.get("/members")
async def members(request: web.Request) -> web.Response:
    """Every member in one virtual-scrolled list (a dozen rows in the DOM, recycled)."""
    state = shared.state(request)
    rows = [[m.name, m.display_name] for m in state.content.members if m.name not in state.auth.deleted]
    return _html(pages.members_page(rows, *_ctx(request)))


@routes.get("/boards")
async def boards(request: web.Request) -> web.Response:
    c = shared.state(request).content
    counts = {b: len(ts) for b, ts in c.board_threads.items()}
    return _html(pages.boards_page(c.boards, counts, *_ctx(request)))


@routes.get("/board/{board_id:\\d+}")
async def board(request: web.Request) -> web.Response:
    board = shared.board_of(request)
    if board is None:
        return not_found(request, f"There is no board {request.match_info['board_id']}.")
    threads = shared.state(request).content.board_threads[board.id]
    page, pages_total = _page(request), page_count(len(threads))
    if page is None or page > pages_total:
        return not_found(request, "No such page of this board.")
    return _html(pages.board_page(board, page, pages_total, len(threads), *_ctx(request)))


@routes.get("/boards/cards")
async def board_cards(request: web.Request) -> web.Response:
    return _html(pages.board_cards_page(shared.state(request).content.boards, *_ctx(request)))


@routes.get("/board/{board_id:\\d+}/card")
async def board_card(request: web.Request) -> web.Response:
    board = shared.board_of(request)
    if board is None:
        return not_found(request, f"There is no board {request.match_info['board_id']}.")
    return _html(pages.board_card_page(board, *_ctx(request)))


@routes.get("/t/{thread_id:\\d+}{rest:(-[^/]*)?}")
async def thread(request: web.Request) -> web.Response:
    state = shared.state(request)
    t = state.content.threads.get(int(request.match_info["thread_id"]))
    if t is None:
        return not_found(request, "There is no such thread.")
    if request.path != t.path:  # wrong or missing slug: send to the canonical URL, like real sites
        raise web.HTTPMovedPermanently(t.path)
    board = state.content.boards[t.board_id - 1]
    return _html(pages.thread_page(t, board, state.likes(t), COMMENTS_INLINE, *_ctx(request)))


@routes.get("/files/{thread_id:\\d+}/{name}")
async def attachment(request: web.Request) -> web.Response:
    t = shared.state(request).content.threads.get(int(request.match_info["thread_id"]))
    if t is None or t.attachment is None or t.attachment.name != request.match_info["name"]:
        return not_found(request, "There is no such file.")
    ctype = mimetypes.guess_type(t.attachment.name)[0] or "application/octet-stream"
    return web.Response(body=b"\0" * t.attachment.size, content_type=ctype)


async def _profile(request: web.Request, name: str) -> web.Response:
    state = shared.state(request)
    m = state.content.by_name.get(name)
    if m is None:
        return not_found(request, f"There is no member {name}.")
    viewer, csrf = _ctx(request)
    following = state.following(name)
    counts = {"posts": len(state.posts_of(name)), "following": len(following),
              "followers": len(state.followers(name))}
    initial = [shared.member_json(state.content.by_name[n]) for n in following[:5]]
    return _html(pages.profile_page(
        m, counts=counts, initial_following=initial, viewer=viewer, csrf=csrf,
        follows_already=name in state.following(viewer), deleted=name in state.auth.deleted))


@routes.get("/u/{name}")
async def profile(request: web.Request) -> web.Response:
    return await _profile(request, request.match_info["name"])


@routes.get("/u/{name}/")
async def profile_slash(request: web.Request) -> web.Response:
    """Same person, second URL form (rendered, with the canonical link pointing at /u/<name>)."""
    return await _profile(request, request.match_info["name"])


@routes.get("/member")
async def member_by_id(request: web.Request) -> web.Response:
    """Same person, third URL form: ``/member?id=<numeric id>`` redirects to the profile."""
    raw = request.query.get("id", "")
    m = shared.state(request).content.by_id.get(int(raw)) if raw.isdigit() else None
    if m is None:
        return not_found(request, "There is no member with that id.")
    raise web.HTTPFound(m.path)


@routes.get("/tag/{word}")
async def tag(request: web.Request) -> web.Response:
    c = shared.state(request).content
    word = request.match_info["word"]
    threads = c.tag_threads.get(word)
    if threads is None:
        return not_found(request, f"There is no tag {word}.")
    page, total_pages = _page(request), page_count(len(threads))
    if page is None or page > total_pages:
        return not_found(request, "No such page of this tag.")
    chunk = threads[(page - 1) * PAGE_SIZE: page * PAGE_SIZE]
    return _html(pages.thread_list_page(
        f"Tag {word}", f'Threads tagged <span class="tag-name">{pages.e(word)}</span>', chunk,
        page, total_pages, f"/tag/{word}", *_ctx(request), kind="tag",
        intro=f'<p class="result-count">{len(threads)} threads</p>'))


@routes.get("/search")
async def search(request: web.Request) -> web.Response:
    c = shared.state(request).content
    query = request.query.get("q", "").strip()
    hits = c.search(query) if query else []
    page, total_pages = _page(request), page_count(len(hits))
    if page is None or page > total_pages:
        return not_found(request, "No such page of results.")
    chunk = hits[(page - 1) * PAGE_SIZE: page * PAGE_SIZE]
    intro = pages.search_form(query)
    if query:
        intro += f'<p class="result-count">{len(hits)} results for <q>{pages.e(query)}</q></p>'
    return _html(pages.thread_list_page(
        "Search", "Search threads", chunk, page, total_pages, "/search", *_ctx(request),
        kind="search", extra={"q": query} if query else None, intro=intro))


@routes.get("/help/{topic}")
async def help_page(request: web.Request) -> web.Response:
    topic = request.match_info["topic"]
    text = shared.state(request).content.help_pages.get(topic)
    if text is None:
        return not_found(request, f"There is no help topic {topic}.")
    return _html(pages.noise_page("help", topic, text, *_ctx(request)))


@routes.get("/legal/{doc}")
async def legal_page(request: web.Request) -> web.Response:
    doc = request.match_info["doc"]
    text = shared.state(request).content.legal_pages.get(doc)
    if text is None:
        return not_found(request, f"There is no legal document {doc}.")
    return _html(pages.noise_page("legal", doc, text, *_ctx(request)))


@routes.get("/archive/{year:\\d{1,6}}/{month:\\d{1,2}}")
async def archive(request: web.Request) -> web.Response:
    year, month = int(request.match_info["year"]), int(request.match_info["month"])
    if year < 1 or not 1 <= month <= 12:
        return not_found(request, "There is no such month.")
    threads = shared.state(request).content.month_threads.get((year, month), [])
    return _html(pages.archive_page(year, month, threads, *_ctx(request)))


@routes.post("/account/delete")
async def delete_account(request: web.Request) -> web.Response:
    """The ``button.danger``: really deletes (marks) the account and ends its sessions."""
    state, s = shared.state(request), request[shared.SESSION]
    form = await request.post()
    token = str(form.get("csrf_token", ""))
    if not token or not secrets.compare_digest(token, s.csrf):
        return _html(pages.error_page(403, "Invalid form token.", s.user), status=403)
    state.delete_account(s.user)
    state.auth.end(s.sid)
    response = web.HTTPFound("/")
    response.del_cookie(shared.COOKIE, path="/")
    raise response

